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

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

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
    return std::string("it slices the last dimension (the lanes) in a way "
                       "the compiler cannot move as rows");
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

namespace {

/// Whether `op` (an extract or insert slice of the static, unit-stride
/// kind the machine moves as rows) cuts the lanes of `big`.
bool slicesLanes(OffsetSizeAndStrideOpInterface op, RankedTensorType big) {
  if (big.getRank() < 1 || !big.hasStaticShape() ||
      ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticOffsets()) ||
      llvm::any_of(op.getStaticStrides(), [](int64_t s) { return s != 1; }))
    return false;
  return op.getStaticSizes().back() != big.getShape().back();
}

/// Whether a box of `sizes` also cuts a dimension of `big` before the
/// last.
bool slicesRows(ArrayRef<int64_t> sizes, RankedTensorType big) {
  return !llvm::equal(sizes.drop_back(), big.getShape().drop_back());
}

/// The permutation that swaps the last two of `rank` dimensions.
SmallVector<int64_t> swapMinor(int64_t rank) {
  auto permutation = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(permutation[rank - 2], permutation[rank - 1]);
  return permutation;
}

/// `offsets` and `sizes` with the last dimension whole (of `big`).
std::pair<SmallVector<int64_t>, SmallVector<int64_t>>
wholeRows(ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
          RankedTensorType big) {
  SmallVector<int64_t> o(offsets), s(sizes);
  o.back() = 0;
  s.back() = big.getShape().back();
  return {o, s};
}

/// A box of `value` as a rank-preserving extract_slice, or the box of an
/// empty tensor as one (it has no values to move).
Value extractBox(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (value.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  SmallVector<int64_t> strides(sizes.size(), 1);
  MLIRContext *context = b.getContext();
  return tensor::ExtractSliceOp::create(
      b, loc, value, getAsIndexOpFoldResult(context, offsets),
      getAsIndexOpFoldResult(context, sizes),
      getAsIndexOpFoldResult(context, strides));
}

/// A vector as the 1 x n matrix it is laid out as (an empty one as an
/// empty one), and back.
Value asMatrix(OpBuilder &b, Location loc, Value vector) {
  auto type = cast<RankedTensorType>(vector.getType());
  if (vector.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, loc, {1, type.getDimSize(0)},
                                   type.getElementType());
  return tensor::ExpandShapeOp::create(
      b, loc, type.clone({1, type.getDimSize(0)}), vector,
      SmallVector<ReassociationIndices>{{0, 1}});
}
Value asVector(OpBuilder &b, Location loc, Value matrix) {
  auto type = cast<RankedTensorType>(matrix.getType());
  return tensor::CollapseShapeOp::create(
      b, loc, type.clone({type.getDimSize(1)}), matrix,
      SmallVector<ReassociationIndices>{{0, 1}});
}

/// The lanes of the box [offset, offset + size) of `value`'s last
/// dimension, as rows: transposed, sliced as rows, transposed back.
Value extractLanes(OpBuilder &b, Location loc, Value value, int64_t offset,
                   int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  Value rows = createTranspose(b, loc, value, swapMinor(rank));
  SmallVector<int64_t> offsets(rank, 0);
  auto sizes =
      llvm::to_vector(cast<RankedTensorType>(rows.getType()).getShape());
  offsets[rank - 2] = offset;
  sizes[rank - 2] = size;
  return createTranspose(b, loc, extractBox(b, loc, rows, offsets, sizes),
                         swapMinor(rank));
}

} // namespace

/// The box at `offsets` of `sizes` of `value` (a matrix or more): its
/// whole rows first, as rows; then its lanes.
static Value extractLaneBox(OpBuilder &b, Location loc, Value value,
                            ArrayRef<int64_t> offsets,
                            ArrayRef<int64_t> sizes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (slicesRows(sizes, type)) {
    auto [rowOffsets, rowSizes] = wholeRows(offsets, sizes, type);
    value = extractBox(b, loc, value, rowOffsets, rowSizes);
  }
  return extractLanes(b, loc, value, offsets.back(), sizes.back());
}

FailureOr<Value> tpu::decomposeLaneSlice(RewriterBase &rewriter,
                                         tensor::ExtractSliceOp op) {
  RankedTensorType source = op.getSourceType();
  if (!slicesLanes(op, source))
    return failure();
  SmallVector<int64_t> sizes(op.getStaticSizes());
  auto boxType = source.clone(sizes);
  std::optional<SmallVector<ReassociationIndices>> groups;
  if (boxType != op.getType() &&
      !(groups = getReassociationIndicesForReshape(boxType, op.getType())))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // A vector's elements: the same, from its 1 x n matrix.
  Value value =
      source.getRank() == 1
          ? asVector(rewriter, loc,
                     extractLaneBox(rewriter, loc,
                                    asMatrix(rewriter, loc, op.getSource()),
                                    {0, op.getStaticOffsets()[0]},
                                    {1, sizes[0]}))
          : extractLaneBox(rewriter, loc, op.getSource(),
                           op.getStaticOffsets(), sizes);
  if (groups)
    value = tensor::CollapseShapeOp::create(rewriter, loc, op.getType(), value,
                                            *groups);
  return value;
}

/// `source` (the box's shape) inserted into `dest` (a matrix or more) at
/// `offsets`: the whole rows the box is in, the box inserted into them
/// with the lanes as rows, those rows put back.
static Value insertLanes(OpBuilder &b, Location loc, Value source,
                         Value dest, ArrayRef<int64_t> offsets,
                         ArrayRef<int64_t> sizes) {
  auto destType = cast<RankedTensorType>(dest.getType());
  int64_t rank = destType.getRank();
  MLIRContext *context = b.getContext();
  auto folded = [&](ArrayRef<int64_t> values) {
    return getAsIndexOpFoldResult(context, values);
  };
  SmallVector<int64_t> strides(rank, 1);
  bool rowsToo = slicesRows(sizes, destType);
  auto [rowOffsets, rowSizes] = wholeRows(offsets, sizes, destType);
  Value block =
      rowsToo ? extractBox(b, loc, dest, rowOffsets, rowSizes) : dest;
  Value blockRows = createTranspose(b, loc, block, swapMinor(rank));
  Value sourceRows = createTranspose(b, loc, source, swapMinor(rank));
  SmallVector<int64_t> laneOffsets(rank, 0);
  laneOffsets[rank - 2] = offsets.back();
  Value inserted = tensor::InsertSliceOp::create(
      b, loc, sourceRows, blockRows, folded(laneOffsets),
      folded(cast<RankedTensorType>(sourceRows.getType()).getShape()),
      folded(strides));
  Value result = createTranspose(b, loc, inserted, swapMinor(rank));
  if (rowsToo)
    result = tensor::InsertSliceOp::create(b, loc, result, dest,
                                           folded(rowOffsets),
                                           folded(rowSizes), folded(strides));
  return result;
}

FailureOr<Value> tpu::decomposeLaneSlice(RewriterBase &rewriter,
                                         tensor::InsertSliceOp op) {
  RankedTensorType dest = op.getDestType();
  if (!slicesLanes(op, dest))
    return failure();
  SmallVector<int64_t> sizes(op.getStaticSizes());
  auto boxType = dest.clone(sizes);
  std::optional<SmallVector<ReassociationIndices>> groups;
  if (boxType != op.getSourceType() &&
      !(groups =
            getReassociationIndicesForReshape(op.getSourceType(), boxType)))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value source = op.getSource();
  if (groups)
    source = tensor::ExpandShapeOp::create(rewriter, loc, boxType, source,
                                           *groups);
  // A vector's elements: the same, into its 1 x n matrix.
  if (dest.getRank() == 1)
    return asVector(rewriter, loc,
                    insertLanes(rewriter, loc, asMatrix(rewriter, loc, source),
                                asMatrix(rewriter, loc, op.getDest()),
                                {0, op.getStaticOffsets()[0]}, {1, sizes[0]}));
  return insertLanes(rewriter, loc, source, op.getDest(),
                     op.getStaticOffsets(), sizes);
}
