//===- ISAOps.h - tpu_isa dialect -------------------------------*- C++ -*-===//

#ifndef TPU_DIALECT_ISA_IR_ISAOPS_H
#define TPU_DIALECT_ISA_IR_ISAOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/ISA/ISA.h"
#include "tpu/ISA/Program.h"
#include "tpu/Support/Chip.h"

#include "tpu/Dialect/ISA/IR/ISADialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tpu/Dialect/ISA/IR/ISAAttrs.h.inc"

#define GET_OP_CLASSES
#include "tpu/Dialect/ISA/IR/ISAOps.h.inc"

namespace tpu::isa::ir {

/// The chip `op` is compiled for: its module's `tpu.chip`, or the default.
using tpu::getChipOf;

/// `op` as a Program, as it stands (its instructions verified, the program
/// not).
Program readProgram(ProgramOp op);

/// `op` as a Program, verified; diagnoses a program the chip cannot run.
llvm::FailureOr<Program> toProgram(ProgramOp op);

/// Builds `program` as a tpu_isa.program at the builder's insertion point.
ProgramOp buildProgram(mlir::OpBuilder &builder, mlir::Location loc,
                       const Program &program);

} // namespace tpu::isa::ir

#endif // TPU_DIALECT_ISA_IR_ISAOPS_H
