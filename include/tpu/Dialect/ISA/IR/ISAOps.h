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
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <optional>

#include "tpu/Dialect/ISA/IR/ISADialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tpu/Dialect/ISA/IR/ISAAttrs.h.inc"

#define GET_OP_CLASSES
#include "tpu/Dialect/ISA/IR/ISAOps.h.inc"

namespace tpu::isa::ir {

/// The chip `op` is compiled for: its module's `tpu.chip`, or the default.
using tpu::getChipOf;

/// The source op an instruction at `loc` comes from: its name
/// (tpu::getSourceOpName; tpu-name-locations names each source op's
/// location after it) and the first file position under that name. Only a
/// named location is a source op: an ISA file printed without
/// -mlir-print-debuginfo gives its ops its own lines, and those are not
/// one.
std::optional<SourceLocation> getSourceLocation(mlir::Location loc);

/// The location getSourceLocation reads back as `source`.
mlir::Location getLocation(mlir::MLIRContext *context,
                           const SourceLocation &source);

/// Gives instructions their sources' indices into a program's
/// sourceLocations, adding each location once, in first-use order.
class SourceLocationTable {
public:
  explicit SourceLocationTable(std::vector<SourceLocation> &locations)
      : locations(locations) {}
  /// The index of `loc`'s source op, or kNoSource.
  uint32_t getIndex(mlir::Location loc);

private:
  std::vector<SourceLocation> &locations;
  llvm::DenseMap<mlir::Location, uint32_t> cache;
  std::map<SourceLocation, uint32_t> indices;
};

/// `op` as a Program, as it stands (its instructions verified, the program
/// not); each instruction's location becomes its source.
Program readProgram(ProgramOp op);

/// `op` as a Program, verified; diagnoses a program the chip cannot run.
llvm::FailureOr<Program> toProgram(ProgramOp op);

/// Builds `program` as a tpu_isa.program at the builder's insertion point.
ProgramOp buildProgram(mlir::OpBuilder &builder, mlir::Location loc,
                       const Program &program);

} // namespace tpu::isa::ir

#endif // TPU_DIALECT_ISA_IR_ISAOPS_H
