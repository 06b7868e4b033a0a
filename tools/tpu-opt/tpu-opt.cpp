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
#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/InitAllDialects.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tpu::registerTPUConversionPasses();
  tpu::registerTPUTransformsPasses();
  mlir::DialectRegistry registry;
  tpu::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "TPU compiler driver: runs passes on MLIR files\n",
      registry));
}
