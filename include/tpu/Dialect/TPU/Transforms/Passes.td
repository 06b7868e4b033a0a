//===- Passes.td - tpu dialect transformations -------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD
#define TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPUPadToTiles : Pass<"tpu-pad-to-tiles"> {
  let summary = "Pad tpu.matmul operands to whole tiles";
  let description = [{
    Pads every `tpu.matmul` with zeros so its shapes are whole tiles: M to
    the LHS's sublane tile (8 rows for f32, 16 for bf16, which packs two
    rows per word), K (the contraction) to the MXU's 128, and N to 128 lanes.
    The result is sliced back to the original shape. Zeros in K add nothing
    to a sum; the padded rows and columns of the result are dropped.

    Padding is MXU work that computes nothing useful. The pass counts it in
    its statistics (`--mlir-pass-statistics`), and with the `report` option
    (`--tpu-pad-to-tiles=report=true`) emits a remark per padded op with the
    shape before and after and the wasted fraction of MXU work:

    ```
    remark: tpu.matmul padded from M x K x N = 7 x 300 x 129 to
            8 x 384 x 256: 65.6% of its MXU work is padding
    ```

    and one remark on the root op with the totals, the same numbers as the
    statistics (an LLVM built without `LLVM_ENABLE_STATS`, as Debian's is,
    prints no pass statistics).
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "emit a remark per padded matmul with its cost">
  ];
  let statistics = [
    Statistic<"numPadded", "padded-matmuls", "matmuls that needed padding">,
    Statistic<"usefulMacs", "useful-macs",
              "multiply-adds of the unpadded matmuls">,
    Statistic<"paddedMacs", "padded-macs",
              "multiply-adds of the matmuls after padding">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD
