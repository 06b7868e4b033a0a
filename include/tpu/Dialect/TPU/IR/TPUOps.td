//===- TPUOps.td - tpu dialect operations ------------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUOPS_TD
#define TPU_DIALECT_TPU_IR_TPUOPS_TD

include "tpu/Dialect/TPU/IR/TPUDialect.td"
include "tpu/Dialect/TPU/IR/TPUAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TPU_MatmulOperand : StaticShapeTensorOf<[F32, BF16]>;
def TPU_MatmulResult : StaticShapeTensorOf<[F32]>;

def TPU_MatmulOp : TPU_Op<"matmul", [Pure]> {
  let summary = "Matrix multiplication on the MXU, with a precision";
  let description = [{
    `result = acc + lhs x rhs`, batched over leading dimensions:
    `lhs` is `[batch..., M, K]`, `rhs` is `[batch..., K, N]`, the optional
    accumulator and the result are `[batch..., M, N]`. Both operands have the
    same batch dimensions. Operands are f32 or bf16 (they may differ); the
    accumulator and result are f32. Without an accumulator the sum starts from
    zero.

    `precision` says how many bf16 MXU passes an f32 operand gets (see
    `#tpu.precision`). When it is absent, the compiler's `default-precision`
    applies, as `jax_default_matmul_precision` does for a JAX dot with
    `precision=None`.

    ```mlir
    %0 = tpu.matmul %a, %b : tensor<7x300xf32>, tensor<300x129xf32>
           -> tensor<7x129xf32>
    %1 = tpu.matmul %a, %b acc %c {precision = #tpu.precision<highest>}
           : tensor<2x8x128xf32>, tensor<2x128x256xbf16>, tensor<2x8x256xf32>
           -> tensor<2x8x256xf32>
    ```
  }];
  let arguments = (ins
    TPU_MatmulOperand:$lhs,
    TPU_MatmulOperand:$rhs,
    Optional<TPU_MatmulResult>:$acc,
    OptionalAttr<TPU_PrecisionAttr>:$precision
  );
  let results = (outs TPU_MatmulResult:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`acc` $acc^)? attr-dict `:` type($lhs) `,` type($rhs)
    (`,` type($acc)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TPU_DIALECT_TPU_IR_TPUOPS_TD
