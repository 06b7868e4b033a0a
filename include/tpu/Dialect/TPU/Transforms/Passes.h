//===- Passes.h - tpu dialect transformations -------------------*- C++ -*-===//

#ifndef TPU_DIALECT_TPU_TRANSFORMS_PASSES_H
#define TPU_DIALECT_TPU_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"
#include "tpu/Dialect/TPU/IR/OptionParsers.h"

namespace tpu {

#define GEN_PASS_DECL
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"

} // namespace tpu

#endif // TPU_DIALECT_TPU_TRANSFORMS_PASSES_H
