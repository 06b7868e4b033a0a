func.func @main(%x1: tensor<9x130xf32>,%x2: tensor<9x130xf32>) -> tensor<9x130xf32> {
  %init = tensor.empty() : tensor<9x130xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0,d1) -> (d0,d1)>, affine_map<(d0,d1) -> (d0,d1)>, affine_map<(d0,d1) -> (d0,d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x1,%x2 : tensor<9x130xf32>, tensor<9x130xf32>)
      outs(%init : tensor<9x130xf32>) {
  ^bb0(%s1: f32, %s2: f32, %out: f32):
    %v = arith.maximumf %s1, %s2 : f32
    linalg.yield %v : f32
  } -> tensor<9x130xf32>
  return %r : tensor<9x130xf32>
}
