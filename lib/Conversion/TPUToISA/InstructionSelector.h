//===- InstructionSelector.h - Loop-level ops to instructions ---*- C++ -*-===//
//
// Selects each loop-level op's instructions: index arithmetic on the scalar
// unit, vector values on the VPU (the elementwise ops of VpuOps.def by one
// templated rule), every tpu loop-level op as its one instruction with its
// buffer's planned address added to the offset. Operands that are constants
// are materialized by each op that uses them, once per op (s0 is 0, s31
// holds 1; splat vectors are broadcast), so constants never hold a register
// past the op.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_CONVERSION_TPUTOISA_INSTRUCTIONSELECTOR_H
#define TPU_LIB_CONVERSION_TPUTOISA_INSTRUCTIONSELECTOR_H

#include "Linearizer.h"
#include "RegisterAllocator.h"

#include "mlir/IR/Operation.h"

namespace tpu {

class InstructionSelector {
public:
  InstructionSelector(RegisterAllocator &registers, CodeBuffer &code)
      : registers(registers), code(code) {}

  /// Writes the instructions of `op` (not scf control flow, which the
  /// Linearizer owns); an op without a rule is an error.
  void select(mlir::Operation *op);

  /// A scalar register holding `value` while `op` is selected.
  int64_t useScalar(mlir::Operation *op, mlir::Value value);
  /// A scalar register holding `constant` (s0 for 0, the register that
  /// holds 1, else a temporary loaded with s.li, which `op`'s other uses of
  /// `constant` share).
  int64_t useConstant(mlir::Operation *op, int64_t constant);
  /// A vector register holding `value` while `op` is selected.
  int64_t useVector(mlir::Operation *op, mlir::Value value);
  /// Branches to `label` when the i1 `cond` is false: the compare that
  /// makes it, inverted, a branch on each operand of a conjunction
  /// (isBranchConjunction), or a test against zero.
  void branchUnless(mlir::Operation *op, mlir::Value cond,
                    CodeBuffer::Label label);
  /// Branches to `label` when `cond` is true, as branchUnless does when it
  /// is false. On a conjunction a and b, when a is: returns b, which the
  /// code at `label` must test (else null); fails, emitting nothing, when a
  /// is a conjunction too.
  mlir::FailureOr<mlir::Value> branchIf(mlir::Operation *op, mlir::Value cond,
                                        CodeBuffer::Label label);

private:
  /// Branches to `label` when `cond`, not a conjunction, is `when`.
  void branchOn(mlir::Operation *op, mlir::Value cond, bool when,
                CodeBuffer::Label label);
  /// A register holding `offset + base`: an address in HBM tiles or VMEM
  /// rows.
  int64_t address(mlir::Operation *op, mlir::Value offset, int64_t base);
  /// A VMEM row `offset + base` as `v.ld` and `v.st` take it: a register
  /// and an immediate. The base goes in the immediate when it fits, which
  /// saves the s.addi `address` would spend on it.
  std::pair<int64_t, int64_t> vmemRow(mlir::Operation *op, mlir::Value offset,
                                      int64_t base);
  /// The planned address of `buffer` (tpu-plan-memory).
  int64_t baseOf(mlir::Operation *op, mlir::Value buffer);
  /// `opcode` with a new register for `op`'s result first, then the
  /// operands' registers: the shape of most ALU instructions.
  void selectScalar(mlir::Operation *op, isa::Opcode opcode);
  void selectScalar(mlir::Operation *op, isa::Opcode opcode, mlir::Value lhs,
                    mlir::Value rhs);
  void selectVector(mlir::Operation *op, isa::Opcode opcode);

  void selectAdd(mlir::Operation *op);
  void selectCmpI(mlir::Operation *op);
  void selectSelect(mlir::Operation *op);
  void selectCmpF(mlir::Operation *op);
  void selectTranspose(mlir::Operation *op);

  RegisterAllocator &registers;
  CodeBuffer &code;
};

/// The HBM tile or VMEM row tpu-plan-memory gave `buffer` (looking through
/// views, and from a memref.get_global to its global), or null.
mlir::IntegerAttr getPlannedAddress(mlir::Value buffer);

/// An address offset `x + c` (an arith.addi with a constant) that is only
/// ever an address: the row of a v.ld or v.st, which takes x's register
/// and adds c in its immediate (with the buffer's base, when the sum fits
/// 16 bits); or a DMA's VMEM row or HBM tile, or a weight load's row,
/// whose buffer's base is added by an s.addi anyway, which adds c too. The
/// add has no instruction and no register of its own. A loop that loads or
/// stores kUnroll rows from one address would otherwise spend an s.addi
/// and a scalar register on each, and reusing those registers soon after
/// orders the bundler's work needlessly; a K tile's head that issues a DMA
/// for each of four column blocks, two. Null unless `row` is such an add.
struct FoldedOffset {
  mlir::Value value;
  int64_t offset;
};
std::optional<FoldedOffset> getFoldedOffset(mlir::Value row);

/// Whether the i1 `value` is only ever a branch condition: of an scf.if,
/// or of a conjunction that is one (isBranchConjunction). A compare that
/// is one has no instruction of its own: it is selected into each branch.
bool isBranchOnly(mlir::Value value);
/// Whether `op` is an i1 arith.andi that is only a branch condition: a
/// branch on each operand, no instruction of its own.
bool isBranchConjunction(mlir::Operation *op);

} // namespace tpu

#endif // TPU_LIB_CONVERSION_TPUTOISA_INSTRUCTIONSELECTOR_H
