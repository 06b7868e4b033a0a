// exp(a) / a feeding a matmul's left-hand side: it turns the zero padding
// of its 7x300 result into exp(0) / 0 = inf, and padding to 8x384 for the
// MXU must not let that in (inf times the RHS's zero padding is NaN)
// (test/e2e/chains.test).
func.func @main(%a: tensor<7x300xf32>, %w: tensor<300x130xf32>) -> tensor<7x130xf32> {
  %e = math.exp %a : tensor<7x300xf32>
  %q = arith.divf %e, %a : tensor<7x300xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<7x130xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<7x130xf32>) -> tensor<7x130xf32>
  %y = linalg.matmul ins(%q, %w : tensor<7x300xf32>, tensor<300x130xf32>) outs(%acc : tensor<7x130xf32>) -> tensor<7x130xf32>
  return %y : tensor<7x130xf32>
}
