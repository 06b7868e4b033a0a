//===- TransposeConversion.cpp - linalg.transpose to tpu ops --------------===//
//
// Any permutation is at most three steps the machine has: a permutation
// of the dimensions before the last (tpu.permute_matrices when the rows
// stay, moving whole matrices; tpu.permute_rows when they move), a swap of
// the last two (tpu.transpose), and another permutation of the rest. The
// first step is needed only when a leading dimension becomes the lanes:
// it brings that dimension to the rows, which the swap then turns into
// lanes.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tpu;

Value tpu::createTranspose(OpBuilder &builder, Location loc, Value value,
                           ArrayRef<int64_t> permutation) {
  SmallVector<int64_t> composed(permutation);
  // Of a transpose: one transpose of its input (result dimension d is the
  // inner result's dimension permutation[d], the input's
  // inner[permutation[d]]).
  if (auto inner = value.getDefiningOp<linalg::TransposeOp>();
      inner && inner.hasPureTensorSemantics()) {
    for (int64_t &d : composed)
      d = inner.getPermutation()[d];
    value = inner.getInput();
  }
  if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : composed)
    shape.push_back(type.getDimSize(d));
  Value init =
      tensor::EmptyOp::create(builder, loc, shape, type.getElementType());
  // An empty tensor has no values to move.
  if (value.getDefiningOp<tensor::EmptyOp>())
    return init;
  return linalg::TransposeOp::create(builder, loc, value, init, composed)
      ->getResult(0);
}

LogicalResult tpu::convertTranspose(RewriterBase &rewriter,
                                    linalg::TransposeOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitError() << "cannot convert this 'linalg.transpose' to the "
                             "TPU: it operates on buffers; the TPU compiler "
                             "takes linalg on tensors";
  ArrayRef<int64_t> permutation = op.getPermutation();
  int64_t rank = int64_t(permutation.size());
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value value = op.getInput();
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return op.emitError() << "cannot convert this 'linalg.transpose' to the "
                             "TPU: the TPU compiler needs static shapes";
  // Nothing to move: the result is as empty as the source.
  if (type.getNumElements() == 0) {
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
        op, cast<RankedTensorType>(op->getResult(0).getType()).getShape(),
        type.getElementType());
    return success();
  }
  // order[i]: the source dimension at position i of `value`.
  auto order = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  auto shapeOf = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> shape;
    for (int64_t d : dims)
      shape.push_back(type.getDimSize(d));
    return shape;
  };
  // `value` with its dimensions before the last in the order `target` (of
  // source dimensions).
  auto permuteRows = [&](ArrayRef<int64_t> target) {
    SmallVector<int64_t> steps;
    for (int64_t d : target)
      steps.push_back(llvm::find(order, d) - order.begin());
    if (llvm::equal(steps, llvm::seq<int64_t>(0, rank - 1)))
      return;
    SmallVector<int64_t> newOrder(target);
    newOrder.push_back(order.back());
    auto resultType = type.clone(shapeOf(newOrder));
    if (steps.back() == rank - 2)
      value = PermuteMatricesOp::create(
                  rewriter, loc, resultType, value, Value(),
                  rewriter.getDenseI64ArrayAttr(
                      ArrayRef<int64_t>(steps).drop_back()))
                  .getResult();
    else
      value = PermuteRowsOp::create(rewriter, loc, resultType, value, Value(),
                                    rewriter.getDenseI64ArrayAttr(steps))
                  .getResult();
    order = newOrder;
  };
  if (rank >= 2 && order.back() != permutation.back()) {
    // The dimension that becomes the lanes goes to the rows first, the
    // others as near their places as they can be: where the result has
    // them, the source's lanes (which the swap puts in the rows) where the
    // result has the new lanes' dimension.
    if (order[rank - 2] != permutation.back()) {
      SmallVector<int64_t> target(permutation.drop_back());
      *llvm::find(target, order.back()) = permutation.back();
      std::swap(*llvm::find(target, permutation.back()), target.back());
      permuteRows(target);
    }
    std::swap(order[rank - 2], order[rank - 1]);
    value = TransposeOp::create(rewriter, loc, type.clone(shapeOf(order)),
                                value, Value())
                .getResult();
  }
  if (rank >= 2)
    permuteRows(permutation.drop_back());
  rewriter.replaceOp(op, value);
  return success();
}
