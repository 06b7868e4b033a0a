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

  Value build(OpBuilder &b, Location loc, Value source, RankedTensorType to,
              bool expand) const {
    Value transposed = createTranspose(b, loc, source, sourceOrder);
    auto type = to.clone(resultShape);
    Value reshaped =
        expand ? Value(tensor::ExpandShapeOp::create(b, loc, type, transposed,
                                                     groups))
               : Value(tensor::CollapseShapeOp::create(b, loc, type,
                                                       transposed, groups));
    // Back: result dimension d is at position resultOrder^-1[d].
    SmallVector<int64_t> back(resultOrder.size());
    for (auto [position, d] : llvm::enumerate(resultOrder))
      back[d] = int64_t(position);
    return createTranspose(b, loc, reshaped, back);
  }
};

/// A reshape that moves lanes, planned on shapes (so nothing is built for
/// one that cannot be done): when other groups change too, the rows are
/// reshaped on their own (a reshape that keeps the lanes) before the lanes
/// for an expand, after them for a collapse; a narrow side that is a
/// vector is reshaped as the 1 x n matrix it is laid out as.
struct LaneReshapePlan {
  bool expand = true;
  /// Reshaped as [1, n] <-> [1, wide...], between unit-dimension views.
  bool vector = false;
  SmallVector<ReassociationIndices> unitGroups;
  /// The wide side's dimensions, but the lanes' group merged; the rows'
  /// reshape between it and the narrow side, if it changes anything.
  SmallVector<int64_t> middle;
  SmallVector<ReassociationIndices> rowGroups;
  bool rowsChange = false;
  LaneReshape lanes;

  static std::optional<LaneReshapePlan>
  get(ArrayRef<int64_t> from, ArrayRef<int64_t> to,
      ArrayRef<ReassociationIndices> groups, bool expand) {
    ArrayRef<int64_t> wide = expand ? to : from;
    ArrayRef<int64_t> narrow = expand ? from : to;
    if (narrow.size() == 1) {
      SmallVector<int64_t> unitNarrow = {1, narrow[0]};
      SmallVector<int64_t> unitWide = {1};
      llvm::append_range(unitWide, wide);
      SmallVector<ReassociationIndices> matrixGroups = {
          {0}, llvm::to_vector(llvm::seq<int64_t>(1, unitWide.size()))};
      std::optional<LaneReshapePlan> plan =
          get(expand ? unitNarrow : unitWide, expand ? unitWide : unitNarrow,
              matrixGroups, expand);
      if (!plan)
        return std::nullopt;
      plan->vector = true;
      plan->unitGroups = {{0, 1}};
      for (int64_t d = 2, e = int64_t(unitWide.size()); d < e; ++d)
        plan->unitGroups.push_back({d});
      return plan;
    }
    LaneReshapePlan plan;
    plan.expand = expand;
    SmallVector<ReassociationIndices> laneGroups;
    for (auto [i, group] : llvm::enumerate(groups)) {
      int64_t first = int64_t(plan.middle.size());
      if (i + 1 == groups.size()) {
        plan.middle.push_back(narrow.back());
        plan.rowGroups.push_back({first});
        laneGroups.push_back(llvm::to_vector(
            llvm::seq<int64_t>(first, first + int64_t(group.size()))));
        continue;
      }
      ReassociationIndices rowGroup;
      for (int64_t d : group) {
        rowGroup.push_back(int64_t(plan.middle.size()));
        laneGroups.push_back({int64_t(plan.middle.size())});
        plan.middle.push_back(wide[d]);
      }
      plan.rowGroups.push_back(rowGroup);
    }
    // Lanes: middle <-> wide by laneGroups; rows: narrow <-> middle.
    std::optional<LaneReshape> lanes = LaneReshape::get(
        expand ? ArrayRef<int64_t>(plan.middle) : wide,
        expand ? wide : ArrayRef<int64_t>(plan.middle), laneGroups, expand);
    plan.rowsChange = plan.middle.size() != narrow.size();
    if (!lanes ||
        (plan.rowsChange &&
         !ReshapeOp::hasBufferForm(
             expand ? narrow : ArrayRef<int64_t>(plan.middle),
             expand ? ArrayRef<int64_t>(plan.middle) : narrow)))
      return std::nullopt;
    plan.lanes = *lanes;
    return plan;
  }

  Value build(OpBuilder &b, Location loc, Value value,
              RankedTensorType to) const {
    auto reshape = [&](Value source, RankedTensorType type,
                       ArrayRef<ReassociationIndices> groups,
                       bool grow) -> Value {
      if (grow)
        return tensor::ExpandShapeOp::create(b, loc, type, source, groups);
      return tensor::CollapseShapeOp::create(b, loc, type, source, groups);
    };
    if (vector) {
      // [n] -> [1, n] for an expand, wide -> [1, wide...] for a collapse;
      // the plan; and back.
      auto from = cast<RankedTensorType>(value.getType());
      SmallVector<int64_t> unitFrom = {1};
      llvm::append_range(unitFrom, from.getShape());
      SmallVector<int64_t> unitTo = {1};
      llvm::append_range(unitTo, to.getShape());
      SmallVector<ReassociationIndices> vectorGroups = {{0, 1}};
      value = reshape(value, from.clone(unitFrom),
                      expand ? vectorGroups : unitGroups, true);
      LaneReshapePlan matrix = *this;
      matrix.vector = false;
      value = matrix.build(b, loc, value, to.clone(unitTo));
      return reshape(value, to, expand ? unitGroups : vectorGroups, false);
    }
    auto middleType = to.clone(middle);
    if (expand && rowsChange)
      value = reshape(value, middleType, rowGroups, true);
    value = lanes.build(b, loc, value, expand ? to : middleType, expand);
    if (!expand && rowsChange)
      value = reshape(value, to, rowGroups, false);
    return value;
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
  std::optional<LaneReshapePlan> plan =
      LaneReshapePlan::get(from.getShape(), to.getShape(), groups, expand);
  if (!plan)
    return failure();
  rewriter.setInsertionPoint(op);
  return plan->build(rewriter, op->getLoc(), op->getOperand(0), to);
}
