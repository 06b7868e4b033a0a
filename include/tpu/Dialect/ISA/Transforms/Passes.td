//===- Passes.td - tpu_isa dialect transformations ---------*- tablegen -*-===//

#ifndef TPU_DIALECT_ISA_TRANSFORMS_PASSES_TD
#define TPU_DIALECT_ISA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TPUBundle : Pass<"tpu-bundle", "::mlir::ModuleOp"> {
  let summary = "Pack a program's instructions into VLIW bundles";
  let description = [{
    Schedules each basic block (a run of instructions entered only at its
    top: branch targets start one, a branch, jump or `halt` ends one) with
    a list scheduler: cycle by cycle, of the instructions whose
    dependences allow that cycle, those with the longest path to the
    block's end go first (then program order), each into the cycle's
    bundle if its slots allow. An instruction's dependences:

    - its register sources are ready: at least the producer's latency
      (ISA.def) after the producer's bundle;
    - it does not overwrite a register an earlier instruction still reads
      (same bundle is fine: a bundle reads registers before it writes) or
      writes (a later bundle);
    - instructions that touch memory (vector and scalar loads and stores,
      DMA, weight loads and latches) keep their order, and so do the
      MXU's (weight loads, latches, pushes, pops); they may share a
      bundle, listed in order. The two chains are separate, so a vector
      load may move above a push: a push reads a vreg, not memory;
    - a push goes at least 8 cycles after the one before to the same MXU
      (the cycles its rows stream in, during which the core would stall
      on it), and an instruction that occupies its unit for more than a
      cycle (`v.xpose`) keeps the next of that unit that long after it;
    - the bundle's slots allow it (2 scalar, 4 vector of which 2 load or
      store, 1 push, 1 pop, 1 misc, 1 branch).

    The block's branch goes in its last bundle, and branch targets are
    renumbered. Nops are dropped. The input is read as a sequence of
    instructions, bundle by bundle: a bundle in which one instruction
    reads a register an earlier one of it writes is an error.
  }];
}

#endif // TPU_DIALECT_ISA_TRANSFORMS_PASSES_TD
