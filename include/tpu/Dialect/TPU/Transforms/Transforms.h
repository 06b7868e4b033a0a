//===- Transforms.h - The tpu dialect's rewrites ----------------*- C++ -*-===//
//
// Each transformation as a function on one op that does the work with a
// rewriter, and a populate function that adds its pattern, in the style of
// mlir/Dialect/Linalg/Transforms/Transforms.h. The passes are thin drivers
// of these; other pipelines can use the patterns directly.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_TRANSFORMS_TRANSFORMS_H
#define TPU_DIALECT_TPU_TRANSFORMS_TRANSFORMS_H

#include "mlir/IR/PatternMatch.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Support/Chip.h"

namespace mlir::scf {
class ForOp;
} // namespace mlir::scf

namespace tpu {

//===----------------------------------------------------------------------===//
// tpu-pad-to-tiles
//===----------------------------------------------------------------------===//

/// A matmul's M x K x N (and batch) before and after padding to tiles.
struct TilePadding {
  int64_t batch = 1, m = 0, k = 0, n = 0;
  int64_t paddedM = 0, paddedK = 0, paddedN = 0;
  uint64_t usefulMacs() const { return uint64_t(batch * m * k * n); }
  uint64_t paddedMacs() const {
    return uint64_t(batch * paddedM * paddedK * paddedN);
  }
  bool needed() const { return paddedM != m || paddedK != k || paddedN != n; }
};

/// What padding `op` to whole tiles takes: M to the MXU's 8-row block, K
/// to the MXU's depth, N to the lanes.
TilePadding getTilePadding(MatmulOp op);

/// Replaces `op` by a matmul of its operands padded with zeros to whole
/// tiles (tpu.resize) and a tpu.resize of the result back to its shape.
/// Fails (changing nothing) if `op` is already tile-aligned.
llvm::FailureOr<MatmulOp> padMatmulToTiles(mlir::RewriterBase &rewriter,
                                           MatmulOp op);
void populatePadToTilesPatterns(mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// tpu-expand-precision
//===----------------------------------------------------------------------===//

/// Replaces `op` by the tpu.matmul_passes of its precision (`fallback` if it
/// has none), splitting f32 operands with `split` rounding and dropping the
/// terms of zero parts of bf16-exact operands (with a remark).
llvm::FailureOr<MatmulPassesOp>
expandMatmulPrecision(mlir::RewriterBase &rewriter, MatmulOp op,
                      Precision fallback, Rounding split);
void populateExpandPrecisionPatterns(mlir::RewritePatternSet &patterns,
                                     Precision fallback, Rounding split);

//===----------------------------------------------------------------------===//
// tpu-fuse
//===----------------------------------------------------------------------===//

/// Replaces `consumer` and the first tpu.elementwise producer of one of its
/// inputs that nothing else reads by one tpu.elementwise: the producer's
/// inputs, then the consumer's others, and the producer's body followed by
/// the consumer's. With `report`, a remark on the producer. Fails
/// (changing nothing) when there is no such producer.
llvm::FailureOr<ElementwiseOp>
fuseElementwiseProducer(mlir::RewriterBase &rewriter, ElementwiseOp consumer,
                        bool report);

/// Replaces `consumer` (f32) and the tpu.matmul_passes whose result (or the
/// tpu.resize of it that drops its padding) it alone reads by that matmul
/// with `consumer` in its epilogue, the other inputs grown to the
/// matmul's shape, and the resize after it. With `report`, a remark on the
/// consumer. Fails (changing nothing) when there is no such matmul.
llvm::FailureOr<MatmulPassesOp>
fuseIntoMatmulEpilogue(mlir::RewriterBase &rewriter, ElementwiseOp consumer,
                       bool report);

/// Replaces `reduce` and the tpu.elementwise producing its source, read by
/// nothing else and reading one f32 value, by a tpu.reduce of that value
/// with the producer's body as its prologue. With `report`, a remark on
/// the producer. Fails (changing nothing) when there is no such producer.
llvm::FailureOr<ReduceOp> fuseIntoReductionPrologue(mlir::RewriterBase &rewriter,
                                                    ReduceOp reduce,
                                                    bool report);

/// Makes `matmul` (tensor form) read, for each operand that is a result of
/// a tpu.split (two or three parts, all read by `matmul` alone), the
/// split's input and the part in lhs_parts / rhs_parts, so the kernel
/// splits in VMEM. Every split taken in has one rounding (the op's
/// `split`). With `report`, a remark on each split. Fails (changing
/// nothing) when no operand is such a part.
llvm::LogicalResult fuseSplitsIntoMatmul(mlir::RewriterBase &rewriter,
                                         MatmulPassesOp matmul, bool report);

/// Makes `matmul` (tensor form), whose rhs operands are each a tpu.resize
/// adding zero rows up to K that it alone reads, read the resizes' sources
/// with only the rows
/// that complete their last row tile (a view when the source's padding is
/// zero): the kernel zero-fills the rest of the last K tile in VMEM, so the
/// rows of zeros are never copied through HBM. With `report`, a remark on
/// each resize. Fails (changing nothing) when some rhs is no such resize.
llvm::LogicalResult fuseRhsPaddingIntoMatmul(mlir::RewriterBase &rewriter,
                                             MatmulPassesOp matmul,
                                             bool report);

/// The patterns of the five fusions. They leave the ops they fused dead
/// (a walk driver erases only what it visits): eraseDeadKernels after.
void populateFusePatterns(mlir::RewritePatternSet &patterns, bool report);

/// Erases the kernel ops under `root` that nothing reads.
void eraseDeadKernels(mlir::Operation *root);

//===----------------------------------------------------------------------===//
// tpu-bufferize
//===----------------------------------------------------------------------===//

/// Whether `op` is a kernel that moves 32-bit words, so cannot take packed
/// bf16 (every kernel but tpu.elementwise, tpu.split and
/// tpu.matmul_passes).
bool movesWords(mlir::Operation *op);

/// Replaces a word-moving kernel (tensor form) that takes or gives bf16 by
/// the same kernel on f32: its bf16 operands extended (arith.extf) and its
/// bf16 results rounded back (arith.truncf), each a tpu.elementwise. Exact
/// for bf16 values. Fails if `op` moves no bf16.
llvm::LogicalResult widenBF16(mlir::RewriterBase &rewriter,
                              mlir::Operation *op);

//===----------------------------------------------------------------------===//
// tpu-lower-to-mxu: the kernels (lib/Dialect/TPU/Transforms/Kernels/)
//===----------------------------------------------------------------------===//

/// Each writes the loops of a buffer-form kernel op in its place and
/// erases it, returning the outermost loop; it fails (with an error on the
/// op) on shapes it cannot handle.
llvm::FailureOr<mlir::scf::ForOp>
lowerMatmulPasses(mlir::RewriterBase &rewriter, MatmulPassesOp op,
                  const ChipInfo &chip);
llvm::FailureOr<mlir::scf::ForOp> lowerSplit(mlir::RewriterBase &rewriter,
                                             SplitOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerElementwise(mlir::RewriterBase &rewriter,
                                                   ElementwiseOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerResize(mlir::RewriterBase &rewriter,
                                              ResizeOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerReshape(mlir::RewriterBase &rewriter,
                                               ReshapeOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerBroadcast(mlir::RewriterBase &rewriter,
                                                 BroadcastOp op);
llvm::FailureOr<mlir::scf::ForOp>
lowerBroadcastLanes(mlir::RewriterBase &rewriter, BroadcastLanesOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerReduce(mlir::RewriterBase &rewriter,
                                              ReduceOp op);
llvm::FailureOr<mlir::scf::ForOp>
lowerReduceColumns(mlir::RewriterBase &rewriter, ReduceColumnsOp op);
llvm::FailureOr<mlir::scf::ForOp>
lowerReduceMatrices(mlir::RewriterBase &rewriter, ReduceMatricesOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerTranspose(mlir::RewriterBase &rewriter,
                                                 TransposeOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerWindows(mlir::RewriterBase &rewriter,
                                               WindowsOp op);
llvm::FailureOr<mlir::scf::ForOp>
lowerPermuteMatrices(mlir::RewriterBase &rewriter, PermuteMatricesOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerPermuteRows(mlir::RewriterBase &rewriter,
                                                   PermuteRowsOp op);
llvm::FailureOr<mlir::scf::ForOp> lowerInsertRows(mlir::RewriterBase &rewriter,
                                                  InsertRowsOp op);

/// The patterns of every kernel, for `chip` (its MXUs and result slots).
void populateLowerToMXUPatterns(mlir::RewritePatternSet &patterns,
                                const ChipInfo &chip);

} // namespace tpu

#endif // TPU_DIALECT_TPU_TRANSFORMS_TRANSFORMS_H
