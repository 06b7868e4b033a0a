//===- ReductionConversion.cpp - linalg.reduce to tpu.reduce --------------===//
//
// A reduction over the last dimension with an add, maximumf or minimumf
// body and a constant-filled init becomes tpu.reduce, whose result keeps
// the reduced dimension as 1 (a column), then tpu.reshape to the linalg
// result's shape.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tpu;

namespace {

/// The reduction the body is, or why it is none the VPU has.
FailureOr<ReductionKind> getKind(linalg::ReduceOp op, std::string &why) {
  Block &body = op.getCombiner().front();
  auto ops = body.without_terminator();
  // One op, of the element and the accumulator (in either order), yielded.
  Operation *combiner = ops.empty() ? nullptr : &*ops.begin();
  if (!combiner || std::next(ops.begin()) != ops.end() ||
      body.getTerminator()->getOperand(0) != combiner->getResult(0) ||
      combiner->getNumOperands() != 2 ||
      !llvm::is_contained(combiner->getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(combiner->getOperands(), body.getArgument(1))) {
    why = "its body must be one arith.addf, arith.maximumf or arith.minimumf "
          "of its two arguments";
    return failure();
  }
  if (isa<arith::AddFOp>(combiner))
    return ReductionKind::Sum;
  if (isa<arith::MaximumFOp>(combiner))
    return ReductionKind::Max;
  if (isa<arith::MinimumFOp>(combiner))
    return ReductionKind::Min;
  if (isa<arith::MaxNumFOp, arith::MinNumFOp>(combiner)) {
    why = "'" + combiner->getName().getStringRef().str() +
          "' ignores NaN, and the VPU's max and min propagate it; use "
          "arith.maximumf or arith.minimumf";
    return failure();
  }
  why = "its body holds '" + combiner->getName().getStringRef().str() +
        "'; the VPU reduces with arith.addf, arith.maximumf and "
        "arith.minimumf";
  return failure();
}

} // namespace

FailureOr<ReduceOp> tpu::convertReduce(RewriterBase &rewriter,
                                       linalg::ReduceOp op) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "cannot convert this 'linalg.reduce' to the TPU: "
                          << why;
  };
  if (!op.hasPureTensorSemantics())
    return fail("it operates on buffers; the TPU compiler takes linalg on "
                "tensors");
  if (op.getNumDpsInputs() != 1)
    return fail(Twine(op.getNumDpsInputs()) + " inputs; one is supported");
  auto type = cast<RankedTensorType>(op.getInputs()[0].getType());
  if (!type.hasStaticShape() || !type.getElementType().isF32())
    return fail("it reduces a static f32 tensor only");
  int64_t rank = type.getRank();
  if (op.getDimensions() != ArrayRef<int64_t>{rank - 1})
    return fail("only the last dimension can be reduced yet");
  if (rank > 2)
    return fail("a reduction of a rank > 2 tensor is not supported yet (its "
                "result's layout needs a relayout)");
  std::string why;
  FailureOr<ReductionKind> kind = getKind(op, why);
  if (failed(kind))
    return fail(why);
  auto fill = op.getInits()[0].getDefiningOp<linalg::FillOp>();
  FloatAttr init;
  if (fill)
    if (auto constant = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
      init = dyn_cast<FloatAttr>(constant.getValue());
  if (!init)
    return fail("its init must be a linalg.fill of a float constant");

  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> columnShape(type.getShape());
  columnShape.back() = 1;
  auto reduce = ReduceOp::create(
      rewriter, op.getLoc(), type.clone(columnShape), op.getInputs()[0],
      Value(), ReductionKindAttr::get(rewriter.getContext(), *kind),
      rewriter.getF32FloatAttr(float(init.getValueAsDouble())));
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType, reduce.getResult(),
                                         Value());
  return reduce;
}
