// The worked example of docs/Compiler.md: a 7x200 by 200x129 matmul at HIGH
// precision (3 bf16 passes), small enough to read after every pass.
func.func @main(%a: tensor<7x200xf32>, %b: tensor<200x129xf32>) -> tensor<7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x129xf32>) -> tensor<7x129xf32>
  %c = linalg.matmul {tpu.precision = #tpu.precision<high>}
         ins(%a, %b : tensor<7x200xf32>, tensor<200x129xf32>)
         outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %c : tensor<7x129xf32>
}
