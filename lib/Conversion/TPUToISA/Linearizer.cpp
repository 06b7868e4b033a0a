//===- Linearizer.cpp - Structured control flow to branches ---------------===//

#include "Linearizer.h"

#include "InstructionSelector.h"
#include "RegisterAllocator.h"

#include "tpu/Dialect/TPU/IR/TPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace tpu;
using isa::Opcode;

CodeBuffer::Label CodeBuffer::newLabel() {
  labels.emplace_back(Main, -1);
  return Label(labels.size() - 1);
}

void CodeBuffer::bind(Label label) {
  labels[label] = {section, int64_t(code[section].size())};
}

void CodeBuffer::emit(Opcode opcode, ArrayRef<int64_t> operands) {
  isa::Instruction inst;
  inst.opcode = opcode;
  unsigned i = 0;
  for (int64_t operand : operands)
    inst.operands[i++] = operand;
  inst.source = source;
  code[section].push_back(inst);
}

void CodeBuffer::emitBranch(Opcode opcode, ArrayRef<int64_t> operands,
                            Label label) {
  emit(opcode, operands);
  fixups.emplace_back(section, code[section].size() - 1,
                      unsigned(operands.size()) - 1, label);
}

std::vector<isa::Instruction> CodeBuffer::finish() {
  std::vector<isa::Instruction> all = std::move(code[Main]);
  int64_t coldStart = int64_t(all.size());
  all.insert(all.end(), code[Cold].begin(), code[Cold].end());
  auto position = [&](unsigned in, int64_t index) {
    return in == Cold ? coldStart + index : index;
  };
  for (auto [in, inst, operand, label] : fixups) {
    auto [labelIn, target] = labels[label];
    all[position(in, int64_t(inst))].operands[operand] =
        position(labelIn, target);
  }
  // A branch to a jump goes where the jump goes (the end of an scf.if's
  // then part that the branch skips, say): a taken branch's bubble and a
  // bundle fewer. A chain of jumps is followed at most its length.
  for (auto [in, inst, operand, label] : fixups) {
    int64_t &target = all[position(in, int64_t(inst))].operands[operand];
    for (size_t hops = 0;
         hops < all.size() && size_t(target) < all.size() &&
         all[target].opcode == Opcode::Jmp && all[target].operands[0] != target;
         ++hops)
      target = all[target].operands[0];
  }
  return all;
}

void Linearizer::linearize(Block &block) {
  for (Operation &op : block) {
    linearize(&op);
    if (registers.failed())
      return;
  }
}

void Linearizer::bind(CodeBuffer::Label label) {
  registers.forgetConstants();
  code.bind(label);
}

void Linearizer::linearize(Operation *op) {
  CodeBuffer::SourceScope scope(code, op->getLoc());
  if (auto loop = dyn_cast<scf::ForOp>(op))
    linearizeFor(loop);
  else if (auto branch = dyn_cast<scf::IfOp>(op))
    linearizeIf(branch);
  else
    selector.select(op);
  registers.finish(op);
}

/// `value` as a base and a constant it adds: an arith.addi's operands, a
/// constant's value (no base), or `value` itself and 0.
static std::pair<Value, int64_t> splitConstantAddend(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return {Value(), *constant};
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<int64_t> constant =
              getConstantIntValue(add->getOperand(1 - i)))
        return {add->getOperand(i), *constant};
  return {value, 0};
}

/// ub - lb where the loop's bounds are one base plus constants (or both
/// constants): a kernel's loop over a chunk's rows, from row + 0 to
/// row + 896, say.
static std::optional<int64_t> boundsSpan(scf::ForOp loop) {
  auto [upper, upperAddend] = splitConstantAddend(loop.getUpperBound());
  auto [lower, lowerAddend] = splitConstantAddend(loop.getLowerBound());
  if (upper != lower)
    return std::nullopt;
  return upperAddend - lowerAddend;
}

/// for (iv = lb; iv < ub; iv += step): a guard, the body, and a latch that
/// branches back.
void Linearizer::linearizeFor(scf::ForOp loop) {
  if (!loop.getInitArgs().empty())
    return registers.fail(loop,
                          "loops with iteration arguments are not supported");
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return registers.fail(loop, "loop steps must be positive constants");
  Value iv = loop.getInductionVar();
  int64_t ivReg = registers.define(loop, iv);
  int64_t lb = selector.useScalar(loop, loop.getLowerBound());
  code.emit(Opcode::SAddi, {ivReg, lb, 0});
  registers.releaseTemporaries();
  CodeBuffer::Label top = code.newLabel(), done = code.newLabel();
  // A loop that may run zero times needs a guard; one whose bounds are a
  // known span apart runs at least once.
  std::optional<int64_t> span = boundsSpan(loop);
  if (!span || *span <= 0) {
    code.emitBranch(Opcode::BrGe,
                    {ivReg, selector.useScalar(loop, loop.getUpperBound()), 0},
                    done);
    registers.releaseTemporaries();
  }
  bind(top);
  linearize(*loop.getBody());
  if (registers.failed())
    return;
  code.emit(Opcode::SAddi, {ivReg, ivReg, *step});
  code.emitBranch(Opcode::BrLt,
                  {ivReg, selector.useScalar(loop, loop.getUpperBound()), 0},
                  top);
  registers.releaseTemporaries();
  bind(done);
  registers.release(iv);
}

/// Branches to the else part (or past the then part) when the condition
/// is false.
void Linearizer::linearizeIf(scf::IfOp branch) {
  if (branch.getNumResults() != 0)
    return registers.fail(branch, "scf.if with results is not supported");
  bool hasElse = !branch.getElseRegion().empty();
  std::optional<bool> thenIsRare =
      TPUDialect::isThenRare(branch->getAttrOfType<DenseI32ArrayAttr>(
          TPUDialect::getBranchWeightsAttrName()));
  if (thenIsRare && (*thenIsRare || hasElse) && !code.writingCold() &&
      linearizeIfWithColdPart(branch, /*coldThen=*/*thenIsRare))
    return;
  CodeBuffer::Label otherwise = code.newLabel(), done = code.newLabel();
  selector.branchUnless(branch, branch.getCondition(), otherwise);
  if (registers.failed())
    return;
  registers.releaseTemporaries();
  linearize(*branch.thenBlock());
  if (hasElse)
    code.emitBranch(Opcode::Jmp, {0}, done);
  bind(otherwise);
  if (hasElse)
    linearize(*branch.elseBlock());
  bind(done);
}

bool Linearizer::linearizeIfWithColdPart(scf::IfOp branch, bool coldThen) {
  CodeBuffer::Label cold = code.newLabel(), done = code.newLabel();
  // What the cold then part tests again: a conjunction's second operand.
  Value rest;
  if (coldThen) {
    FailureOr<Value> branched =
        selector.branchIf(branch, branch.getCondition(), cold);
    if (failed(branched))
      return false;
    rest = *branched;
  } else {
    selector.branchUnless(branch, branch.getCondition(), cold);
  }
  if (registers.failed())
    return true;
  registers.releaseTemporaries();
  Block *coldBlock = coldThen ? branch.thenBlock() : branch.elseBlock();
  Block *mainBlock = !coldThen                        ? branch.thenBlock()
                     : branch.getElseRegion().empty() ? nullptr
                                                      : branch.elseBlock();
  // Where a cold then part whose conjunction's rest is false goes: the
  // else part, if any.
  CodeBuffer::Label otherwise = coldThen && mainBlock ? code.newLabel() : done;
  // The parts are written in the order linearizeIf writes them (then,
  // else), so the register allocator sees them as it always does.
  auto writeCold = [&] {
    CodeBuffer::ColdScope scope(code);
    bind(cold);
    if (rest) {
      selector.branchUnless(branch, rest, otherwise);
      registers.releaseTemporaries();
    }
    linearize(*coldBlock);
    code.emitBranch(Opcode::Jmp, {0}, done);
  };
  if (coldThen)
    writeCold();
  // The main stream goes on from the branch, where the constants the cold
  // part loaded are not in registers (bind forgets them too).
  registers.forgetConstants();
  if (otherwise != done)
    bind(otherwise);
  if (mainBlock && !registers.failed())
    linearize(*mainBlock);
  if (!coldThen && !registers.failed())
    writeCold();
  bind(done);
  return true;
}
