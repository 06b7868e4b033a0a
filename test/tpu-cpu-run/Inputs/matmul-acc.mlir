// A matmul accumulating into an init given as an argument.
func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>, %c: tensor<7x129xf32>) -> tensor<7x129xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>)
      outs(%c : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %r : tensor<7x129xf32>
}
