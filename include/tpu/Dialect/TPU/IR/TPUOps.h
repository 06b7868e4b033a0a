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

#define GET_OP_CLASSES
#include "tpu/Dialect/TPU/IR/TPUOps.h.inc"

#endif // TPU_DIALECT_TPU_IR_TPUOPS_H
