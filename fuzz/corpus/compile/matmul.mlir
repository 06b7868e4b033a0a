// A 7x300 by 300x129 matmul as a user writes it in upstream MLIR. The odd
// sizes are deliberate: on the TPU they pad to (8,128) tiles. The README's
// main job (scripts/demo.sh) compiles it with
//   tpu-opt --tpu-compile="chip=v4 default-precision=highest"
// and runs it in tpu-sim; tpu-cpu-run runs the same file on the CPU.
module attributes {tpu.chip = #tpu.chip<v4>} {
  func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<7x129xf32>
    %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x129xf32>) -> tensor<7x129xf32>
    %c = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>)
                       outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
    return %c : tensor<7x129xf32>
  }
}
