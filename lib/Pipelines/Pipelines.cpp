//===- Pipelines.cpp - The tpu-compile pipeline ---------------------------===//

#include "tpu/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tpu/Conversion/Passes.h"
#include "tpu/Dialect/ISA/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Passes.h"

using namespace mlir;

void tpu::buildCompilePipeline(OpPassManager &pm,
                               const CompileOptions &options) {
  // Each source op's name goes into its location first, so that what it
  // lowers to can be profiled by it (tpu-sim --profile).
  pm.addPass(createTPUNameLocations());
  pm.addPass(createTPUAttachChip({options.chip}));
  // A program's own functions (a layer norm called twice) become part of
  // the entry, which is what the TPU runs. Nothing is simplified on the
  // way: arith's folds are IEEE's, not the VPU's (x * 1 must flush).
  pm.addPass(createInlinerPass({}, [](OpPassManager &) {}));
  // tpu-convert-linalg also turns arith on tensors into elementwise
  // linalg.generic first (upstream's patterns, without folding).
  OpPassManager &front = pm.nest<func::FuncOp>();
  front.addPass(createTPUConvertLinalg({options.defaultPrecision}));
  front.addPass(createTPUPadToTiles());
  front.addPass(
      createTPUExpandPrecision({options.split, options.defaultPrecision}));
  if (options.fusion)
    front.addPass(createTPUFuse({options.reportFusion}));
  pm.addPass(createTPUBufferize({options.entry}));
  OpPassManager &kernels = pm.nest<func::FuncOp>();
  kernels.addPass(createTPULowerToMXU());
  // Folds the index arithmetic of loops that run once and shares constants,
  // so the loops tpu-lower-to-isa sees are the ones that matter; the VPU's
  // float arithmetic is left as it is. Twice: what cse shares (two equal
  // constants a fold made) lets the second fold more (a select of one
  // value, nested scf.ifs into one on a conjunction): programs 3% smaller,
  // HIGH and HIGHEST on v4 up to 1% faster (docs/Compiler.md).
  kernels.addPass(createTPUCanonicalize());
  kernels.addPass(createCSEPass());
  kernels.addPass(createTPUCanonicalize());
  kernels.addPass(createCSEPass());
  pm.addPass(createTPUPlanMemory({options.entry}));
  pm.addPass(createTPULowerToISA({options.entry}));
  pm.addPass(createTPUBundle());
}

void tpu::registerCompilePipeline() {
  PassPipelineRegistration<CompileOptions>(
      "tpu-compile",
      "Compile linalg/tpu on tensors to a bundled tpu_isa.program: "
      "tpu-name-locations, tpu-attach-chip, inline, tpu-convert-linalg, "
      "tpu-pad-to-tiles, tpu-expand-precision, tpu-fuse, tpu-bufferize, "
      "tpu-lower-to-mxu, tpu-canonicalize, cse (twice), tpu-plan-memory, "
      "tpu-lower-to-isa, tpu-bundle",
      buildCompilePipeline);
}
