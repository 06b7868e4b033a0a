// softmax over the last dimension, max-subtracted, as frontends write it
// by hand: two row reductions, two per-row broadcasts, exp and a division
// (test/e2e/reduce.test).
func.func @main(%x: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<7xf32>
  %init = tensor.empty() : tensor<7x300xf32>
  %lowest = linalg.fill ins(%ninf : f32) outs(%rows : tensor<7xf32>) -> tensor<7xf32>
  %max = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%lowest : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<7x300xf32>, tensor<7xf32>) outs(%init : tensor<7x300xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %v = math.exp %d : f32
    linalg.yield %v : f32
  } -> tensor<7x300xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<7xf32>) -> tensor<7xf32>
  %sum = linalg.reduce ins(%e : tensor<7x300xf32>) outs(%zeros : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<7x300xf32>, tensor<7xf32>) outs(%init : tensor<7x300xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<7x300xf32>
  return %r : tensor<7x300xf32>
}
