// A user error: %b is not defined (errors.mlir).
func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  return %b : tensor<8x128xf32>
}
