// A pre-LN transformer block: sequence 128, model width 256, 4 heads of
// 64, an MLP 256-1024-256 with GELU (tanh form), two residual adds.
// Plain upstream MLIR on tensors; weights and LayerNorm parameters are
// arguments.
//
//   h = x + Attention(LayerNorm1(x))
//   y = h + W2 GELU(W1 LayerNorm2(h) + b1) + b2
//
// The attention weights are per head (Wq, Wk, Wv: 4x256x64; Wo: 4x64x256),
// as an einsum over heads writes them: each head is a batch of
// batch_matmul, and concat(heads) Wo is the sum over heads of head_h Wo_h,
// a linalg.reduce over the head dimension.
//
//   tpu-opt transformer_block.mlir --tpu-compile="chip=v4 default-precision=highest"
//   (test/e2e/transformer.test runs it)
#row = affine_map<(i, j) -> (i, j)>
#perRow = affine_map<(i, j) -> (i)>
#perCol = affine_map<(i, j) -> (j)>
#head = affine_map<(h, i, j) -> (h, i, j)>

// LayerNorm over the 256 features of each row, epsilon 1e-5:
// (x - mean) / sqrt(var + eps) * gamma + beta.
func.func private @layer_norm(%x: tensor<128x256xf32>, %gamma: tensor<256xf32>,
                              %beta: tensor<256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %rows = tensor.empty() : tensor<128xf32>
  %full = tensor.empty() : tensor<128x256xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%rows : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.reduce ins(%x : tensor<128x256xf32>) outs(%zeros : tensor<128xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %centered = linalg.generic {indexing_maps = [#row, #perRow, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<128x256xf32>, tensor<128xf32>) outs(%full : tensor<128x256xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %inv = arith.constant 3.906250e-03 : f32
    %mean = arith.mulf %s, %inv : f32
    %d = arith.subf %a, %mean : f32
    linalg.yield %d : f32
  } -> tensor<128x256xf32>
  %squares = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%centered : tensor<128x256xf32>) outs(%full : tensor<128x256xf32>) {
  ^bb0(%d: f32, %out: f32):
    %sq = arith.mulf %d, %d : f32
    linalg.yield %sq : f32
  } -> tensor<128x256xf32>
  %sumsq = linalg.reduce ins(%squares : tensor<128x256xf32>) outs(%zeros : tensor<128xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %normed = linalg.generic {indexing_maps = [#row, #perRow, #perCol, #perCol, #row], iterator_types = ["parallel", "parallel"]}
      ins(%centered, %sumsq, %gamma, %beta : tensor<128x256xf32>, tensor<128xf32>, tensor<256xf32>, tensor<256xf32>)
      outs(%full : tensor<128x256xf32>) {
  ^bb0(%d: f32, %ss: f32, %g: f32, %b: f32, %out: f32):
    %inv = arith.constant 3.906250e-03 : f32
    %eps = arith.constant 1.0e-05 : f32
    %var = arith.mulf %ss, %inv : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    %n = arith.mulf %d, %r : f32
    %ng = arith.mulf %n, %g : f32
    %y = arith.addf %ng, %b : f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  return %normed : tensor<128x256xf32>
}

// One projection per head: x (shared by the heads) times W[h].
func.func private @project(%x: tensor<128x256xf32>, %w: tensor<4x256x64xf32>) -> tensor<4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %xs0 = tensor.empty() : tensor<4x128x256xf32>
  %xs = linalg.broadcast ins(%x : tensor<128x256xf32>) outs(%xs0 : tensor<4x128x256xf32>) dimensions = [0]
  %p0 = tensor.empty() : tensor<4x128x64xf32>
  %pacc = linalg.fill ins(%zero : f32) outs(%p0 : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %p = linalg.batch_matmul ins(%xs, %w : tensor<4x128x256xf32>, tensor<4x256x64xf32>)
                           outs(%pacc : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %p : tensor<4x128x64xf32>
}

// Multi-head self-attention: softmax(Q K^T / sqrt(64)) V per head, then
// the output projection summed over heads.
func.func private @attention(%x: tensor<128x256xf32>, %wq: tensor<4x256x64xf32>,
                             %wk: tensor<4x256x64xf32>, %wv: tensor<4x256x64xf32>,
                             %wo: tensor<4x64x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %q = func.call @project(%x, %wq) : (tensor<128x256xf32>, tensor<4x256x64xf32>) -> tensor<4x128x64xf32>
  %k = func.call @project(%x, %wk) : (tensor<128x256xf32>, tensor<4x256x64xf32>) -> tensor<4x128x64xf32>
  %v = func.call @project(%x, %wv) : (tensor<128x256xf32>, tensor<4x256x64xf32>) -> tensor<4x128x64xf32>
  %kt0 = tensor.empty() : tensor<4x64x128xf32>
  %kt = linalg.transpose ins(%k : tensor<4x128x64xf32>) outs(%kt0 : tensor<4x64x128xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x128x128xf32>
  %sacc = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scores = linalg.batch_matmul ins(%q, %kt : tensor<4x128x64xf32>, tensor<4x64x128xf32>)
                                outs(%sacc : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %scaled = linalg.generic {indexing_maps = [#head, #head], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<4x128x128xf32>) outs(%s0 : tensor<4x128x128xf32>) {
  ^bb0(%a: f32, %out: f32):
    %c = arith.constant 1.250000e-01 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<4x128x128xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<4x128x128xf32>) outs(%s0 : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %o0 = tensor.empty() : tensor<4x128x64xf32>
  %oacc = linalg.fill ins(%zero : f32) outs(%o0 : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %heads = linalg.batch_matmul ins(%probs, %v : tensor<4x128x128xf32>, tensor<4x128x64xf32>)
                               outs(%oacc : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %y0 = tensor.empty() : tensor<4x128x256xf32>
  %yacc = linalg.fill ins(%zero : f32) outs(%y0 : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %perHead = linalg.batch_matmul ins(%heads, %wo : tensor<4x128x64xf32>, tensor<4x64x256xf32>)
                                 outs(%yacc : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %r0 = tensor.empty() : tensor<128x256xf32>
  %racc = linalg.fill ins(%zero : f32) outs(%r0 : tensor<128x256xf32>) -> tensor<128x256xf32>
  %out = linalg.reduce ins(%perHead : tensor<4x128x256xf32>) outs(%racc : tensor<128x256xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %out : tensor<128x256xf32>
}

func.func @main(%x: tensor<128x256xf32>,
                %ln1_gamma: tensor<256xf32>, %ln1_beta: tensor<256xf32>,
                %wq: tensor<4x256x64xf32>, %wk: tensor<4x256x64xf32>,
                %wv: tensor<4x256x64xf32>, %wo: tensor<4x64x256xf32>,
                %ln2_gamma: tensor<256xf32>, %ln2_beta: tensor<256xf32>,
                %w1: tensor<256x1024xf32>, %b1: tensor<1024xf32>,
                %w2: tensor<1024x256xf32>, %b2: tensor<256xf32>)
    -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %full = tensor.empty() : tensor<128x256xf32>

  // h = x + Attention(LayerNorm1(x))
  %n1 = func.call @layer_norm(%x, %ln1_gamma, %ln1_beta)
      : (tensor<128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %attn = func.call @attention(%n1, %wq, %wk, %wv, %wo)
      : (tensor<128x256xf32>, tensor<4x256x64xf32>, tensor<4x256x64xf32>, tensor<4x256x64xf32>, tensor<4x64x256xf32>) -> tensor<128x256xf32>
  %h = linalg.add ins(%x, %attn : tensor<128x256xf32>, tensor<128x256xf32>) outs(%full : tensor<128x256xf32>) -> tensor<128x256xf32>

  // y = h + W2 GELU(W1 LayerNorm2(h) + b1) + b2
  %n2 = func.call @layer_norm(%h, %ln2_gamma, %ln2_beta)
      : (tensor<128x256xf32>, tensor<256xf32>, tensor<256xf32>) -> tensor<128x256xf32>
  %u0 = tensor.empty() : tensor<128x1024xf32>
  %uacc = linalg.fill ins(%zero : f32) outs(%u0 : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %u = linalg.matmul ins(%n2, %w1 : tensor<128x256xf32>, tensor<256x1024xf32>)
                     outs(%uacc : tensor<128x1024xf32>) -> tensor<128x1024xf32>
  %g = linalg.generic {indexing_maps = [#row, #perCol, #row], iterator_types = ["parallel", "parallel"]}
      ins(%u, %b1 : tensor<128x1024xf32>, tensor<1024xf32>) outs(%u0 : tensor<128x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.044715 : f32
    %k = arith.constant 0.797884583 : f32
    %z = arith.addf %a, %b : f32
    %z2 = arith.mulf %z, %z : f32
    %z3 = arith.mulf %z2, %z : f32
    %cz3 = arith.mulf %c, %z3 : f32
    %inner = arith.addf %z, %cz3 : f32
    %scaled = arith.mulf %k, %inner : f32
    %t = math.tanh %scaled : f32
    %onePlus = arith.addf %one, %t : f32
    %halfZ = arith.mulf %half, %z : f32
    %gelu = arith.mulf %halfZ, %onePlus : f32
    linalg.yield %gelu : f32
  } -> tensor<128x1024xf32>
  %dacc = linalg.fill ins(%zero : f32) outs(%full : tensor<128x256xf32>) -> tensor<128x256xf32>
  %d = linalg.matmul ins(%g, %w2 : tensor<128x1024xf32>, tensor<1024x256xf32>)
                     outs(%dacc : tensor<128x256xf32>) -> tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#row, #perCol, #row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%d, %b2, %h : tensor<128x256xf32>, tensor<256xf32>, tensor<128x256xf32>) outs(%full : tensor<128x256xf32>) {
  ^bb0(%a: f32, %b: f32, %res: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.addf %s, %res : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}
