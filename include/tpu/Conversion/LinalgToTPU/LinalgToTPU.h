//===- LinalgToTPU.h - linalg ops on tensors to tpu ops ---------*- C++ -*-===//

#ifndef TPU_CONVERSION_LINALGTOTPU_LINALGTOTPU_H
#define TPU_CONVERSION_LINALGTOTPU_LINALGTOTPU_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <array>
#include "mlir/IR/PatternMatch.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"

namespace tpu {

/// Replaces a linalg.matmul, batch_matmul or matvec on tensors by
/// tpu.matmul (matvec through tpu.reshape of the vector to a column and
/// back). A zero-fill init starts from zero; any other init is the
/// accumulator. The op's tpu.precision wins over `defaultPrecision`. Fails
/// with an error on the op when its operands or maps are not supported.
llvm::FailureOr<MatmulOp> convertMatmul(mlir::RewriterBase &rewriter,
                                        mlir::linalg::LinalgOp op,
                                        Precision defaultPrecision);

/// Replaces an elementwise linalg.generic (all loops parallel, one result
/// whose init it does not read, inputs with identity maps or maps that
/// drop dimensions, which become tpu.broadcast ops) by tpu.elementwise with
/// the same body. Fails with an error on the op when the body holds an op
/// the VPU cannot run or element types other than f32 and bf16.
llvm::FailureOr<ElementwiseOp> convertElementwise(mlir::RewriterBase &rewriter,
                                                  mlir::linalg::GenericOp op);

/// Replaces a linalg.broadcast on tensors by what broadcastTo makes, or
/// fails with an error on the op when the TPU cannot broadcast that way.
llvm::FailureOr<mlir::Value> convertBroadcast(mlir::RewriterBase &rewriter,
                                              mlir::linalg::BroadcastOp op);

/// Whether the TPU can give a `sourceType` tensor the new dimensions
/// `dimensions` (as linalg.broadcast numbers them) to make `shape`: new
/// leading dimensions, a rank-1 row repeated down new rows, or a value per
/// row repeated across a new last dimension. Fails with an error on
/// `user` otherwise.
mlir::LogicalResult checkBroadcast(mlir::Operation *user,
                                   mlir::RankedTensorType sourceType,
                                   llvm::ArrayRef<int64_t> dimensions,
                                   llvm::ArrayRef<int64_t> shape);

/// `source` broadcast as checkBroadcast allows, at the insertion point: a
/// tpu.broadcast, a tpu.broadcast_lanes of the vector as a column, or
/// `source` itself when nothing is new.
mlir::Value broadcastTo(mlir::RewriterBase &rewriter, mlir::Location loc,
                        mlir::Value source, llvm::ArrayRef<int64_t> dimensions,
                        llvm::ArrayRef<int64_t> shape);

/// Replaces a linalg.reduce, or a reduction linalg.generic whose input
/// map is the identity and whose init map keeps the other loops, of an
/// f32 tensor, whose body is one addf, maximumf, minimumf, maxnumf or
/// minnumf and whose init a constant fill: over the last dimension by
/// tpu.reduce, over the second-to-last by tpu.reduce_columns, either with
/// a tpu.reshape to its result's shape after it (returns the reduction),
/// over leading dimensions by tpu.reduce_matrices. Fails with
/// an error on the op otherwise.
llvm::FailureOr<mlir::Operation *>
convertReduction(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op);

/// Whether `op` is a reduction convertReduction takes or explains: a
/// linalg.reduce, or a linalg.generic with reduction loops.
bool isReduction(mlir::Operation *op);

/// Replaces a linalg.transpose on tensors by at most three tpu ops: a
/// permutation of the dimensions before the last (tpu.permute_matrices or
/// tpu.permute_rows), a swap of the last two (tpu.transpose), another
/// permutation. Fails with an error on the op if it works on buffers.
mlir::LogicalResult convertTranspose(mlir::RewriterBase &rewriter,
                                     mlir::linalg::TransposeOp op);

/// `value` transposed by `permutation` (as linalg.transpose): a new
/// linalg.transpose, one transpose of its input if `value` is one, the
/// input itself when the two cancel, or an empty tensor for an empty one.
mlir::Value createTranspose(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value value,
                            llvm::ArrayRef<int64_t> permutation);

/// A reshape (tensor.expand_shape or tensor.collapse_shape) that splits
/// the last dimension or merges others into it, as transposes around a
/// reshape that keeps the last dimension: the lanes become rows, are
/// regrouped as rows, and are transposed back. Fails (without an error)
/// when `op` keeps the last dimension or the regrouping has no buffer
/// form.
mlir::FailureOr<mlir::Value> decomposeLaneReshape(mlir::RewriterBase &rewriter,
                                                  mlir::Operation *op);

/// Replaces a tensor.expand_shape or tensor.collapse_shape `op` of static
/// shapes by tpu.reshape where that keeps the (8,128) tiled image or turns
/// a vector into a column or back; fails with an error on the op
/// otherwise.
llvm::FailureOr<ReshapeOp> convertReshape(mlir::RewriterBase &rewriter,
                                          mlir::Operation *op);

/// Replaces a tensor.extract_slice of a static box with unit strides and
/// the last dimension whole by tpu.insert_rows (extract), then a
/// tpu.reshape for a rank-reducing one; fails with an error on the op
/// otherwise.
llvm::FailureOr<InsertRowsOp>
convertExtractSlice(mlir::RewriterBase &rewriter,
                    mlir::tensor::ExtractSliceOp op);

/// Replaces a tensor.insert_slice of such a box by tpu.insert_rows (with
/// no dest when the dest is a tensor.empty: the rest is zero); fails with
/// an error on the op otherwise.
llvm::FailureOr<InsertRowsOp>
convertInsertSlice(mlir::RewriterBase &rewriter, mlir::tensor::InsertSliceOp op);

/// A slice (static, unit strides) that cuts the lanes of a matrix or more,
/// as slices of whole rows: the box's rows first, then its lanes
/// transposed into rows, sliced, and transposed back (an insert transposes
/// the rows it lands in, too). Fails (without an error) for other slices.
mlir::FailureOr<mlir::Value>
decomposeLaneSlice(mlir::RewriterBase &rewriter,
                   mlir::tensor::ExtractSliceOp op);
mlir::FailureOr<mlir::Value>
decomposeLaneSlice(mlir::RewriterBase &rewriter,
                   mlir::tensor::InsertSliceOp op);

/// Whether `op` is a matrix product convertMatmul takes.
bool isMatmulLike(mlir::Operation *op);

/// True if `init` is a linalg.fill of a zero constant, or a zero tensor
/// constant: a matmul then starts from zero rather than accumulating into
/// anything.
bool isZeroFill(mlir::Value init);

/// Why a value of `type` cannot be an operand (or, with `isResult`, the
/// init) of a contraction on the MXU, or nothing: it must be a static
/// tensor of f32 or bf16 (f32 for the init).
std::optional<std::string> getContractionOperandProblem(mlir::Type type,
                                                        bool isResult);

/// The precision of a contraction `op` (two inputs, named `inputNames` in
/// errors, and an init): its tpu.precision, else `defaultPrecision`; or
/// an error on the op naming the operand the MXU cannot take.
llvm::FailureOr<Precision>
checkContraction(mlir::linalg::LinalgOp op,
                 std::array<llvm::StringRef, 2> inputNames,
                 Precision defaultPrecision);

/// Whether `op` is a convolution or pooling the TPU takes through
/// tpu.windows: linalg.conv_2d_nhwc_hwcf or linalg.pooling_nhwc_max, _min
/// or _sum.
bool isWindowOp(mlir::Operation *op);

/// Replaces a linalg.conv_2d_nhwc_hwcf on tensors by the im2col matmul:
/// tpu.windows of the image (channels padded with zeros to a multiple of
/// 128, a tensor.pad producing it folded in) with the taps in lanes, times
/// the filter as a [KH * KW * C, F] matrix. Precision and init as
/// convertMatmul. Fails with an error on the op when an operand is not
/// supported.
llvm::FailureOr<MatmulOp> convertConvolution(mlir::RewriterBase &rewriter,
                                             mlir::linalg::Conv2DNhwcHwcfOp op,
                                             Precision defaultPrecision);

/// Replaces a linalg.pooling_nhwc_max, _min or _sum of f32 tensors whose
/// init is a constant fill by tpu.reduce_matrices over the taps of
/// tpu.windows (a tensor.pad producing the image folded in). Fails with
/// an error on the op otherwise.
llvm::FailureOr<ReduceMatricesOp> convertPooling(mlir::RewriterBase &rewriter,
                                                 mlir::linalg::LinalgOp op);

/// Replaces a tensor.pad of the rows and columns of an NHWC image by a
/// constant with one-tap tpu.windows, unless convolutions and poolings,
/// which fold it, are all that read it (then it fails, changing nothing).
/// Fails with an error on the op when it pads anything else.
llvm::FailureOr<ReshapeOp> convertPad(mlir::RewriterBase &rewriter,
                                      mlir::tensor::PadOp op);

/// The patterns of both conversions; named elementwise ops (linalg.add,
/// linalg.div, ...) are generalized first.
void populateLinalgToTPUPatterns(mlir::RewritePatternSet &patterns,
                                 Precision defaultPrecision);

} // namespace tpu

#endif // TPU_CONVERSION_LINALGTOTPU_LINALGTOTPU_H
