func.func @main(%a: tensor<16384x16384xf32>, %b: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
  %c = tpu.matmul %a, %b : tensor<16384x16384xf32>, tensor<16384x16384xf32> -> tensor<16384x16384xf32>
  return %c : tensor<16384x16384xf32>
}
