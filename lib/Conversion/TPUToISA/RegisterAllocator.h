//===- RegisterAllocator.h - Registers for a lowered function ---*- C++ -*-===//
//
// Linear-scan over the structured function, in program order: a value gets
// a register when its op is selected and gives it back after the last op
// of its block that uses it (directly or in a nested region). Loops define
// nothing that outlives an iteration, so that is exact. Temporaries
// (materialized constants, addresses) live for the one op that needs them,
// but a constant's stays for the ops after it in the same straight-line
// code, a few at a time (kept constants; code a branch lands in loads its
// own).
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
  /// for this op, or kept from an op before it), or -1: an op that reads
  /// one constant twice, as a DMA's tile count and stride often are, loads
  /// it once, and the ops after it in straight-line code not at all.
  int64_t temporaryHolding(int64_t constant);
  /// Notes that temporary `reg` holds `constant`, and keeps it unchanged
  /// until the temporaries are freed.
  void holdsConstant(int64_t reg, int64_t constant);

  /// Frees the temporaries and the kept constants.
  void releaseTemporaries();
  /// Frees the kept constants (before a label: a branch to it comes from
  /// code that may not have loaded them).
  void forgetConstants();
  /// Frees the temporaries but those holding constants, which are kept
  /// for the ops after (the oldest beyond kKeptConstants freed), then the
  /// values whose last use was `op`.
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
  /// Constants the ops before loaded, (constant, register), oldest first,
  /// kept for the ops after in the same straight-line code; and the
  /// registers of those the current op reads, which allocate() must not
  /// take back while the op is being selected.
  llvm::SmallVector<std::pair<int64_t, int64_t>> keptConstants;
  llvm::SmallVector<int64_t> keptInUse;
  bool error = false;
};

} // namespace tpu

#endif // TPU_LIB_CONVERSION_TPUTOISA_REGISTERALLOCATOR_H
