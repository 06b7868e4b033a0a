// Two entries: @main is upstream MLIR; @main_tpu holds an op of the tpu
// dialect (in generic form, which parses without the dialect). tpu-cpu-run
// drops what the entry does not reach, so @main runs and @main_tpu is refused.
func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x129xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<7x129xf32>) -> tensor<7x129xf32>
  %r = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>)
      outs(%z : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %r : tensor<7x129xf32>
}

func.func @main_tpu(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %r = "tpu.matmul"(%a, %b) {precision = #tpu.precision<highest>}
      : (tensor<7x300xf32>, tensor<300x129xf32>) -> tensor<7x129xf32>
  return %r : tensor<7x129xf32>
}
