//===- TPUOps.h - tpu dialect operations ------------------------*- C++ -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUOPS_H
#define TPU_DIALECT_TPU_IR_TPUOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"
#include "tpu/Dialect/TPU/IR/TiledBuffer.h"

#include <array>
#include <optional>

namespace tpu {

/// What every kernel op (TPUOps.td's TPU_KernelOp) has: tpu-bufferize
/// turns its tensor form into its buffer form, and tpu-lower-to-mxu
/// writes its loops; `op->hasTrait<tpu::KernelOpTrait>()` asks.
template <typename ConcreteType>
class KernelOpTrait
    : public mlir::OpTrait::TraitBase<ConcreteType, KernelOpTrait> {};

} // namespace tpu

#define GET_OP_CLASSES
#include "tpu/Dialect/TPU/IR/TPUOps.h.inc"

#endif // TPU_DIALECT_TPU_IR_TPUOPS_H
