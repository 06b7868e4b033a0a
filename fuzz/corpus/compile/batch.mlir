func.func @main(%a: tensor<2x9x200xf32>, %b: tensor<2x200x70xf32>) -> tensor<2x9x70xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x9x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x9x70xf32>) -> tensor<2x9x70xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x9x200xf32>, tensor<2x200x70xf32>) outs(%c : tensor<2x9x70xf32>) -> tensor<2x9x70xf32>
  return %r : tensor<2x9x70xf32>
}
