// A bias row added to every row, then ReLU (test/e2e/broadcast.test).
func.func @main(%y: tensor<7x300xf32>, %b: tensor<300xf32>) -> tensor<7x300xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<7x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<7x300xf32>, tensor<300xf32>) outs(%init : tensor<7x300xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<7x300xf32>
  return %r : tensor<7x300xf32>
}
