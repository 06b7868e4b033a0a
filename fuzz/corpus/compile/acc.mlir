func.func @main(%a: tensor<9x128xf32>, %b: tensor<128x130xf32>, %c: tensor<9x130xf32>) -> tensor<9x130xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<9x128xf32>, tensor<128x130xf32>) outs(%c : tensor<9x130xf32>) -> tensor<9x130xf32>
  return %r : tensor<9x130xf32>
}
