// A user error: integer operands (errors.mlir).
func.func @main(%a: tensor<8x128xi32>, %b: tensor<128x128xi32>) -> tensor<8x128xi32> {
  %e = tensor.empty() : tensor<8x128xi32>
  %r = linalg.matmul ins(%a, %b : tensor<8x128xi32>, tensor<128x128xi32>) outs(%e : tensor<8x128xi32>) -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}
