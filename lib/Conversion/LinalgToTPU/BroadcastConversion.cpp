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

LogicalResult tpu::checkBroadcast(Operation *user, RankedTensorType sourceType,
                                  ArrayRef<int64_t> dimensions,
                                  ArrayRef<int64_t> shape) {
  int64_t rank = int64_t(shape.size());
  auto fail = [&](const Twine &why) {
    return user->emitError()
           << "cannot broadcast " << sourceType << " on the TPU: " << why;
  };
  if (llvm::is_contained(dimensions, rank - 1) && dimensions.size() != 1)
    return fail("the last dimension would be new, which repeats one value "
                "across the lanes of a row; that is supported when it is "
                "the only new dimension");
  if (!llvm::is_contained(dimensions, rank - 1) && rank >= 2 &&
      llvm::is_contained(dimensions, rank - 2) && sourceType.getRank() != 1)
    return fail("a new second-to-last dimension repeats rows, which is "
                "supported for a rank-1 source (a row) only");
  return success();
}

Value tpu::broadcastTo(RewriterBase &rewriter, Location loc, Value source,
                       ArrayRef<int64_t> dimensions, ArrayRef<int64_t> shape) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto type = RankedTensorType::get(shape, sourceType.getElementType());
  if (dimensions.empty())
    return source;
  if (!llvm::is_contained(dimensions, int64_t(shape.size()) - 1))
    return BroadcastOp::create(rewriter, loc, type, source, Value(),
                               rewriter.getDenseI64ArrayAttr(dimensions))
        .getResult();
  // A value per row across the row: from the values of the rows, as a
  // column (the last dimension 1).
  SmallVector<int64_t> columnShape(shape);
  columnShape.back() = 1;
  auto columnType =
      RankedTensorType::get(columnShape, sourceType.getElementType());
  // A reduction's result is a column made a vector: take the column.
  Value column;
  if (auto reshape = source.getDefiningOp<ReshapeOp>())
    if (reshape.getSource().getType() == columnType)
      column = reshape.getSource();
  if (!column)
    column = ReshapeOp::create(rewriter, loc, columnType, source, Value())
                 .getResult();
  return BroadcastLanesOp::create(rewriter, loc, type, column, Value())
      .getResult();
}

FailureOr<Value> tpu::convertBroadcast(RewriterBase &rewriter,
                                       linalg::BroadcastOp op) {
  if (!op.hasPureTensorSemantics())
    return op.emitError() << "cannot convert this 'linalg.broadcast' to the "
                             "TPU: it operates on buffers; the TPU compiler "
                             "takes linalg on tensors";
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (failed(checkBroadcast(op, cast<RankedTensorType>(op.getInput().getType()),
                            op.getDimensions(),
                            resultType.getShape())))
    return failure();
  rewriter.setInsertionPoint(op);
  Value broadcast = broadcastTo(rewriter, op.getLoc(), op.getInput(),
                                op.getDimensions(), resultType.getShape());
  rewriter.replaceOp(op, broadcast);
  return broadcast;
}
