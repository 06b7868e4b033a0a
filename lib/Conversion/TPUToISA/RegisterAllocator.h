//===- RegisterAllocator.h - Registers for a lowered function ---*- C++ -*-===//
//
// Linear-scan over the structured function, in program order: a value gets
// a register when its op is selected and gives it back after the last op
// of its block that uses it (directly or in a nested region). Loops define
// nothing that outlives an iteration, so that is exact. Temporaries
// (materialized constants, addresses) live for the one op that needs them.
// s0 reads 0 and s31 holds 1; no value gets them. Running out is an error
// that says how many values are live; there is no spilling.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_CONVERSION_TPUTOISA_REGISTERALLOCATOR_H
#define TPU_LIB_CONVERSION_TPUTOISA_REGISTERALLOCATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "tpu/ISA/ISA.h"
#include "llvm/ADT/DenseMap.h"

namespace tpu {

inline constexpr int64_t kZeroReg = 0;
inline constexpr int64_t kOneReg = isa::kNumScalarRegisters - 1;

class RegisterAllocator {
public:
  /// Plans the release points of `func`'s values.
  explicit RegisterAllocator(mlir::func::FuncOp func);

  /// The register file of values of `value`'s type.
  static isa::RegisterFile getFile(mlir::Value value);

  /// A register for `value`, defined by `op`, from now until its release.
  int64_t define(mlir::Operation *op, mlir::Value value);
  /// The register holding `value`, which must have been defined.
  int64_t lookup(mlir::Operation *op, mlir::Value value);
  /// A register of `file` for `op`'s own use, free again after it.
  int64_t temp(mlir::Operation *op, isa::RegisterFile file);
  /// The scalar temporary that holds `constant` (noted by holdsConstant
  /// since the temporaries were last freed), or -1: an op that reads one
  /// constant twice, as a DMA's tile count and stride often are, loads it
  /// once.
  int64_t temporaryHolding(int64_t constant) const;
  /// Notes that temporary `reg` holds `constant`, and keeps it unchanged
  /// until the temporaries are freed.
  void holdsConstant(int64_t reg, int64_t constant);

  /// Frees the temporaries.
  void releaseTemporaries();
  /// Frees the temporaries, then the values whose last use was `op`.
  void finish(mlir::Operation *op);
  /// Frees the register of `value` (a loop's induction variable, when the
  /// loop ends).
  void release(mlir::Value value);
  /// Whether no vector value is live: ops that take all the vector
  /// registers (tpu.transpose_block) need that.
  bool allVectorRegistersFree() const;

  /// Set by the first failure; its error is emitted on the op.
  bool failed() const { return error; }
  void fail(mlir::Operation *op, const llvm::Twine &message);

private:
  /// The free registers of one file, taken from the front, freed to the
  /// back.
  struct Pool {
    llvm::SmallVector<int64_t> free;
    Pool(int64_t first, int64_t last);
  };
  Pool &pool(isa::RegisterFile file) {
    return file == isa::RegisterFile::Vector ? vectors : scalars;
  }
  int64_t allocate(mlir::Operation *op, isa::RegisterFile file);

  Pool scalars{kZeroReg + 1, kOneReg - 1};
  Pool vectors{0, isa::kNumVectorRegisters - 1};
  llvm::DenseMap<mlir::Value, int64_t> assigned;
  /// Values whose register is released after the op has been selected.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value>>
      releaseAfter;
  llvm::SmallVector<std::pair<isa::RegisterFile, int64_t>> temps;
  /// The temporaries that hold constants: (constant, register).
  llvm::SmallVector<std::pair<int64_t, int64_t>> constantTemps;
  bool error = false;
};

} // namespace tpu

#endif // TPU_LIB_CONVERSION_TPUTOISA_REGISTERALLOCATOR_H
