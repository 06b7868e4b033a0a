//===- Passes.h - tpu_isa dialect transformations ---------------*- C++ -*-===//

#ifndef TPU_DIALECT_ISA_TRANSFORMS_PASSES_H
#define TPU_DIALECT_ISA_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace tpu {

#define GEN_PASS_DECL
#include "tpu/Dialect/ISA/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tpu/Dialect/ISA/Transforms/Passes.h.inc"

} // namespace tpu

#endif // TPU_DIALECT_ISA_TRANSFORMS_PASSES_H
