//===- Passes.td - Conversions into and out of tpu ---------*- tablegen -*-===//

#ifndef TPU_CONVERSION_PASSES_TD
#define TPU_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPUConvertLinalg : Pass<"tpu-convert-linalg", "::mlir::func::FuncOp"> {
  let summary = "Convert linalg ops on tensors to tpu ops";
  let description = [{
    Rewrites the input program's linalg ops on tensors into tpu ops:

    - `linalg.matmul`, `linalg.batch_matmul` and `linalg.matvec` become
      `tpu.matmul`. An init that is a `linalg.fill` of zero (the usual
      idiom) becomes a matmul without accumulator, which starts from zero;
      any other init is passed as the accumulator and added into.
      `linalg.matvec` multiplies by the vector as a K x 1 matrix
      (`tpu.reshape`).
    - An elementwise `linalg.generic` (parallel iterators, identity indexing
      maps, one result) whose body the VPU can run becomes
      `tpu.elementwise`; named elementwise ops (`linalg.add`, `linalg.div`,
      ...) are generalized first. `arith` and `math` on tensors become
      such generics first, with upstream's `convert-elementwise-to-linalg`
      patterns but without folding (MLIR folds `x * 1` to `x`; the VPU
      flushes a subnormal x). A splat constant operand becomes a constant
      in the body. Inputs whose maps drop dimensions become `tpu.broadcast` or
      `tpu.broadcast_lanes`, as `linalg.broadcast` does.
    - `linalg.reduce`, and a reduction `linalg.generic`, over the last
      dimension becomes `tpu.reduce`, over the second-to-last
      `tpu.reduce_columns`, over leading dimensions `tpu.reduce_matrices`.
    - `linalg.softmax` is decomposed as upstream decomposes it, and the
      pieces convert as above.
    - `linalg.transpose` of the last two dimensions becomes
      `tpu.transpose`.
    - `tensor.expand_shape` and `tensor.collapse_shape` that keep the
      (8,128) tiles (or turn a vector into a column) become `tpu.reshape`.

    Each matmul gets `default-precision` (the analogue of JAX's
    `jax_default_matmul_precision`) unless the linalg op carries its own
    `tpu.precision` attribute:

    ```mlir
    %c = linalg.matmul {tpu.precision = #tpu.precision<highest>}
           ins(%a, %b : tensor<8x128xf32>, tensor<128x128xf32>)
           outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
    ```

    Any other linalg op, a matmul with user-defined indexing maps, an
    elementwise body with an op the VPU lacks, element types other than
    f32/bf16 operands with an f32 result, dynamic shapes, and linalg on
    buffers are errors that name the op and say why.
  }];
  let options = [
    Option<"defaultPrecision", "default-precision", "::tpu::Precision",
           /*default=*/"::tpu::Precision::Default",
           "precision of matmuls that do not set tpu.precision: default, "
           "high, highest, or a JAX alias (bfloat16, bfloat16_3x, "
           "tensorfloat32, float32, BF16_BF16_F32[_X3|_X6])">
  ];
  let dependentDialects = [
    "::tpu::TPUDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def TPULowerToISA : Pass<"tpu-lower-to-isa", "::mlir::ModuleOp"> {
  let summary = "Lower the planned loop-level program to ISA instructions";
  let description = [{
    Replaces the entry function (after `tpu-lower-to-mxu` and
    `tpu-plan-memory`) by a `tpu_isa.program` with one instruction per
    bundle, in program order; `tpu-bundle` then packs them.

    - `scf.for` becomes an induction register, a guard (none where the
      bounds, constants or one value plus constants, are a positive span
      apart), the body and a latch (`s.addi`, `br.lt` back to the top); `scf.if` a negated compare and
      branch, or on a conjunction (`arith.andi`) of conditions a branch on
      each; a branch to a jump goes where the jump goes. An `scf.if` whose
      `branch_weights` (two i32s, then and else, as upstream's
      WeightedRegionBranchOpInterface spells them) give one part the
      smaller weight has that part after the program's `halt`, behind a
      branch the common path does not take, and a `jmp` back (a rare then
      part on a conjunction branches on its first operand and tests the
      rest there; not when that operand is a conjunction too).
      Loops stay loops: the program's size does not depend on trip counts.
    - Index arithmetic runs on the scalar unit (`arith.minsi` is `s.min`,
      `arith.select` branch-free); constants are materialized at each op
      that uses them, once per op (`s0` reads 0, `s31` holds 1).
    - `vector<8x128xf32>` values live in vregs; `arith.addf`, `subf`,
      `cmpf`, `select` and `tpu.round_to_bf16` are VPU instructions.
    - Each tpu loop-level op is its instruction (`tpu.dma_load` is `dma.ld`,
      `tpu.mxu_push` is `mxu.push`, ...) with its buffer's planned address
      added to the offset (an offset `x + c` adds c there too); `v.ld` and
      `v.st` take a VMEM buffer's address, and such a c, as their
      immediate instead, when it fits 16 bits.

    Registers are allocated as values are defined and freed after their last
    use; running out is an error. Arguments and results become the
    program's signature (`arg0`, ..., `result0`, ...) at their planned HBM
    tiles, and `tpu.useful_macs` its useful MACs. Each constant
    `memref.global` the entry reads becomes a `tpu_isa.hbm_data`: its
    zero-padded tiled image at its planned tile, loaded into HBM before the
    program starts; the global is then erased.
  }];
  let options = [
    Option<"entryName", "entry", "std::string", /*default=*/"\"main\"",
           "the function to lower">
  ];
  let dependentDialects = ["::tpu::isa::ir::ISADialect"];
}

#endif // TPU_CONVERSION_PASSES_TD
