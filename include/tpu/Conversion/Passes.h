//===- Passes.h - Conversions into and out of tpu ---------------*- C++ -*-===//

#ifndef TPU_CONVERSION_PASSES_H
#define TPU_CONVERSION_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "tpu/Dialect/TPU/IR/OptionParsers.h"

namespace tpu {

#define GEN_PASS_DECL
#include "tpu/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpu/Conversion/Passes.h.inc"

} // namespace tpu

#endif // TPU_CONVERSION_PASSES_H
