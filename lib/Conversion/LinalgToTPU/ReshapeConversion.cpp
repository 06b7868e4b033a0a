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

#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
           << " on the TPU: it regroups rows into matrices whose heights do "
              "not divide one another, even with the lanes transposed into "
              "rows; supported are reshapes that keep the tiled image, "
              "regroup rows into matrices one a multiple of the other's "
              "height, or do so after moving the lanes, and a vector to a "
              "column and back";
  rewriter.setInsertionPoint(op);
  return rewriter.replaceOpWithNewOp<ReshapeOp>(op, to, op->getOperand(0),
                                                Value());
}

namespace {

/// A reshape of the lanes (only the last group of the reshape has more
/// than one dimension), done as rows: the wide side transposed with that
/// group in front reshapes, keeping its last dimension, into the narrow
/// side transposed with its last dimension in front.
struct LaneReshape {
  SmallVector<int64_t> sourceOrder, resultOrder;
  SmallVector<int64_t> sourceShape, resultShape;
  SmallVector<ReassociationIndices> groups;

  static std::optional<LaneReshape>
  get(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
      ArrayRef<ReassociationIndices> reshapeGroups, bool expand) {
    LaneReshape plan;
    SmallVector<ReassociationIndices> rotated(reshapeGroups);
    std::rotate(rotated.begin(), rotated.end() - 1, rotated.end());
    SmallVector<int64_t> wideOrder;
    int64_t next = 0;
    for (const ReassociationIndices &group : rotated) {
      wideOrder.append(group.begin(), group.end());
      plan.groups.push_back(llvm::to_vector(
          llvm::seq<int64_t>(next, next + int64_t(group.size()))));
      next += int64_t(group.size());
    }
    int64_t narrowRank = int64_t(rotated.size());
    SmallVector<int64_t> narrowOrder = {narrowRank - 1};
    llvm::append_range(narrowOrder, llvm::seq<int64_t>(0, narrowRank - 1));
    plan.sourceOrder = expand ? narrowOrder : wideOrder;
    plan.resultOrder = expand ? wideOrder : narrowOrder;
    for (int64_t d : plan.sourceOrder)
      plan.sourceShape.push_back(from[d]);
    for (int64_t d : plan.resultOrder)
      plan.resultShape.push_back(to[d]);
    if (!ReshapeOp::hasBufferForm(plan.sourceShape, plan.resultShape))
      return std::nullopt;
    return plan;
  }

  Value build(RewriterBase &rewriter, Location loc, Value source,
              RankedTensorType to, bool expand) const {
    Value transposed = createTranspose(rewriter, loc, source, sourceOrder);
    auto type = to.clone(resultShape);
    Value reshaped =
        expand ? Value(tensor::ExpandShapeOp::create(rewriter, loc, type,
                                                     transposed, groups))
               : Value(tensor::CollapseShapeOp::create(rewriter, loc, type,
                                                       transposed, groups));
    // Back: result dimension d is at position resultOrder^-1[d].
    SmallVector<int64_t> back(resultOrder.size());
    for (auto [position, d] : llvm::enumerate(resultOrder))
      back[d] = int64_t(position);
    return createTranspose(rewriter, loc, reshaped, back);
  }
};

} // namespace

FailureOr<Value> tpu::decomposeLaneReshape(RewriterBase &rewriter,
                                           Operation *op) {
  auto from = cast<RankedTensorType>(op->getOperand(0).getType());
  auto to = cast<RankedTensorType>(op->getResult(0).getType());
  if (!from.hasStaticShape() || !to.hasStaticShape() || from.getRank() == 0 ||
      to.getRank() == 0 || from.getShape().back() == to.getShape().back() ||
      ReshapeOp::hasBufferForm(from.getShape(), to.getShape()))
    return failure();
  bool expand = isa<tensor::ExpandShapeOp>(op);
  SmallVector<ReassociationIndices> groups =
      expand ? cast<tensor::ExpandShapeOp>(op).getReassociationIndices()
             : cast<tensor::CollapseShapeOp>(op).getReassociationIndices();
  ArrayRef<int64_t> wide = expand ? to.getShape() : from.getShape();
  ArrayRef<int64_t> narrow = expand ? from.getShape() : to.getShape();
  Location loc = op->getLoc();
  // A vector is laid out as a 1 x n matrix: reshaped as one, between
  // reshapes that add and drop the unit dimension (views).
  if (narrow.size() == 1) {
    rewriter.setInsertionPoint(op);
    SmallVector<int64_t> unitWide = {1};
    llvm::append_range(unitWide, wide);
    SmallVector<ReassociationIndices> unitGroups = {{0, 1}};
    for (int64_t d = 2, e = int64_t(unitWide.size()); d < e; ++d)
      unitGroups.push_back({d});
    SmallVector<ReassociationIndices> laneGroups = {
        {0}, llvm::to_vector(llvm::seq<int64_t>(1, unitWide.size()))};
    auto unitWideType = to.clone(unitWide);
    auto unitNarrowType = to.clone({1, narrow[0]});
    Operation *lanes;
    if (expand) {
      Value matrix = tensor::ExpandShapeOp::create(
          rewriter, loc, unitNarrowType, op->getOperand(0),
          SmallVector<ReassociationIndices>{{0, 1}});
      lanes = tensor::ExpandShapeOp::create(rewriter, loc, unitWideType,
                                            matrix, laneGroups);
    } else {
      Value matrix = tensor::ExpandShapeOp::create(
          rewriter, loc, unitWideType, op->getOperand(0), unitGroups);
      lanes = tensor::CollapseShapeOp::create(rewriter, loc, unitNarrowType,
                                              matrix, laneGroups);
    }
    FailureOr<Value> reshaped = decomposeLaneReshape(rewriter, lanes);
    if (failed(reshaped)) {
      // Undo: the reshapes made for nothing.
      Operation *matrix = lanes->getOperand(0).getDefiningOp();
      rewriter.eraseOp(lanes);
      rewriter.eraseOp(matrix);
      return failure();
    }
    rewriter.replaceOp(lanes, *reshaped);
    rewriter.setInsertionPoint(op);
    if (expand)
      return Value(tensor::CollapseShapeOp::create(rewriter, loc, to,
                                                   *reshaped, unitGroups));
    return Value(tensor::CollapseShapeOp::create(
        rewriter, loc, to, *reshaped,
        SmallVector<ReassociationIndices>{{0, 1}}));
  }
  // Split in two when other groups change too: the rows (a reshape that
  // keeps the lanes) and the lanes alone, in the order that keeps the
  // wide side's other dimensions whole between them (expand: rows first;
  // collapse: lanes first). `middle` has the wide side's dimensions but
  // the lanes group's, merged.
  SmallVector<int64_t> middle;
  SmallVector<ReassociationIndices> rowGroups, laneGroups;
  for (auto [i, group] : llvm::enumerate(groups)) {
    bool lanes = i + 1 == groups.size();
    if (lanes) {
      middle.push_back(narrow.back());
      rowGroups.push_back({int64_t(middle.size()) - 1});
      laneGroups.push_back(llvm::to_vector(llvm::seq<int64_t>(
          int64_t(middle.size()) - 1,
          int64_t(middle.size()) - 1 + int64_t(group.size()))));
      continue;
    }
    ReassociationIndices rowGroup;
    for (int64_t d : group) {
      rowGroup.push_back(int64_t(middle.size()));
      laneGroups.push_back({int64_t(middle.size())});
      middle.push_back(wide[d]);
    }
    rowGroups.push_back(rowGroup);
  }
  // Lanes: middle <-> wide, by laneGroups; rows: narrow <-> middle.
  std::optional<LaneReshape> lanes = LaneReshape::get(
      expand ? ArrayRef<int64_t>(middle) : wide,
      expand ? wide : ArrayRef<int64_t>(middle), laneGroups, expand);
  bool rowsChange = middle.size() != narrow.size();
  if (!lanes || (rowsChange && !ReshapeOp::hasBufferForm(
                                   expand ? narrow : ArrayRef<int64_t>(middle),
                                   expand ? ArrayRef<int64_t>(middle) : narrow)))
    return failure();
  rewriter.setInsertionPoint(op);
  Value value = op->getOperand(0);
  auto middleType = to.clone(middle);
  auto reshapeRows = [&](RankedTensorType type) {
    value = expand ? Value(tensor::ExpandShapeOp::create(rewriter, loc, type,
                                                         value, rowGroups))
                   : Value(tensor::CollapseShapeOp::create(rewriter, loc, type,
                                                           value, rowGroups));
  };
  if (expand && rowsChange)
    reshapeRows(middleType);
  value = lanes->build(rewriter, loc, value, expand ? to : middleType, expand);
  if (!expand && rowsChange)
    reshapeRows(to);
  return value;
}
