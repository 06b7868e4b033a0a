// Arithmetic identities the VPU does not treat as such (it flushes
// subnormals and makes NaNs canonical): x * 1 on tensors with a splat
// constant, then x + -0, x / 1, x - 0 and max(x, x) in one body
// (test/e2e/identities.test).
func.func @main(%x: tensor<9x130xf32>) -> tensor<9x130xf32> {
  %one = arith.constant dense<1.0> : tensor<9x130xf32>
  %m = arith.mulf %x, %one : tensor<9x130xf32>
  %init = tensor.empty() : tensor<9x130xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<9x130xf32>) outs(%init : tensor<9x130xf32>) {
  ^bb0(%a: f32, %out: f32):
    %negzero = arith.constant -0.0 : f32
    %c1 = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %a, %negzero : f32
    %d = arith.divf %s, %c1 : f32
    %z = arith.subf %d, %zero : f32
    %y = arith.maximumf %z, %z : f32
    linalg.yield %y : f32
  } -> tensor<9x130xf32>
  return %r : tensor<9x130xf32>
}
