//===- SourceOp.h - The source op a location names --------------*- C++ -*-===//
//
// tpu-sim --profile counts cycles per source op: the op of the program the
// user wrote that an instruction was compiled from. MLIR carries it in
// locations; this is the one rule for reading it, which tpu-name-locations
// (naming source ops) and the ISA's debug information (reading them) share.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_IR_SOURCEOP_H
#define TPU_DIALECT_TPU_IR_SOURCEOP_H

#include "mlir/IR/Location.h"

namespace tpu {

/// The name of the source op at `loc`: its first non-empty name location,
/// looking through fused locations and into the callee of a call site
/// only. An op inlined from a function is the callee's op (the caller's
/// name is the call's), and an unnamed op of the callee (a generic's body)
/// is no source op of its own. Null when `loc` names none.
mlir::NameLoc getSourceOpName(mlir::Location loc);

} // namespace tpu

#endif // TPU_DIALECT_TPU_IR_SOURCEOP_H
