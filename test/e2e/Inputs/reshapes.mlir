// Reshapes that keep the (8,128) tiles, as views: whole row tiles merged
// with a leading dimension and split again another way, and a unit
// dimension added in front of the last two (test/e2e/reshape.test).
func.func @main(%x: tensor<2x64x300xf32>, %y: tensor<128x300xf32>) -> tensor<4x1x32x300xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x64x300xf32> into tensor<128x300xf32>
  %s = arith.addf %c, %y : tensor<128x300xf32>
  %e = tensor.expand_shape %s [[0, 1, 2], [3]] output_shape [4, 1, 32, 300] : tensor<128x300xf32> into tensor<4x1x32x300xf32>
  %m = arith.mulf %e, %e : tensor<4x1x32x300xf32>
  return %m : tensor<4x1x32x300xf32>
}
