//===- ReshapeConversion.cpp - tensor reshapes to tpu.reshape -------------===//
//
// tensor.expand_shape and tensor.collapse_shape of static shapes become
// tpu.reshape when the machine has them: the (8,128) tiled image stays (a
// view: leading dimensions merged or split, rows that fill whole tiles
// merged with them or split off, a unit dimension added or dropped in
// front of the last two), or a vector becomes a column or back.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

using namespace mlir;
using namespace tpu;

FailureOr<ReshapeOp> tpu::convertReshape(RewriterBase &rewriter,
                                         Operation *op) {
  auto from = cast<RankedTensorType>(op->getOperand(0).getType());
  auto to = cast<RankedTensorType>(op->getResult(0).getType());
  if (!from.hasStaticShape() || !to.hasStaticShape())
    return op->emitError() << "cannot convert this '" << op->getName()
                           << "' to the TPU: the TPU compiler needs static "
                              "shapes";
  if (!ReshapeOp::hasBufferForm(from.getShape(), to.getShape()))
    return op->emitError()
           << "cannot reshape " << from << " to " << to
           << " on the TPU: it changes the last dimension, which needs a "
              "relayout of lanes the compiler does not have yet; reshapes "
              "that keep the last dimension are supported, as is a vector "
              "to a column and back";
  rewriter.setInsertionPoint(op);
  return rewriter.replaceOpWithNewOp<ReshapeOp>(op, to, op->getOperand(0),
                                                Value());
}
