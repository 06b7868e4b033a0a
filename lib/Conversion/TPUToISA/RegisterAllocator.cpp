//===- RegisterAllocator.cpp - Registers for a lowered function -----------===//

#include "RegisterAllocator.h"

#include "InstructionSelector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

using namespace mlir;
using namespace tpu;
using isa::RegisterFile;

RegisterAllocator::Pool::Pool(int64_t first, int64_t last) {
  for (int64_t reg = first; reg <= last; ++reg)
    free.push_back(reg);
}

RegisterAllocator::RegisterAllocator(func::FuncOp func) {
  func.walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      Block *block = op->getBlock();
      Operation *last = op;
      auto extendTo = [&](Operation *user) {
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (ancestor && last->isBeforeInBlock(ancestor))
          last = ancestor;
      };
      // A compare only branches use, and a conjunction of such, are
      // selected into each branch, which reads their operands there.
      std::function<void(Operation *)> extendToBranches =
          [&](Operation *condition) {
            for (Operation *branch : condition->getUsers()) {
              extendTo(branch);
              if (isBranchConjunction(branch))
                extendToBranches(branch);
            }
          };
      for (Operation *user : result.getUsers()) {
        extendTo(user);
        if (llvm::isa<arith::CmpIOp>(user) || isBranchConjunction(user))
          extendToBranches(user);
        // An offset folded into its users' immediates: they read this
        // value's register.
        if (user->getNumResults() == 1)
          if (std::optional<FoldedOffset> folded =
                  getFoldedOffset(user->getResult(0));
              folded && folded->value == result)
            for (Operation *access : user->getUsers())
              extendTo(access);
      }
      releaseAfter[last].push_back(result);
    }
  });
}

RegisterFile RegisterAllocator::getFile(Value value) {
  return llvm::isa<VectorType>(value.getType()) ? RegisterFile::Vector
                                                : RegisterFile::Scalar;
}

void RegisterAllocator::fail(Operation *op, const Twine &message) {
  if (!error)
    op->emitError("tpu-lower-to-isa: " + message);
  error = true;
}

int64_t RegisterAllocator::allocate(Operation *op, RegisterFile file) {
  Pool &registers = pool(file);
  if (registers.free.empty()) {
    bool vector = file == RegisterFile::Vector;
    size_t live = llvm::count_if(
        assigned, [&](auto &entry) { return getFile(entry.first) == file; });
    fail(op, Twine("out of ") + (vector ? "vector" : "scalar") +
                 " registers: " + Twine(live) + " values and " +
                 Twine(temps.size()) +
                 " temporaries are live here, and the allocator does not "
                 "spill; split the computation so fewer values are live at "
                 "once");
    return 0;
  }
  // The register free the longest: one freed just now would make the next
  // value wait for the last reader of the one before (a false
  // dependence the bundler must respect), and chains that could run side
  // by side would not.
  int64_t reg = registers.free.front();
  registers.free.erase(registers.free.begin());
  return reg;
}

int64_t RegisterAllocator::define(Operation *op, Value value) {
  int64_t reg = allocate(op, getFile(value));
  assigned[value] = reg;
  return reg;
}

int64_t RegisterAllocator::lookup(Operation *op, Value value) {
  auto it = assigned.find(value);
  if (it == assigned.end()) {
    fail(op, "operand has no register (its definition was not lowered)");
    return 0;
  }
  return it->second;
}

int64_t RegisterAllocator::temp(Operation *op, RegisterFile file) {
  int64_t reg = allocate(op, file);
  temps.emplace_back(file, reg);
  return reg;
}

int64_t RegisterAllocator::temporaryHolding(int64_t constant) const {
  for (auto [value, reg] : constantTemps)
    if (value == constant)
      return reg;
  return -1;
}

void RegisterAllocator::holdsConstant(int64_t reg, int64_t constant) {
  constantTemps.emplace_back(constant, reg);
}

void RegisterAllocator::releaseTemporaries() {
  for (auto [file, reg] : temps)
    pool(file).free.push_back(reg);
  temps.clear();
  constantTemps.clear();
}

void RegisterAllocator::finish(Operation *op) {
  releaseTemporaries();
  auto it = releaseAfter.find(op);
  if (it == releaseAfter.end())
    return;
  for (Value value : it->second)
    release(value);
}

void RegisterAllocator::release(Value value) {
  auto reg = assigned.find(value);
  if (reg == assigned.end())
    return;
  pool(getFile(value)).free.push_back(reg->second);
  assigned.erase(reg);
}

bool RegisterAllocator::allVectorRegistersFree() const {
  return vectors.free.size() == isa::kNumVectorRegisters;
}
