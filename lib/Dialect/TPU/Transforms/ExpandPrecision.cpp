//===- ExpandPrecision.cpp - tpu.matmul into bf16 MXU passes --------------===//
//
// DESIGN.md 4 as IR: HIGH and HIGHEST split each f32 operand into bf16 parts
// and sum the products of the parts, smallest first, in a NaN-fixed group,
// then add hi x hi. The term lists here fix the summation order that the
// reference model (tpu/Reference/MatmulReference.h) follows.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
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

/// `value` without the zero padding tpu-pad-to-tiles adds.
Value stripZeroPadding(Value value) {
  while (auto pad = value.getDefiningOp<tensor::PadOp>()) {
    if (!matchPattern(pad.getConstantPaddingValue(), m_AnyZeroFloat()))
      break;
    value = pad.getSource();
  }
  return value;
}

/// Whether every element of `value` is known to be a bf16 value: a bf16
/// tensor, an f32 extended from one, or a constant of bf16-exact values
/// (looking through zero padding).
bool isBF16Exact(Value value) {
  value = stripZeroPadding(value);
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType().isBF16())
    return true;
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return mlir::getElementTypeOrSelf(ext.getIn().getType()).isBF16();
  DenseFPElementsAttr constant;
  if (matchPattern(value, m_Constant(&constant)))
    return llvm::all_of(constant.getValues<float>(),
                        [](float x) { return tpu::isBF16Exact(x); });
  return false;
}

struct ExpandPrecisionPass
    : public tpu::impl::TPUExpandPrecisionBase<ExpandPrecisionPass> {
  using TPUExpandPrecisionBase::TPUExpandPrecisionBase;

  void runOnOperation() override {
    FailureOr<Precision> fallback = parsePrecisionOption(
        getOperation(), "tpu-expand-precision", defaultPrecision);
    if (failed(fallback))
      return signalPassFailure();
    std::optional<Rounding> rounding = symbolizeRounding(split);
    if (!rounding) {
      getOperation()->emitError()
          << "tpu-expand-precision: unknown split rounding '" << split
          << "'; expected rne (round to nearest even) or trunc";
      return signalPassFailure();
    }
    getOperation()->walk(
        [&](MatmulOp op) { expand(op, *fallback, *rounding); });
  }

  /// The parts of `operand` a split at `precision` gives, indexed by Part;
  /// null for parts known to be zero.
  SmallVector<Value, 3> getParts(OpBuilder &builder, Location loc,
                                 Value operand, Precision precision,
                                 Rounding rounding) {
    SmallVector<Value, 3> parts = {operand, nullptr, nullptr};
    if (precision == Precision::Default || isBF16Exact(operand))
      return parts;
    auto type = cast<RankedTensorType>(operand.getType());
    auto partType = type.clone(builder.getBF16Type());
    unsigned count = precision == Precision::High ? 2 : 3;
    auto splitOp = SplitOp::create(
        builder, loc, SmallVector<Type>(count, partType), operand,
        RoundingAttr::get(builder.getContext(), rounding));
    parts[Hi] = splitOp.getParts()[0];
    if (count == 2) {
      parts[Lo] = splitOp.getParts()[1];
    } else {
      parts[Mid] = splitOp.getParts()[1];
      parts[Lo] = splitOp.getParts()[2];
    }
    return parts;
  }

  void expand(MatmulOp op, Precision fallback, Rounding rounding) {
    Precision precision = op.getPrecision() ? *op.getPrecision() : fallback;
    OpBuilder builder(op);
    Location loc = op.getLoc();
    SmallVector<Value, 3> lhsParts =
        getParts(builder, loc, op.getLhs(), precision, rounding);
    SmallVector<Value, 3> rhsParts =
        getParts(builder, loc, op.getRhs(), precision, rounding);

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
      std::string which;
      bool lhsExact = !lhsParts[Lo], rhsExact = !rhsParts[Lo];
      which = lhsExact && rhsExact ? "lhs and rhs are"
              : lhsExact           ? "lhs is"
                                   : "rhs is";
      op.emitRemark() << "tpu-expand-precision: "
                      << stringifyPrecision(precision) << " matmul takes "
                      << lhs.size() << " MXU pass"
                      << (lhs.size() == 1 ? "" : "es") << " instead of " << full
                      << ": " << which << " bf16-exact";
    }

    auto passes = MatmulPassesOp::create(builder, loc, op.getType(), lhs, rhs,
                                         op.getAcc(),
                                         builder.getI64IntegerAttr(nanFixed));
    passes->setAttr(
        TPUDialect::getUsefulMacsAttrName(),
        builder.getI64IntegerAttr(getUsefulMacs(op) * int64_t(lhs.size())));
    op.replaceAllUsesWith(passes.getResult());
    op.erase();
  }

  /// M x N x K (times the batch) of the matmul before padding.
  static int64_t getUsefulMacs(MatmulOp op) {
    ArrayRef<int64_t> lhs =
        cast<RankedTensorType>(stripZeroPadding(op.getLhs()).getType())
            .getShape();
    ArrayRef<int64_t> rhs =
        cast<RankedTensorType>(stripZeroPadding(op.getRhs()).getType())
            .getShape();
    // Either side's K may be the padded one; the smaller is the product's.
    int64_t k = std::min(lhs.back(), rhs[rhs.size() - 2]);
    int64_t macs = lhs[lhs.size() - 2] * k * rhs.back();
    for (int64_t dim : lhs.drop_back(2))
      macs *= dim;
    return macs;
  }
};

} // namespace
