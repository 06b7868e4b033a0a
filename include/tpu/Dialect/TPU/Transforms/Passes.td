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

def TPUExpandPrecision : Pass<"tpu-expand-precision"> {
  let summary = "Expand tpu.matmul precisions into bf16 MXU passes";
  let description = [{
    Rewrites every `tpu.matmul` into `tpu.matmul_passes`, the sum of bf16
    MXU passes its precision needs (DESIGN.md 4, JAX's `lax.Precision`):

    | precision | split of an f32 operand | terms, NaN-fixed group first |
    |-----------|-------------------------|------------------------------|
    | DEFAULT   | none (the MXU rounds)   | a.b |
    | HIGH      | hi, lo                  | lo.hi, hi.lo; then hi.hi |
    | HIGHEST   | hi, mid, lo             | mid.mid, lo.hi, hi.lo, mid.hi, hi.mid; then hi.hi |

    f32 operands are split by `tpu.split` with the `split` rounding. An
    operand known to be bf16-exact (a bf16 tensor, or an f32 extended from
    one, possibly zero-padded) has mid = lo = 0; the terms that would
    multiply a zero part are dropped and the pass says so in a remark:

    ```
    remark: tpu-expand-precision: highest matmul takes 3 MXU passes instead
            of 6: rhs is bf16-exact
    ```

    Each result op records `tpu.useful_macs`: the unpadded M x N x K (times
    the batch) times the number of passes, which the simulator compares with
    the MACs it issues.
  }];
  let options = [
    Option<"split", "split", "std::string", /*default=*/"\"rne\"",
           "bf16 rounding of the split: rne (nearest even) or trunc">,
    Option<"defaultPrecision", "default-precision", "std::string",
           /*default=*/"\"default\"",
           "precision of a tpu.matmul without one (JAX's names)">
  ];
}

def TPULowerToMXU : Pass<"tpu-lower-to-mxu", "::mlir::ModuleOp"> {
  let summary = "Bufferize the entry and lower its ops to loops of MXU, VPU "
                "and DMA ops";
  let description = [{
    Turns the entry function's tensors into buffers in HBM (arguments and
    results keep the device's tiled layout, DESIGN.md 1) and writes each op
    as loops (`scf.for`) of `tpu.dma_load` / `tpu.dma_store` between HBM and
    VMEM work buffers (`memref.alloc` in `#tpu.memory_space<vmem>`),
    `tpu.mxu_load_weights` / `tpu.mxu_push` / `tpu.mxu_pop` and VPU
    arithmetic on `vector<8x128xf32>`:

    - `tpu.matmul_passes`: weight-stationary. For each chunk of up to 128
      LHS row blocks of 8 rows (64 when a NaN-fixed group needs its own
      result slots) and each group of 128-column blocks, one per MXU of the
      chip, every term loops over the K tiles: the next K tile's LHS column
      and weight blocks are DMAed into the other half of double-buffered
      VMEM while the MXUs latch this tile's weights and take every row block
      of the chunk, accumulating in their result slots. The epilogue pops
      the slots, turns NaNs of the small-term group into 0, adds the main
      group and the accumulator, and DMAs the blocks out.
    - `tpu.split`, `arith.truncf`: VPU rounding in chunks of 512 tiles.
    - `tensor.pad` / `tensor.extract_slice` from `tpu-pad-to-tiles`: free
      when the tiled image is unchanged, else a copy of whole row tiles.
    - `arith.extf` from bf16: free (bf16 is stored one per 32-bit word).
    - `tensor.expand_shape` / `tensor.collapse_shape` between a vector and
      a column (what `linalg.matvec` converts to): a vector is one row of
      lanes and a column one lane of rows, so every 128 elements take a
      `tpu.transpose_block`; reshapes that keep the tiles are free.

    Tile sizes do not depend on the matrix size, so neither does the
    program's size; the working set (at most about 6 MiB) is halved until it
    fits VMEM. The sum of the ops' `tpu.useful_macs` goes on the function.
    The chip (its MXU count) is the `chip` option, which the pass records
    as the module's `tpu.chip` for the passes after it; without the option,
    the module's `tpu.chip`, else v4.
  }];
  let options = [
    Option<"entryName", "entry", "std::string", /*default=*/"\"main\"",
           "the function to compile">,
    Option<"chipName", "chip", "std::string", /*default=*/"\"\"",
           "the chip to compile for: v2, v3 or v4 (default: the module's "
           "tpu.chip, else v4)">
  ];
  let dependentDialects = [
    "::tpu::TPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TPUPlanMemory : Pass<"tpu-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Give every HBM and VMEM buffer an address";
  let description = [{
    Places the entry's buffers: arguments first, in order, then every HBM
    `memref.alloc` in program order, each at the next free 4 KiB HBM tile
    (`tpu.address` on the alloc, `tpu.address` argument attributes); VMEM
    allocs are placed in rows as a stack, freed at their `memref.dealloc`.
    A program whose VMEM use exceeds 16 MiB (32768 rows) is an error naming
    the buffer. The function gets `tpu.vmem_rows`, its peak VMEM use.
  }];
  let options = [
    Option<"entryName", "entry", "std::string", /*default=*/"\"main\"",
           "the function to plan">
  ];
}

#endif // TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD
