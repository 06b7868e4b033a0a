func.func @main(%a: tensor<30x100xf32>, %b: tensor<100xf32>) -> tensor<30xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<30xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<30xf32>) -> tensor<30xf32>
  %r = linalg.matvec ins(%a, %b : tensor<30x100xf32>, tensor<100xf32>) outs(%c : tensor<30xf32>) -> tensor<30xf32>
  return %r : tensor<30xf32>
}
