// A user error: the dynamic dimension (errors.mlir).
func.func @main(%a: tensor<?x128xf32>, %b: tensor<128x128xf32>) -> tensor<?x128xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x128xf32>
  %e = tensor.empty(%d) : tensor<?x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x128xf32>, tensor<128x128xf32>) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}
