// No arguments: zero-filled 300x129 and 7x129 tensors, as .npy files for the
// accumulation test.
func.func @main() -> (tensor<300x129xf32>, tensor<7x129xf32>) {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<300x129xf32>
  %z0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<300x129xf32>) -> tensor<300x129xf32>
  %e1 = tensor.empty() : tensor<7x129xf32>
  %z1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %z0, %z1 : tensor<300x129xf32>, tensor<7x129xf32>
}
