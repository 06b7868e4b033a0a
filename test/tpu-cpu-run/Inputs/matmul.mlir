// A 7x300 by 300x129 matmul into a zero fill, as a user writes it; the tpu.*
// attributes are the TPU compiler's and tpu-cpu-run drops them.
module attributes {tpu.chip = #tpu.chip<v4>} {
  func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<7x129xf32>
    %z = linalg.fill ins(%cst : f32) outs(%e : tensor<7x129xf32>) -> tensor<7x129xf32>
    %r = linalg.matmul {tpu.precision = #tpu.precision<highest>}
        ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>)
        outs(%z : tensor<7x129xf32>) -> tensor<7x129xf32>
    return %r : tensor<7x129xf32>
  }
}
