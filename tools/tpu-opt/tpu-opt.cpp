//===- tpu-opt.cpp - The tpu optimizer driver -----------------------------===//
//
// mlir-opt for this project: the dialects an input may use, MLIR's core
// transformation passes, the upstream passes tpu-compile runs
// (convert-elementwise-to-linalg), and the tpu passes.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Linalg/Passes.h"
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
  mlir::registerConvertElementwiseToLinalgPass();
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
