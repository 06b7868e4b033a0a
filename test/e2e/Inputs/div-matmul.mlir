// A division feeding a matmul's right-hand side: 0/0 makes NaN of the
// padding of its 7x130 result, whose 7 rows pad to 128 for the MXU
// (test/e2e/chains.test).
func.func @main(%x: tensor<5x7xf32>, %p: tensor<7x130xf32>, %q: tensor<7x130xf32>) -> tensor<5x130xf32> {
  %d = arith.divf %p, %q : tensor<7x130xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<5x130xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<5x130xf32>) -> tensor<5x130xf32>
  %y = linalg.matmul ins(%x, %d : tensor<5x7xf32>, tensor<7x130xf32>) outs(%acc : tensor<5x130xf32>) -> tensor<5x130xf32>
  return %y : tensor<5x130xf32>
}
