//===- SliceConversion.cpp - Slices of tensors to tpu.insert_rows ---------===//
//
// tensor.extract_slice and tensor.insert_slice of static boxes with unit
// strides that keep the last dimension whole become tpu.insert_rows (a
// rank-reducing slice through a tpu.reshape of the box); tensor.concat is
// first decomposed as upstream does (inserts into a tensor.empty), and an
// insert into a tensor.empty has no dest (the rest is zero).
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

using namespace mlir;
using namespace tpu;

namespace {

/// Why the box of `op` (an extract or insert slice) cannot be moved as
/// whole rows, or nothing.
std::optional<std::string> checkBox(OffsetSizeAndStrideOpInterface op,
                                    RankedTensorType big) {
  if (big.getRank() == 0)
    return std::string("a slice of a rank-0 tensor is the tensor itself; use "
                       "the tensor");
  if (!big.hasStaticShape() || ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticOffsets()))
    return std::string("the TPU compiler needs static shapes and offsets");
  if (llvm::any_of(op.getStaticStrides(), [](int64_t s) { return s != 1; }))
    return std::string("only unit strides are supported");
  int64_t last = big.getRank() - 1;
  if (op.getStaticOffsets()[last] != 0 ||
      op.getStaticSizes()[last] != big.getDimSize(last))
    return std::string("it slices the last dimension (the lanes), which "
                       "needs a relayout the compiler does not have yet; "
                       "slices of whole rows are supported");
  return std::nullopt;
}

} // namespace

FailureOr<InsertRowsOp> tpu::convertExtractSlice(RewriterBase &rewriter,
                                                 tensor::ExtractSliceOp op) {
  RankedTensorType source = op.getSourceType();
  if (std::optional<std::string> problem = checkBox(op, source))
    return op.emitError() << "cannot convert this 'tensor.extract_slice' to "
                             "the TPU: "
                          << *problem;
  rewriter.setInsertionPoint(op);
  auto boxType = source.clone(op.getStaticSizes());
  auto extract = InsertRowsOp::create(
      rewriter, op.getLoc(), boxType, op.getSource(), Value(), Value(),
      rewriter.getDenseI64ArrayAttr(op.getStaticOffsets().drop_back()),
      rewriter.getUnitAttr());
  Value result = extract.getResult();
  if (boxType != op.getType())
    result = ReshapeOp::create(rewriter, op.getLoc(), op.getType(), result,
                               Value())
                 .getResult();
  rewriter.replaceOp(op, result);
  return extract;
}

FailureOr<InsertRowsOp> tpu::convertInsertSlice(RewriterBase &rewriter,
                                                tensor::InsertSliceOp op) {
  RankedTensorType dest = op.getDestType();
  if (std::optional<std::string> problem = checkBox(op, dest))
    return op.emitError() << "cannot convert this 'tensor.insert_slice' to "
                             "the TPU: "
                          << *problem;
  rewriter.setInsertionPoint(op);
  Value source = op.getSource();
  auto boxType = dest.clone(op.getStaticSizes());
  if (boxType != op.getSourceType())
    source = ReshapeOp::create(rewriter, op.getLoc(), boxType, source, Value())
                 .getResult();
  Value into = op.getDest();
  if (into.getDefiningOp<tensor::EmptyOp>())
    into = Value();
  auto insert = InsertRowsOp::create(
      rewriter, op.getLoc(), dest, source, into, Value(),
      rewriter.getDenseI64ArrayAttr(op.getStaticOffsets().drop_back()),
      UnitAttr());
  rewriter.replaceOp(op, insert.getResult());
  return insert;
}
