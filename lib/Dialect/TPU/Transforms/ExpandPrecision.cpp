//===- ExpandPrecision.cpp - tpu.matmul into bf16 MXU passes --------------===//
//
// docs/Numerics.md as IR: HIGH and HIGHEST split each f32 operand into bf16
// parts and sum the products of the parts, smallest first, in a NaN-fixed
// group, then add hi x hi. The term lists here fix the summation order that
// the reference model (tpu/Reference/MatmulReference.h) follows.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "tpu/Support/BF16.h"

namespace tpu {
#define GEN_PASS_DEF_TPUEXPANDPRECISION
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// The parts of a split operand, by significance. Absent parts are known zero.
enum Part { Hi = 0, Mid = 1, Lo = 2 };

/// The terms of each precision as (lhs part, rhs part): the NaN-fixed group,
/// smallest first, then the main group (hi x hi).
struct TermList {
  ArrayRef<std::pair<Part, Part>> small;
  std::pair<Part, Part> main;
};

constexpr std::pair<Part, Part> kHighSmall[] = {{Lo, Hi}, {Hi, Lo}};
constexpr std::pair<Part, Part> kHighestSmall[] = {
    {Mid, Mid}, {Lo, Hi}, {Hi, Lo}, {Mid, Hi}, {Hi, Mid}};

TermList getTerms(Precision precision) {
  switch (precision) {
  case Precision::Default:
    return {{}, {Hi, Hi}};
  case Precision::High:
    return {kHighSmall, {Hi, Hi}};
  case Precision::Highest:
    return {kHighestSmall, {Hi, Hi}};
  }
  llvm_unreachable("unknown precision");
}

/// `value` without the zero padding tpu-pad-to-tiles adds (a tpu.resize
/// that grows its source).
Value stripZeroPadding(Value value) {
  while (auto resize = value.getDefiningOp<ResizeOp>()) {
    ArrayRef<int64_t> from =
        cast<ShapedType>(resize.getSource().getType()).getShape();
    ArrayRef<int64_t> to = cast<ShapedType>(resize.getType(0)).getShape();
    if (!llvm::all_of(llvm::zip(from, to), [](auto dims) {
          return std::get<0>(dims) <= std::get<1>(dims);
        }))
      break;
    value = resize.getSource();
  }
  return value;
}

/// Whether `op` is arith.extf of a bf16 tensor, as tpu-convert-linalg makes
/// it: one bf16 input, a body that extends it and yields the result.
bool isBF16Extension(ElementwiseOp op) {
  if (op.getInputs().size() != 1 ||
      !getElementTypeOrSelf(op.getInputs()[0].getType()).isBF16())
    return false;
  Block &body = op.getBody().front();
  auto ext = dyn_cast<arith::ExtFOp>(&body.front());
  return ext && ext.getIn() == body.getArgument(0) &&
         body.getTerminator()->getOperand(0) == ext.getResult();
}

/// Whether every element of `value` is known to be a bf16 value: a bf16
/// tensor, an f32 extended from one, or a constant of bf16-exact values
/// (looking through zero padding).
bool isBF16Exact(Value value) {
  value = stripZeroPadding(value);
  if (getElementTypeOrSelf(value.getType()).isBF16())
    return true;
  if (auto ext = value.getDefiningOp<ElementwiseOp>())
    return isBF16Extension(ext);
  DenseFPElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return llvm::all_of(constant.getValues<float>(),
                        [](float x) { return tpu::isBF16Exact(x); });
  return false;
}

/// The parts of `operand` a split at `precision` gives, indexed by Part;
/// null for parts known to be zero.
SmallVector<Value, 3> getParts(RewriterBase &rewriter, Location loc,
                               Value operand, Precision precision,
                               Rounding rounding) {
  SmallVector<Value, 3> parts = {operand, nullptr, nullptr};
  if (precision == Precision::Default || isBF16Exact(operand))
    return parts;
  auto type = cast<RankedTensorType>(operand.getType());
  auto partType = type.clone(rewriter.getBF16Type());
  unsigned count = precision == Precision::High ? 2 : 3;
  auto splitOp = SplitOp::create(
      rewriter, loc, SmallVector<Type>(count, partType), operand, ValueRange(),
      RoundingAttr::get(rewriter.getContext(), rounding));
  parts[Hi] = splitOp.getParts()[0];
  if (count == 2) {
    parts[Lo] = splitOp.getParts()[1];
  } else {
    parts[Mid] = splitOp.getParts()[1];
    parts[Lo] = splitOp.getParts()[2];
  }
  return parts;
}

/// M x N x K (times the batch) of the matmul before padding, or what the
/// op says its useful MACs are (a convolution's padded channels are not).
int64_t getUsefulMacs(MatmulOp op) {
  if (auto macs =
          op->getAttrOfType<IntegerAttr>(TPUDialect::getUsefulMacsAttrName()))
    return macs.getInt();
  auto shapeOf = [](Value v) {
    return cast<ShapedType>(stripZeroPadding(v).getType()).getShape();
  };
  ArrayRef<int64_t> lhs = shapeOf(op.getLhs()), rhs = shapeOf(op.getRhs());
  // Either side's K may be the padded one; the smaller is the product's.
  int64_t k = std::min(lhs.back(), rhs[rhs.size() - 2]);
  int64_t macs = lhs[lhs.size() - 2] * k * rhs.back();
  for (int64_t dim : lhs.drop_back(2))
    macs *= dim;
  return macs;
}

struct ExpandMatmulPrecision : public OpRewritePattern<MatmulOp> {
  ExpandMatmulPrecision(MLIRContext *context, Precision fallback,
                        Rounding split)
      : OpRewritePattern(context), fallback(fallback), split(split) {}

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    return expandMatmulPrecision(rewriter, op, fallback, split);
  }

  Precision fallback;
  Rounding split;
};

struct ExpandPrecisionPass
    : public tpu::impl::TPUExpandPrecisionBase<ExpandPrecisionPass> {
  using TPUExpandPrecisionBase::TPUExpandPrecisionBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandPrecisionPatterns(patterns, defaultPrecision, split);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

FailureOr<MatmulPassesOp> tpu::expandMatmulPrecision(RewriterBase &rewriter,
                                                     MatmulOp op,
                                                     Precision fallback,
                                                     Rounding split) {
  Precision precision = op.getPrecision() ? *op.getPrecision() : fallback;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value, 3> lhsParts =
      getParts(rewriter, loc, op.getLhs(), precision, split);
  SmallVector<Value, 3> rhsParts =
      getParts(rewriter, loc, op.getRhs(), precision, split);

  TermList terms = getTerms(precision);
  SmallVector<Value> lhs, rhs;
  auto addTerm = [&](std::pair<Part, Part> term) {
    Value l = lhsParts[term.first], r = rhsParts[term.second];
    if (!l || !r)
      return; // a part known to be zero
    lhs.push_back(l);
    rhs.push_back(r);
  };
  for (std::pair<Part, Part> term : terms.small)
    addTerm(term);
  int64_t nanFixed = int64_t(lhs.size());
  addTerm(terms.main);

  unsigned full = 1 + unsigned(terms.small.size());
  if (lhs.size() < full) {
    bool lhsExact = !lhsParts[Lo], rhsExact = !rhsParts[Lo];
    StringRef which = lhsExact && rhsExact ? "lhs and rhs are"
                      : lhsExact           ? "lhs is"
                                           : "rhs is";
    op.emitRemark() << "tpu-expand-precision: " << stringifyPrecision(precision)
                    << " matmul takes " << lhs.size() << " MXU pass"
                    << (lhs.size() == 1 ? "" : "es") << " instead of " << full
                    << ": " << which << " bf16-exact";
  }

  auto passes =
      MatmulPassesOp::create(rewriter, loc, op.getType(), lhs, rhs, op.getAcc(),
                             ValueRange(), Value(),
                             rewriter.getI64IntegerAttr(nanFixed),
                             /*lhs_parts=*/nullptr, /*rhs_parts=*/nullptr,
                             /*split=*/nullptr);
  passes->setAttr(
      TPUDialect::getUsefulMacsAttrName(),
      rewriter.getI64IntegerAttr(getUsefulMacs(op) * int64_t(lhs.size())));
  rewriter.replaceOp(op, passes.getResult());
  return passes;
}

void tpu::populateExpandPrecisionPatterns(RewritePatternSet &patterns,
                                          Precision fallback, Rounding split) {
  patterns.add<ExpandMatmulPrecision>(patterns.getContext(), fallback, split);
}
