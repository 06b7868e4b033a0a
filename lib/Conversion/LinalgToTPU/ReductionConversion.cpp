//===- ReductionConversion.cpp - Reductions to tpu.reduce -----------------===//
//
// A linalg.reduce, or a reduction linalg.generic (an identity input map,
// an init map that drops the reduced loops), with an addf, maximumf,
// minimumf, maxnumf or minnumf body and a constant-filled init: over the
// last dimension it becomes tpu.reduce, whose result keeps the reduced
// dimension as 1 (a column), over the second-to-last tpu.reduce_columns
// (a row), either then tpu.reshape to the linalg result's shape; over
// leading dimensions, tpu.reduce_matrices.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tpu;

namespace {

/// The reduction the body is, or why it is none the VPU has. The body's
/// arguments are the element and the accumulator.
FailureOr<ReductionKind> getKind(Block &body, std::string &why) {
  auto ops = body.without_terminator();
  // One op, of the element and the accumulator (in either order), yielded.
  Operation *combiner = ops.empty() ? nullptr : &*ops.begin();
  if (!combiner || std::next(ops.begin()) != ops.end() ||
      body.getTerminator()->getOperand(0) != combiner->getResult(0) ||
      combiner->getNumOperands() != 2 ||
      !llvm::is_contained(combiner->getOperands(), body.getArgument(0)) ||
      !llvm::is_contained(combiner->getOperands(), body.getArgument(1))) {
    why = "its body must be one arith.addf, arith.maximumf, arith.minimumf, "
          "arith.maxnumf or arith.minnumf of its two arguments";
    return failure();
  }
  if (isa<arith::AddFOp>(combiner))
    return ReductionKind::Sum;
  if (isa<arith::MaximumFOp>(combiner))
    return ReductionKind::Max;
  if (isa<arith::MinimumFOp>(combiner))
    return ReductionKind::Min;
  if (isa<arith::MaxNumFOp>(combiner))
    return ReductionKind::MaxNum;
  if (isa<arith::MinNumFOp>(combiner))
    return ReductionKind::MinNum;
  why = "its body holds '" + combiner->getName().getStringRef().str() +
        "'; the VPU reduces with arith.addf, arith.maximumf, "
        "arith.minimumf, arith.maxnumf and arith.minnumf";
  return failure();
}

} // namespace

FailureOr<Operation *> tpu::convertReduction(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "cannot convert this '" << op->getName()
                          << "' to the TPU: " << why;
  };
  if (!op.hasPureTensorSemantics())
    return fail("it operates on buffers; the TPU compiler takes linalg on "
                "tensors");
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return fail(Twine(op.getNumDpsInputs()) + " inputs and " +
                Twine(op.getNumDpsInits()) + " inits; one each is supported");
  Value input = op.getDpsInputOperand(0)->get();
  auto type = cast<RankedTensorType>(input.getType());
  if (!type.hasStaticShape() || !type.getElementType().isF32())
    return fail("it reduces a static f32 tensor only");
  int64_t rank = type.getRank();
  SmallVector<unsigned> reduced;
  op.getReductionDims(reduced);
  // The input indexed by the loops, the init by the loops kept (what
  // linalg.reduce means by construction).
  AffineMap inputMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap initMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> kept;
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (!llvm::is_contained(reduced, d))
      kept.push_back(d);
  if (!inputMap.isIdentity() ||
      initMap != AffineMap::getMultiDimMapWithTargets(
                     op.getNumLoops(), kept, op.getContext()))
    return fail("its input map must be the identity and its init map the "
                "loops it keeps, in order");
  bool lastOnly = reduced == ArrayRef<unsigned>{unsigned(rank - 1)};
  bool columnsOnly =
      rank >= 2 && reduced == ArrayRef<unsigned>{unsigned(rank - 2)};
  bool leadingOnly = !reduced.empty() && llvm::all_of(reduced, [&](unsigned d) {
    return int64_t(d) + 2 < rank;
  });
  if (!lastOnly && !columnsOnly && !leadingOnly)
    return fail("it reduces one of the last two dimensions, or leading "
                "dimensions (neither of the last two); not a mix of them");
  std::string why;
  FailureOr<ReductionKind> kind = getKind(*op.getBlock(), why);
  if (failed(kind))
    return fail(why);
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  FloatAttr init;
  if (fill)
    if (auto constant = fill.getInputs()[0].getDefiningOp<arith::ConstantOp>())
      init = dyn_cast<FloatAttr>(constant.getValue());
  if (!init)
    return fail("its init must be a linalg.fill of a float constant");
  // An f32 init keeps its bits (a NaN's sign and payload too).
  if (!init.getType().isF32())
    init = rewriter.getF32FloatAttr(float(init.getValueAsDouble()));
  auto kindAttr = ReductionKindAttr::get(rewriter.getContext(), *kind);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());

  if (leadingOnly) {
    rewriter.setInsertionPoint(op);
    SmallVector<int64_t> dims(reduced.begin(), reduced.end());
    Operation *reduce = rewriter.replaceOpWithNewOp<ReduceMatricesOp>(
        op, resultType, input, Value(), rewriter.getDenseI64ArrayAttr(dims),
        kindAttr, init);
    return reduce;
  }
  // The reduced dimension kept as 1 (a column of rows' values, or a row of
  // columns' values), then the linalg result's shape.
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> keptShape(type.getShape());
  keptShape[reduced.front()] = 1;
  Operation *reduce =
      lastOnly ? ReduceOp::create(rewriter, op.getLoc(), type.clone(keptShape),
                                  input, Value(), kindAttr, init)
                     .getOperation()
               : ReduceColumnsOp::create(rewriter, op.getLoc(),
                                         type.clone(keptShape), input, Value(),
                                         kindAttr, init)
                     .getOperation();
  rewriter.replaceOpWithNewOp<ReshapeOp>(op, resultType, reduce->getResult(0),
                                         Value());
  return reduce;
}

bool tpu::isReduction(Operation *op) {
  if (isa<linalg::ReduceOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() > 0;
}
