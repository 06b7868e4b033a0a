// One attention head: softmax(Q K^T / sqrt(d)) V, sequence 512, d = 128,
// with the row max subtracted before exp, as frontends write it. Plain
// upstream MLIR on tensors; Q, K and V are arguments.
//
//   tpu-opt attention.mlir --tpu-compile=chip=v4 -o attention.isa.mlir
func.func @main(%q: tensor<512x128xf32>, %k: tensor<512x128xf32>,
                %v: tensor<512x128xf32>) -> tensor<512x128xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  // 1 / sqrt(128)
  %scale = arith.constant 0.0883883461 : f32

  // Scores: Q K^T, scaled.
  %kt0 = tensor.empty() : tensor<128x512xf32>
  %kt = linalg.transpose ins(%k : tensor<512x128xf32>) outs(%kt0 : tensor<128x512xf32>) permutation = [1, 0]
  %s0 = tensor.empty() : tensor<512x512xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%s0 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %qk = linalg.matmul ins(%q, %kt : tensor<512x128xf32>, tensor<128x512xf32>)
                      outs(%sacc : tensor<512x512xf32>) -> tensor<512x512xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%qk : tensor<512x512xf32>) outs(%s0 : tensor<512x512xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<512x512xf32>

  // softmax over each row of scores.
  %rows = tensor.empty() : tensor<512xf32>
  %lowest = linalg.fill ins(%ninf : f32) outs(%rows : tensor<512xf32>) -> tensor<512xf32>
  %max = linalg.reduce ins(%s : tensor<512x512xf32>) outs(%lowest : tensor<512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %e = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%s, %max : tensor<512x512xf32>, tensor<512xf32>) outs(%s0 : tensor<512x512xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<512x512xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<512xf32>) -> tensor<512xf32>
  %sum = linalg.reduce ins(%e : tensor<512x512xf32>) outs(%zeros : tensor<512xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<512x512xf32>, tensor<512xf32>) outs(%s0 : tensor<512x512xf32>) {
  ^bb0(%a: f32, %t: f32, %out: f32):
    %r = arith.divf %a, %t : f32
    linalg.yield %r : f32
  } -> tensor<512x512xf32>

  // The weighted values: P V.
  %o0 = tensor.empty() : tensor<512x128xf32>
  %oacc = linalg.fill ins(%zero : f32) outs(%o0 : tensor<512x128xf32>) -> tensor<512x128xf32>
  %o = linalg.matmul ins(%p, %v : tensor<512x512xf32>, tensor<512x128xf32>)
                     outs(%oacc : tensor<512x128xf32>) -> tensor<512x128xf32>
  return %o : tensor<512x128xf32>
}
