//===- RegisterAllocator.cpp - Registers for a lowered function -----------===//

#include "RegisterAllocator.h"

#include "InstructionSelector.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <functional>

using namespace mlir;
using namespace tpu;
using isa::RegisterFile;

/// At most this many constants are kept from op to op: a K tile's head,
/// scalar code in two scalar slots a bundle, reloaded 16 and the like for
/// every DMA. Six took 2048^3 DEFAULT v4 from 150,703 to 150,379 cycles
/// and 8,489 to 8,049 bytes; twelve saved 8 bytes more and no cycle, and
/// would leave fewer registers free for values.
static constexpr size_t kKeptConstants = 6;

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
  // Out of scalar registers, a kept constant that this op does not read
  // gives its register back: it can be loaded again.
  if (registers.free.empty() && file == RegisterFile::Scalar) {
    for (auto *it = keptConstants.begin(); it != keptConstants.end(); ++it) {
      if (llvm::is_contained(keptInUse, it->second))
        continue;
      registers.free.push_back(it->second);
      keptConstants.erase(it);
      break;
    }
  }
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

int64_t RegisterAllocator::temporaryHolding(int64_t constant) {
  for (auto [value, reg] : constantTemps)
    if (value == constant)
      return reg;
  for (auto [value, reg] : keptConstants)
    if (value == constant) {
      keptInUse.push_back(reg);
      return reg;
    }
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
  forgetConstants();
}

void RegisterAllocator::forgetConstants() {
  for (auto [value, reg] : keptConstants)
    scalars.free.push_back(reg);
  keptConstants.clear();
  keptInUse.clear();
}

void RegisterAllocator::finish(Operation *op) {
  // The op's constants stay for the ops after it, a few at a time.
  for (auto [file, reg] : temps) {
    auto *held = llvm::find_if(constantTemps,
                               [&](auto entry) { return entry.second == reg; });
    if (held != constantTemps.end() && file == RegisterFile::Scalar) {
      keptConstants.push_back(*held);
      continue;
    }
    pool(file).free.push_back(reg);
  }
  while (keptConstants.size() > kKeptConstants) {
    scalars.free.push_back(keptConstants.front().second);
    keptConstants.erase(keptConstants.begin());
  }
  temps.clear();
  constantTemps.clear();
  keptInUse.clear();
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
