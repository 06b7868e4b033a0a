// A row broadcast to 7 rows used as a matmul's right-hand side: the
// contraction pads its 7 rows to 128 (test/e2e/broadcast.test).
func.func @main(%x: tensor<5x7xf32>, %b: tensor<130xf32>) -> tensor<5x130xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<7x130xf32>
  %rhs = linalg.broadcast ins(%b : tensor<130xf32>) outs(%rows : tensor<7x130xf32>) dimensions = [0]
  %init = tensor.empty() : tensor<5x130xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<5x130xf32>) -> tensor<5x130xf32>
  %y = linalg.matmul ins(%x, %rhs : tensor<5x7xf32>, tensor<7x130xf32>) outs(%acc : tensor<5x130xf32>) -> tensor<5x130xf32>
  return %y : tensor<5x130xf32>
}
