//===- Passes.td - tpu dialect transformations -------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD
#define TPU_DIALECT_TPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPUAttachChip : Pass<"tpu-attach-chip", "::mlir::ModuleOp"> {
  let summary = "Record the chip a module is compiled for";
  let description = [{
    Sets the module's `tpu.chip` to the `chip` option, which the passes
    after it (tile sizes, MXU count, memory limits) and the binary read.
    Without the option, a module keeps the chip it declares, or gets the
    default, v4. A module that declares one chip compiled for another is an
    error, as nvvm-attach-target and friends do for GPU modules.
  }];
  let options = [
    Option<"chip", "chip", "std::optional<::tpu::ChipKind>",
           /*default=*/"std::nullopt",
           "the chip to compile for: v2, v3 or v4 (default: the module's "
           "tpu.chip, else v4)">
  ];
  let dependentDialects = ["::tpu::TPUDialect"];
}

def TPUNameLocations : Pass<"tpu-name-locations", "::mlir::ModuleOp"> {
  let summary = "Name each source op's location after the op";
  let description = [{
    Wraps the location of each function and of each op directly in a
    function body in a name location holding the op's name:
    `loc("examples/mlp.mlir":18:9)` becomes
    `loc("linalg.matmul"("examples/mlp.mlir":18:9))`. The ops a source op
    lowers to keep its location, so the name reaches the instructions,
    the binary's debug section and `tpu-sim --profile`, which counts
    cycles per source op. An op whose location already holds a name (a
    frontend's, as JAX's `jit(f)/dot_general`) keeps it; ops in regions of
    other ops (a `linalg.generic`'s body) count with the op that holds
    them. `tpu-compile` runs it first.
  }];
}

def TPUBakeArguments : Pass<"tpu-bake-arguments", "::mlir::ModuleOp"> {
  let summary = "Make entry arguments constants, with values from .npy files";
  let description = [{
    Bakes weights into the program: each `N=FILE.npy` in `arguments`
    removes argument N of the entry and puts an `arith.constant` with the
    file's values in its place, so the compiled binary carries them as HBM
    data (see `tpu-bufferize`) and the runtime no longer takes them. Only
    f32 arguments can be baked, from an f32 file of the argument's shape;
    the entry must be a function nothing calls. Indices are the entry's as
    written, before any is removed.

    ```
    tpu-opt mlp.mlir --tpu-bake-arguments="arguments=1=w1.npy,2=b1.npy" \
        --tpu-compile
    ```
  }];
  let options = [
    Option<"entryName", "entry", "std::string", /*default=*/"\"main\"",
           "the function whose arguments are baked">,
    ListOption<"arguments", "arguments", "std::string",
               "the arguments to bake, each INDEX=FILE.npy">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TPUPadToTiles : Pass<"tpu-pad-to-tiles", "::mlir::func::FuncOp"> {
  let summary = "Pad tpu.matmul operands to whole tiles";
  let description = [{
    Pads every `tpu.matmul` with zeros so its shapes are whole tiles: M to
    the MXU's row block of 8 (a packed bf16 tile of 16 rows holds two; the
    kernel pushes only those that hold rows), K (the contraction) to the
    MXU's 128, and N to 128 lanes.
    The result is sliced back to the original shape. Both are `tpu.resize`.
    Zeros in K add nothing to a sum; the padded rows and columns of the
    result are dropped.

    Padding is MXU work that computes nothing useful. With the `report`
    option (`--tpu-pad-to-tiles=report=true`) the pass emits a remark per
    padded op with the shape before and after and the wasted fraction of MXU
    work:

    ```
    remark: tpu.matmul padded from M x K x N = 7 x 300 x 129 to
            8 x 384 x 256: 65.6% of its MXU work is padding
    ```

    and one remark on the function with the totals. (Not pass statistics:
    this project keeps assertions on, so `llvm::Statistic` is a
    `TrackingStatistic` in its code and a `NoopStatistic` in Debian's MLIR
    libraries, and the two disagree on the object's layout.)
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "emit a remark per padded matmul with its cost">
  ];
  let dependentDialects = ["::tpu::TPUDialect"];
}

def TPUExpandPrecision : Pass<"tpu-expand-precision", "::mlir::func::FuncOp"> {
  let summary = "Expand tpu.matmul precisions into bf16 MXU passes";
  let description = [{
    Rewrites every `tpu.matmul` into `tpu.matmul_passes`, the sum of bf16
    MXU passes its precision needs (docs/Numerics.md, JAX's
    `lax.Precision`):

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
    Option<"split", "split", "::tpu::Rounding",
           /*default=*/"::tpu::Rounding::NearestEven",
           "bf16 rounding of the split: rne (nearest even) or trunc">,
    Option<"defaultPrecision", "default-precision", "::tpu::Precision",
           /*default=*/"::tpu::Precision::Default",
           "precision of a tpu.matmul without one (JAX's names)">
  ];
  let dependentDialects = ["::tpu::TPUDialect"];
}

def TPUFuse : Pass<"tpu-fuse", "::mlir::func::FuncOp"> {
  let summary = "Fuse elementwise ops into their neighbours' kernels";
  let description = [{
    Runs after `tpu-expand-precision`, on tensors, so that fused ops share a
    kernel and their intermediate results never go to HBM:

    - a `tpu.elementwise` whose input is another's result, read by nothing
      else, takes the producer's body into its own (one pass over the
      data for a chain: `x * 0.5`, `+ 1`, `tanh`, ...);
    - a `tpu.elementwise` (with an f32 result) whose input is a
      `tpu.matmul_passes` result, read by nothing else (through the
      `tpu.resize` that drops the padding `tpu-pad-to-tiles` added),
      becomes the matmul's `epilogue`, applied to each result tile in
      vregs: a bias, an activation, a residual add, a scaling. Its other
      inputs are grown to the matmul's padded shape (`tpu.resize`, a
      view when their padding is zero), and a bias broadcast over the rows
      is read as the row itself (the broadcast goes);
    - a `tpu.elementwise` of one f32 value whose result only a row
      reduction (`tpu.reduce`) reads becomes the reduction's `prologue`,
      applied to each tile before it is combined (`sum(x * x)` of a layer
      norm's variance in one pass);
    - the `tpu.split`s of a `tpu.matmul_passes`' operands, when the matmul
      alone reads their parts: it reads the f32 operands instead, each
      term naming the part it uses (`lhs_parts`, `rhs_parts`, `split`),
      and splits each tile in VMEM on the way to the MXU, so the parts
      never go to HBM and each operand tile is read once for all the
      terms;
    - the rows of zeros a `tpu.matmul_passes`' rhs gained to reach K (the
      `tpu.resize` `tpu-pad-to-tiles` made, which copies the rhs through
      HBM when it adds row tiles): the matmul reads the resize's source,
      with only the rows that complete its last row tile (a view when its
      padding is zero), and fills the rest of the last K tile with zeros
      in VMEM.

    Every op keeps its arithmetic, in the same order: fusion changes no
    bit of any result. With `report`, each fusion is a remark on the op
    that was fused:

    ```
    mlp.mlir:20:8: remark: tpu-fuse: fused into the epilogue of the
        tpu.matmul_passes it reads (the matmul's result no longer goes to HBM)
    mlp.mlir:18:9: note: the tpu.matmul_passes it joined
    ```

    `tpu-compile` runs it unless `fusion=false`, so that what fusion saves
    can be measured (docs/Compiler.md, "Fusion").
  }];
  let options = [
    Option<"report", "report", "bool", /*default=*/"false",
           "emit a remark for each op fused">
  ];
  let dependentDialects = ["::tpu::TPUDialect"];
}

def TPUBufferize : Pass<"tpu-bufferize", "::mlir::ModuleOp"> {
  let summary = "Bufferize the entry with One-Shot Bufferize";
  let description = [{
    Runs One-Shot Bufferize on the entry function, across its boundary:
    every tensor becomes a tiled buffer in HBM
    (`memref<..., #tiled, #tpu.memory_space<hbm>>`, the device layout the
    runtime uses for arguments and results; bf16 is packed two rows to a
    word in (16,128) tiles, `#packed`). A kernel that moves 32-bit words
    (all but `tpu.elementwise`, `tpu.split` and `tpu.matmul_passes`) and
    is not a view takes bf16 as f32: its bf16 operands are extended and
    its bf16 results rounded back, each a `tpu.elementwise` (exact, so no
    bit changes). The tpu kernel ops bufferize
    through their `BufferizableOpInterface` models: each allocates its
    result and becomes its buffer form; a `tpu.resize` or `tpu.reshape`
    that keeps the tiled image becomes a `tpu.tiled_view` of its source.
    A tensor `arith.constant` (f32 or bf16) becomes a private constant
    `memref.global` in the same tiled HBM layout, read with
    `memref.get_global`: its values go into the program's HBM data.
    Other functions are left alone. Ops the TPU cannot run (anything but
    the tpu kernel ops) are errors that name the op.
  }];
  let options = [
    Option<"entryName", "entry", "std::string", /*default=*/"\"main\"",
           "the function to compile">
  ];
  let dependentDialects = [
    "::tpu::TPUDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def TPULowerToMXU : Pass<"tpu-lower-to-mxu", "::mlir::func::FuncOp"> {
  let summary = "Lower the kernel ops to loops of MXU, VPU and DMA ops";
  let description = [{
    Writes each buffer-form kernel op as loops (`scf.for`) of
    `tpu.dma_load` / `tpu.dma_store` between HBM and VMEM work buffers
    (`memref.alloc` in `#tpu.memory_space<vmem>`), `tpu.mxu_load_weights` /
    `tpu.mxu_push` / `tpu.mxu_pop` and VPU arithmetic on
    `vector<8x128xf32>`. Each kernel is in a file of its own
    (lib/Dialect/TPU/Transforms/Kernels/):

    - `tpu.matmul_passes`: weight-stationary. For each chunk of up to 128
      LHS row blocks of 8 rows (64 when a NaN-fixed group needs its own
      result slots) and each group of 128-column blocks, one per MXU of the
      chip, the K tiles run in order: the next K tile's LHS column and
      weight blocks are DMAed into the other half of double-buffered VMEM
      (each buffer once, however many terms read it; with an even number
      of K tiles a group's last tile prefetches the next group's first
      two), and the terms run, each
      group's in its own order, interleaved so that a term can reuse the
      weights the term before it latched: each latches its weights unless
      so, and the MXUs take every row block of the chunk, eight an
      iteration, accumulating in their result slots. The parts the terms
      read (`lhs_parts`, `rhs_parts`) are split in VMEM: the LHS rows by
      the first term's push loop, a few blocks ahead of its pushes (with
      one K tile, in a chunk's first group only: the parts hold the
      chunk's LHS for the rest), and the next tile's weights by the last
      term's (with one K tile, the next group's; or in loops of their own
      where the chunk is too small). The epilogue pops the slots,
      turns NaNs of the small-term group into 0, adds the main group and
      the accumulator, and DMAs the blocks out. Where that is all it
      does but an elementwise body (nothing to stage, one row block a
      VMEM tile), a group's slots are instead popped in the next group's
      first K tile, each block just before that tile's push overwrites
      it; where the stores that then go out a tile later would stall the
      group after, the staging buffer has two halves, the groups'
      results in turn, so that they have two groups to finish in; a
      chunk's last group
      pops its own, unless the next chunk's first group stores its
      results (below) and the chunks are equal, when that group pops
      them too, and the kernel's last group pops its own in its last K
      tile, 32 row blocks behind the pushes, storing them as it goes.
      When the weights take several groups, the chunk's
      LHS may instead stay in VMEM, every K tile, loaded by its first
      group; where that group would then be bound by its DMAs, the chunk
      before loads the next chunk's LHS during its later groups (into
      spare slots and the slots its last group has pushed; with one K
      tile, its last group once its pushes no longer read the LHS), and
      its last group's results are stored during the next chunk's first
      group.
    - `tpu.split`: VPU rounding, software-pipelined: a quarter of the
      tensor a chunk (at least 8 tiles, or the whole of a smaller one; at
      most 512), the next chunk's loads issued before this one is
      rounded. Packed bf16 goes a band of 16 rows at a time, unpipelined.
    - `tpu.elementwise`: its body on vregs, the same way.
    - `tpu.resize`: a copy of whole row tiles, a chunk of them per DMA,
      rows the source lacks zeroed.
    - `tpu.reshape` between a vector and a column: every 128 elements take
      a `tpu.transpose_block`.

    Tile sizes do not depend on the matrix size, so neither does the
    program's size; the matmul's chunk of rows is halved until its working
    set fits VMEM, then widened to the largest multiple of 8 row blocks
    that fits. The MXU count is the chip's (the module's
    `tpu.chip`, see tpu-attach-chip). The sum of the matmuls'
    `tpu.useful_macs` goes on the function.
  }];
  let dependentDialects = [
    "::tpu::TPUDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def TPUCanonicalize : Pass<"tpu-canonicalize"> {
  let summary = "Canonicalize, but leave the VPU's float arithmetic alone";
  let description = [{
    MLIR's canonicalization (every loaded dialect's and op's patterns, and
    folding) on every op except float arithmetic (`arith` and `math` ops
    on floats, and vectors of them). arith folds as IEEE-754 computes
    (`x * 1` is `x`, `x + -0` is `x`), and the VPU does not: it flushes
    subnormals and makes NaNs canonical (docs/Numerics.md), so those ops
    must reach the machine. `tpu-compile` runs it after
    `tpu-lower-to-mxu`, twice with `cse` after each, where it folds the
    index arithmetic of loops that run once and shares constants. An
    `scf.if` a pattern makes of two (two in a row on one condition, or one
    inside another on the conjunction of their conditions) keeps the
    `branch_weights` the kernels put on their rare parts: those every if
    on its condition in its block had, where they agree, or on a
    conjunction those of an operand's ifs that make the then part rare.
  }];
}

def TPUPlanMemory : Pass<"tpu-plan-memory", "::mlir::ModuleOp"> {
  let summary = "Give every HBM and VMEM buffer an address";
  let description = [{
    Places the entry's buffers: arguments first, in order, then every HBM
    `memref.alloc` and every constant `memref.global` the entry reads, in
    program order, each at the next free 4 KiB HBM tile (`tpu.address` on
    the alloc or global, `tpu.address` argument attributes); VMEM
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
