// A user error: an op the compiler does not take (errors.mlir).
func.func @main(%a: tensor<1x8x8x1xf32>, %b: tensor<3x3x1x1xf32>) -> tensor<1x6x6x1xf32> {
  %e = tensor.empty() : tensor<1x6x6x1xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%a, %b : tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) outs(%e : tensor<1x6x6x1xf32>) -> tensor<1x6x6x1xf32>
  return %r : tensor<1x6x6x1xf32>
}
