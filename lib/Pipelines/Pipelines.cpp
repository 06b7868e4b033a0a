//===- Pipelines.cpp - The tpu-compile pipeline ---------------------------===//

#include "tpu/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "tpu/Conversion/Passes.h"
#include "tpu/Dialect/ISA/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Passes.h"

using namespace mlir;

void tpu::buildCompilePipeline(OpPassManager &pm,
                               const CompileOptions &options) {
  pm.addPass(createTPUConvertLinalg({options.defaultPrecision}));
  pm.addPass(createTPUPadToTiles());
  pm.addPass(
      createTPUExpandPrecision({options.split, options.defaultPrecision}));
  pm.addPass(createTPULowerToMXU({options.entry, options.chip}));
  // Folds the index arithmetic of loops that run once and shares constants,
  // so the loops tpu-lower-to-isa sees are the ones that matter.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTPUPlanMemory({options.entry}));
  pm.addPass(createTPULowerToISA({options.entry}));
  pm.addPass(createTPUBundle());
}

void tpu::registerCompilePipeline() {
  PassPipelineRegistration<CompileOptions>(
      "tpu-compile",
      "Compile linalg/tpu matmuls on tensors to a bundled tpu_isa.program: "
      "tpu-convert-linalg, tpu-pad-to-tiles, tpu-expand-precision, "
      "tpu-lower-to-mxu, tpu-plan-memory, tpu-lower-to-isa, tpu-bundle",
      buildCompilePipeline);
}
