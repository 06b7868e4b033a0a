// A CIFAR-10-shaped convolutional network: a batch of 8 images of 32x32x3
// -> conv 3x3, 32 filters (SAME) + bias + ReLU -> max pool 2x2
// -> conv 3x3, 64 filters (SAME) + bias + ReLU -> max pool 2x2
// -> dense 10 (logits). Plain upstream MLIR, NHWC as JAX and TensorFlow
// lay images out: SAME padding arrives as tensor.pad, as frontends emit it.
// Weights and biases are arguments (examples/cnn-inputs.sh makes them).
//
// The dense layer is written as the convolution it is: an 8x8 window over
// the whole 8x8x64 map, 10 filters (a [8, 8, 64, 10] filter is the dense
// layer's [4096, 10] matrix, reshaped), then the 1x1 spatial dimensions
// dropped. The flatten to [8, 4096] a frontend would write first moves
// elements between rows and lanes: it compiles, as transposes around a
// regroup of rows, but costs passes over the map this form does not
// (docs/Rationale.md).
//
//   tpu-opt cnn.mlir --tpu-compile="chip=v4 default-precision=highest" -o cnn.isa.mlir
#bias = affine_map<(n, h, w, c) -> (c)>
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @main(%x: tensor<8x32x32x3xf32>,
                %w1: tensor<3x3x3x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<3x3x32x64xf32>, %b2: tensor<64xf32>,
                %w3: tensor<8x8x64x10xf32>, %b3: tensor<10xf32>)
    -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32

  // conv1 + bias + ReLU: 8x32x32x32.
  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<8x32x32x3xf32> to tensor<8x34x34x3xf32>
  %e1 = tensor.empty() : tensor<8x32x32x32xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
          ins(%xp, %w1 : tensor<8x34x34x3xf32>, tensor<3x3x3x32xf32>)
          outs(%z1 : tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<8x32x32x32xf32>, tensor<32xf32>) outs(%e1 : tensor<8x32x32x32xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x32x32x32xf32>

  // max pool 2x2: 8x16x16x32.
  %win = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<8x16x16x32xf32>
  %m2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>
  %p1 = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
          ins(%r1, %win : tensor<8x32x32x32xf32>, tensor<2x2xf32>)
          outs(%m2 : tensor<8x16x16x32xf32>) -> tensor<8x16x16x32xf32>

  // conv2 + bias + ReLU: 8x16x16x64.
  %pp = tensor.pad %p1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<8x16x16x32xf32> to tensor<8x18x18x32xf32>
  %e3 = tensor.empty() : tensor<8x16x16x64xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
          ins(%pp, %w2 : tensor<8x18x18x32xf32>, tensor<3x3x32x64xf32>)
          outs(%z3 : tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %b2 : tensor<8x16x16x64xf32>, tensor<64xf32>) outs(%e3 : tensor<8x16x16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x16x16x64xf32>

  // max pool 2x2: 8x8x8x64.
  %e4 = tensor.empty() : tensor<8x8x8x64xf32>
  %m4 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<8x8x8x64xf32>) -> tensor<8x8x8x64xf32>
  %p2 = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
          ins(%r2, %win : tensor<8x16x16x64xf32>, tensor<2x2xf32>)
          outs(%m4 : tensor<8x8x8x64xf32>) -> tensor<8x8x8x64xf32>

  // dense 10: the 8x8 window over the whole map, then + bias.
  %e5 = tensor.empty() : tensor<8x1x1x10xf32>
  %z5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<8x1x1x10xf32>) -> tensor<8x1x1x10xf32>
  %d = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%p2, %w3 : tensor<8x8x8x64xf32>, tensor<8x8x64x10xf32>)
         outs(%z5 : tensor<8x1x1x10xf32>) -> tensor<8x1x1x10xf32>
  %flat = tensor.collapse_shape %d [[0, 1, 2], [3]] : tensor<8x1x1x10xf32> into tensor<8x10xf32>
  %e6 = tensor.empty() : tensor<8x10xf32>
  %logits = linalg.generic {indexing_maps = [affine_map<(n, j) -> (n, j)>, affine_map<(n, j) -> (j)>, affine_map<(n, j) -> (n, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%flat, %b3 : tensor<8x10xf32>, tensor<10xf32>) outs(%e6 : tensor<8x10xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x10xf32>
  return %logits : tensor<8x10xf32>
}
