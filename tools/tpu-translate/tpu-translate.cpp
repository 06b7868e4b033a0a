//===- tpu-translate.cpp - tpu_isa MLIR <-> .tpu binary and listing -------===//

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "tpu/Target/ISATranslation.h"

int main(int argc, char **argv) {
  tpu::registerISATranslations();
  return mlir::failed(mlir::mlirTranslateMain(
             argc, argv, "TPU translation tool: tpu_isa MLIR <-> .tpu binary"))
             ? 1
             : 0;
}
