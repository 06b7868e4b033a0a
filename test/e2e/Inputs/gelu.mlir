// GELU, tanh form: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), as
// one elementwise body (test/e2e/body.test).
func.func @main(%x: tensor<129x300xf32>) -> tensor<129x300xf32> {
  %init = tensor.empty() : tensor<129x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<129x300xf32>) outs(%init : tensor<129x300xf32>) {
  ^bb0(%a: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.044715 : f32
    %k = arith.constant 0.797884583 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %ca3 = arith.mulf %c, %a3 : f32
    %inner = arith.addf %a, %ca3 : f32
    %scaled = arith.mulf %k, %inner : f32
    %t = math.tanh %scaled : f32
    %onePlus = arith.addf %one, %t : f32
    %halfX = arith.mulf %half, %a : f32
    %g = arith.mulf %halfX, %onePlus : f32
    linalg.yield %g : f32
  } -> tensor<129x300xf32>
  return %r : tensor<129x300xf32>
}
