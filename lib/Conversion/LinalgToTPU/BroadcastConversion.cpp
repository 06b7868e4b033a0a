//===- BroadcastConversion.cpp - Broadcasts to tpu.broadcast --------------===//
//
// linalg.broadcast, and each input of an elementwise linalg.generic whose
// indexing map drops loop dimensions (a bias row, a matrix shared across a
// batch), become tpu.broadcast ops that make the full-shaped operand.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

using namespace mlir;
using namespace tpu;

FailureOr<Value> tpu::broadcastTo(RewriterBase &rewriter, Operation *user,
                                  Value source, ArrayRef<int64_t> dimensions,
                                  ArrayRef<int64_t> shape) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  int64_t rank = int64_t(shape.size());
  auto fail = [&](const Twine &why) {
    return user->emitError()
           << "cannot broadcast " << sourceType << " on the TPU: " << why;
  };
  if (dimensions.empty())
    return source;
  if (llvm::is_contained(dimensions, rank - 1)) {
    // A value per row across the row: from a vector of rows, as a column.
    if (rank != 2 || dimensions.size() != 1 || sourceType.getRank() != 1)
      return fail("the last dimension would be new, which repeats one value "
                  "across the lanes of a row; that is supported for a rank-1 "
                  "source into a rank-2 result only");
    auto columnType =
        RankedTensorType::get({shape[0], 1}, sourceType.getElementType());
    // A reduction's result is a column made a vector: take the column.
    Value column;
    if (auto reshape = source.getDefiningOp<ReshapeOp>())
      if (reshape.getSource().getType() == columnType)
        column = reshape.getSource();
    if (!column)
      column = ReshapeOp::create(rewriter, user->getLoc(), columnType, source,
                                 Value())
                   .getResult();
    auto type = RankedTensorType::get(shape, sourceType.getElementType());
    return BroadcastLanesOp::create(rewriter, user->getLoc(), type, column,
                                    Value())
        .getResult();
  }
  if (rank >= 2 && llvm::is_contained(dimensions, rank - 2) &&
      sourceType.getRank() != 1)
    return fail("a new second-to-last dimension repeats rows, which is "
                "supported for a rank-1 source (a row) only");
  auto type = RankedTensorType::get(shape, sourceType.getElementType());
  return BroadcastOp::create(rewriter, user->getLoc(), type, source, Value(),
                             rewriter.getDenseI64ArrayAttr(dimensions))
      .getResult();
}

FailureOr<Value> tpu::convertBroadcast(RewriterBase &rewriter,
                                       linalg::BroadcastOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitError() << "cannot convert this 'linalg.broadcast' to the "
                             "TPU: it operates on buffers; the TPU compiler "
                             "takes linalg on tensors";
  rewriter.setInsertionPoint(op);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<Value> broadcast = broadcastTo(
      rewriter, op, op.getInput(), op.getDimensions(), resultType.getShape());
  if (failed(broadcast))
    return failure();
  rewriter.replaceOp(op, *broadcast);
  return broadcast;
}
