// A convolution of 3 channels behind a pad of -inf: the pad is not folded
// into the windows (their padded channels would be -inf, and -inf x 0 is
// NaN where the model has 0 x 0), but made first, its padding lanes zero
// (conv.test).
func.func @main(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x4x4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x4x3xf32> to tensor<1x6x6x3xf32>
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%init : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}
