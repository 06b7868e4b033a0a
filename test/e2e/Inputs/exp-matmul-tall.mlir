// exp-matmul.mlir with 4201 rows: the padding to 4208x384 copies 526 rows
// of 3 tiles, in chunks of 170 (the last shorter), the lanes past 300
// zeroed in each and the rows past 4201 in the last alone
// (test/e2e/chains.test).
func.func @main(%a: tensor<4201x300xf32>, %w: tensor<300x130xf32>) -> tensor<4201x130xf32> {
  %e = math.exp %a : tensor<4201x300xf32>
  %q = arith.divf %e, %a : tensor<4201x300xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4201x130xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4201x130xf32>) -> tensor<4201x130xf32>
  %y = linalg.matmul ins(%q, %w : tensor<4201x300xf32>, tensor<300x130xf32>) outs(%acc : tensor<4201x130xf32>) -> tensor<4201x130xf32>
  return %y : tensor<4201x130xf32>
}
