// A matrix shared across a batch, added to each (test/e2e/broadcast.test).
func.func @main(%x: tensor<3x9x130xf32>, %m: tensor<9x130xf32>) -> tensor<3x9x130xf32> {
  %init = tensor.empty() : tensor<3x9x130xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : tensor<3x9x130xf32>, tensor<9x130xf32>) outs(%init : tensor<3x9x130xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.subf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x9x130xf32>
  return %r : tensor<3x9x130xf32>
}
