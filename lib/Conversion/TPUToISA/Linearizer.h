//===- Linearizer.h - Structured control flow to branches -------*- C++ -*-===//
//
// Writes the function as one instruction stream in program order: each op
// through instruction selection, scf.for as an induction register, a guard,
// the body and a latch that branches back, scf.if as a negated branch
// around its then part (and a jump over its else part). Branch targets are
// labels, bound as the code is written and patched at the end. One
// instruction per bundle; tpu-bundle packs them.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_CONVERSION_TPUTOISA_LINEARIZER_H
#define TPU_LIB_CONVERSION_TPUTOISA_LINEARIZER_H

#include "mlir/IR/Block.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/ISA/ISA.h"
#include "llvm/ADT/ArrayRef.h"

#include <tuple>
#include <vector>

namespace mlir::scf {
class ForOp;
class IfOp;
} // namespace mlir::scf

namespace tpu {

class InstructionSelector;
class RegisterAllocator;

/// The instruction stream being written, with labels for branch targets,
/// each instruction with the source op of the op it was selected for.
class CodeBuffer {
public:
  using Label = unsigned;

  /// Adds the source ops it meets to `sourceLocations`.
  explicit CodeBuffer(std::vector<isa::SourceLocation> &sourceLocations)
      : sources(sourceLocations) {}

  /// Instructions written while it lives come from `loc`'s source op, or
  /// from the enclosing scope's when `loc` names none (an op a pass made
  /// without one); the enclosing scope's come back after.
  class SourceScope {
  public:
    SourceScope(CodeBuffer &code, mlir::Location loc)
        : code(code), saved(code.source) {
      uint32_t index = code.sources.getIndex(loc);
      if (index != isa::kNoSource)
        code.source = index;
    }
    ~SourceScope() { code.source = saved; }

  private:
    CodeBuffer &code;
    uint32_t saved;
  };

  Label newLabel();
  /// The next instruction written is the label's target.
  void bind(Label label);
  void emit(isa::Opcode opcode, llvm::ArrayRef<int64_t> operands);
  /// A branch or jump whose last operand is `label`'s target.
  void emitBranch(isa::Opcode opcode, llvm::ArrayRef<int64_t> operands,
                  Label label);
  /// The code with every branch target resolved: the main stream, then
  /// the cold one.
  std::vector<isa::Instruction> finish();

  /// While it lives, instructions go to the cold stream, placed after the
  /// whole main one (after its halt), for code the common path skips: the
  /// main stream then falls through where it would have branched around
  /// it. Nested, it changes nothing.
  class ColdScope {
  public:
    explicit ColdScope(CodeBuffer &code) : code(code), saved(code.section) {
      code.section = Cold;
    }
    ~ColdScope() { code.section = saved; }

  private:
    CodeBuffer &code;
    unsigned saved;
  };
  bool writingCold() const { return section == Cold; }

private:
  enum : unsigned { Main, Cold };
  std::vector<isa::Instruction> code[2];
  unsigned section = Main;
  /// (section, instruction, operand index, label) whose target is patched
  /// at the end.
  std::vector<std::tuple<unsigned, size_t, unsigned, Label>> fixups;
  /// Each label's (section, instruction).
  std::vector<std::pair<unsigned, int64_t>> labels;
  isa::ir::SourceLocationTable sources;
  uint32_t source = isa::kNoSource;
};

class Linearizer {
public:
  Linearizer(InstructionSelector &selector, RegisterAllocator &registers,
             CodeBuffer &code)
      : selector(selector), registers(registers), code(code) {}

  /// Writes every op of `block`, stopping at the first failure.
  void linearize(mlir::Block &block);

private:
  void linearize(mlir::Operation *op);
  void linearizeFor(mlir::scf::ForOp loop);
  void linearizeIf(mlir::scf::IfOp branch);
  /// linearizeIf for an scf.if whose `branch_weights` say the then part
  /// (`coldThen`) or the else part is rarely run: that part in the cold
  /// stream, a branch to it and a jump back (a rare then part on a
  /// conjunction a and b branches on a, and tests b there); false, writing
  /// nothing, where the branch cannot be written (a conjunction whose
  /// first operand is one too).
  bool linearizeIfWithColdPart(mlir::scf::IfOp branch, bool coldThen);
  /// Binds `label` here. Code a branch lands in cannot read the constants
  /// the code just before kept in registers (the branch's origin may not
  /// have loaded them), so they are forgotten first.
  void bind(CodeBuffer::Label label);

  InstructionSelector &selector;
  RegisterAllocator &registers;
  CodeBuffer &code;
};

} // namespace tpu

#endif // TPU_LIB_CONVERSION_TPUTOISA_LINEARIZER_H
