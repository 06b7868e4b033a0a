// A user error: an op the compiler does not take (errors.mlir): an NCHW
// convolution (the compiler takes NHWC).
func.func @main(%a: tensor<1x1x8x8xf32>, %b: tensor<1x1x3x3xf32>, %c: tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32> {
  %r = linalg.conv_2d_nchw_fchw ins(%a, %b : tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%c : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  return %r : tensor<1x1x6x6xf32>
}
