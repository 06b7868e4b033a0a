//===- Passes.td - Conversions into and out of tpu ---------*- tablegen -*-===//

#ifndef TPU_CONVERSION_PASSES_TD
#define TPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPUConvertLinalg : Pass<"tpu-convert-linalg", "::mlir::ModuleOp"> {
  let summary = "Convert linalg matrix products to tpu.matmul";
  let description = [{
    Rewrites `linalg.matmul`, `linalg.batch_matmul` and `linalg.matvec` on
    tensors into `tpu.matmul`. An init that is a `linalg.fill` of zero (the
    usual idiom) becomes a matmul without accumulator, which starts from
    zero; any other init is passed as the accumulator and added into.
    `linalg.matvec` multiplies by the vector as a K x 1 matrix.

    Each matmul gets `default-precision` (the analogue of JAX's
    `jax_default_matmul_precision`) unless the linalg op carries its own
    `tpu.precision` attribute:

    ```mlir
    %c = linalg.matmul {tpu.precision = #tpu.precision<highest>}
           ins(%a, %b : tensor<8x128xf32>, tensor<128x128xf32>)
           outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
    ```

    Any other linalg op, a matmul with user-defined indexing maps, element
    types other than f32/bf16 operands with an f32 result, dynamic shapes,
    and linalg on buffers are errors that name the op and say why.
  }];
  let options = [
    Option<"defaultPrecision", "default-precision", "std::string",
           /*default=*/"\"default\"",
           "precision of matmuls that do not set tpu.precision: default, "
           "high, highest, or a JAX alias (bfloat16, bfloat16_3x, "
           "tensorfloat32, float32, BF16_BF16_F32[_X3|_X6])">
  ];
  let dependentDialects = [
    "::tpu::TPUDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // TPU_CONVERSION_PASSES_TD
