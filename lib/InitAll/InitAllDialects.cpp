//===- InitAllDialects.cpp - Dialects the tpu tools load ------------------===//

#include "tpu/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"
#include "tpu/Dialect/TPU/Transforms/BufferizableOpInterfaceImpl.h"

void tpu::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<
      mlir::arith::ArithDialect, mlir::bufferization::BufferizationDialect,
      mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
      mlir::linalg::LinalgDialect, mlir::math::MathDialect,
      mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
      mlir::tensor::TensorDialect, tpu::TPUDialect, tpu::isa::ir::ISADialect>();
  tpu::registerBufferizableOpInterfaceExternalModels(registry);
  // func.call to a program's own functions inlines (tpu-compile's first
  // step).
  mlir::func::registerInlinerExtension(registry);
  // These dialects promise BufferizableOpInterface, and One-Shot Bufferize's
  // analysis asks every op in the module for it, outside the entry too; a
  // promise nobody kept is a fatal error in an MLIR with assertions.
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::cf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
}
