// The same product written in the tpu dialect, with its own precision, as
// a user who targets the TPU directly writes it. Compile it with
//   tpu-opt examples/matmul-tpu.mlir --tpu-compile
// (its precision wins over default-precision).
func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %c = tpu.matmul %a, %b {precision = #tpu.precision<highest>}
      : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
  return %c : tensor<7x129xf32>
}
