//===- tpu-opt.cpp - The tpu optimizer driver -----------------------------===//
//
// mlir-opt for this project: the dialects an input may use, MLIR's core
// transformation passes, and the tpu passes.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tpu/Conversion/Passes.h"
#include "tpu/Dialect/ISA/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/InitAllDialects.h"
#include "tpu/Pipelines/Pipelines.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tpu::registerTPUConversionPasses();
  tpu::registerTPUTransformsPasses();
  tpu::registerTPUISATransformsPasses();
  tpu::registerCompilePipeline();
  mlir::DialectRegistry registry;
  tpu::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "TPU compiler driver: runs passes on MLIR files\n",
      registry));
}
