//===- TPUDialect.h - The tpu dialect ---------------------------*- C++ -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUDIALECT_H
#define TPU_DIALECT_TPU_IR_TPUDIALECT_H

#include "mlir/IR/Dialect.h"

#include "tpu/Dialect/TPU/IR/TPUDialect.h.inc"

#endif // TPU_DIALECT_TPU_IR_TPUDIALECT_H
