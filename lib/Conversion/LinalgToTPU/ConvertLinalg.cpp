//===- ConvertLinalg.cpp - The tpu-convert-linalg pass --------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"
#include "tpu/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tpu {
#define GEN_PASS_DEF_TPUCONVERTLINALG
#include "tpu/Conversion/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

struct ConvertMatmul : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  ConvertMatmul(MLIRContext *context, Precision defaultPrecision)
      : OpInterfaceRewritePattern(context), defaultPrecision(defaultPrecision) {
  }
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isMatmulLike(op))
      return failure();
    return convertMatmul(rewriter, op, defaultPrecision);
  }
  Precision defaultPrecision;
};

struct ConvertConvolution
    : public OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  ConvertConvolution(MLIRContext *context, Precision defaultPrecision)
      : OpRewritePattern(context), defaultPrecision(defaultPrecision) {}
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rewriter) const override {
    return convertConvolution(rewriter, op, defaultPrecision);
  }
  Precision defaultPrecision;
};

struct ConvertPooling : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!isWindowOp(op) || isa<linalg::Conv2DNhwcHwcfOp>(op))
      return failure();
    return convertPooling(rewriter, op);
  }
};

struct ConvertPad : public OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    return convertPad(rewriter, op);
  }
};

/// Named elementwise ops (linalg.add, linalg.elementwise, ...) become the
/// linalg.generic they stand for, then tpu.elementwise.
struct ConvertElementwise : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isMatmulLike(op) || isWindowOp(op) ||
        isa<linalg::FillOp, linalg::BroadcastOp, linalg::TransposeOp>(op) ||
        !linalg::isElementwise(op))
      return failure();
    auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (generic)
      return convertElementwise(rewriter, generic);
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generalized))
      return failure();
    // The named op is gone: a pattern that changed the IR must succeed,
    // and a conversion that failed has said why on the generic.
    (void)convertElementwise(rewriter, *generalized);
    return success();
  }
};

struct ConvertBroadcast : public OpRewritePattern<linalg::BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    return convertBroadcast(rewriter, op);
  }
};

/// linalg.reduce, and linalg.generic with reduction loops.
struct ConvertReduction : public OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (isMatmulLike(op) || isWindowOp(op) || !isReduction(op))
      return failure();
    return convertReduction(rewriter, op);
  }
};

/// tensor.expand_shape and tensor.collapse_shape.
template <typename Op>
struct ConvertReshape : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    return convertReshape(rewriter, op);
  }
};


/// An op that stands for several becomes what upstream decomposes it into,
/// which the patterns above then convert: linalg.softmax (a maxnumf
/// reduction from NaN, exp of the difference, a sum, a division), and
/// tensor.concat (inserts of its operands into a tensor.empty).
template <typename Op>
struct Decompose : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
};


/// A reshape or slice that moves lanes becomes transposes around steps on
/// rows (decomposeLaneReshape, decomposeLaneSlice), when it can.
template <typename Op>
struct DecomposeRelayout : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> result;
    if constexpr (std::is_same_v<Op, tensor::ExtractSliceOp> ||
                  std::is_same_v<Op, tensor::InsertSliceOp>)
      result = decomposeLaneSlice(rewriter, op);
    else
      result = decomposeLaneReshape(rewriter, op);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// A transpose of a transpose is one (or none), so the transposes that
/// move lanes for a reshape and those of the program cancel where they
/// can: the head split of attention (expand the lanes, swap the heads in
/// front) becomes one transpose before and one after a reshape of rows.
struct ComposeTransposes : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        !op.getInput().getDefiningOp<linalg::TransposeOp>() ||
        !op.getInput().getType().hasStaticShape())
      return failure();
    rewriter.setInsertionPoint(op);
    rewriter.replaceOp(op, createTranspose(rewriter, op.getLoc(),
                                           op.getInput(), op.getPermutation()));
    return success();
  }
};

struct ConvertExtractSlice : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    return convertExtractSlice(rewriter, op);
  }
};

struct ConvertInsertSlice : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    return convertInsertSlice(rewriter, op);
  }
};

struct ConvertTranspose : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    return convertTranspose(rewriter, op);
  }
};

/// arith and math on tensors become elementwise linalg.generic, with
/// upstream's patterns (those of convert-elementwise-to-linalg) but
/// without folding: arith's folds are IEEE's (x * 1 is x), and the VPU's
/// arithmetic is not (it flushes subnormals and makes NaNs canonical), so
/// x * 1 must stay a v.mul (docs/Numerics.md).
LogicalResult convertElementwiseToLinalg(Operation *root) {
  MLIRContext *context = root->getContext();
  ConversionTarget target(*context);
  target.markUnknownOpDynamicallyLegal([](Operation *op) {
    return !OpTrait::hasElementwiseMappableTraits(op) ||
           llvm::none_of(op->getOperandTypes(), llvm::IsaPred<RankedTensorType>);
  });
  RewritePatternSet patterns(context);
  linalg::populateElementwiseToLinalgConversionPatterns(patterns);
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  return applyPartialConversion(root, target, std::move(patterns), config);
}

struct ConvertLinalgPass
    : public tpu::impl::TPUConvertLinalgBase<ConvertLinalgPass> {
  using TPUConvertLinalgBase::TPUConvertLinalgBase;

  void runOnOperation() override {
    if (failed(convertElementwiseToLinalg(getOperation())))
      return signalPassFailure();
    // Ops that stand for several first (the walk does not visit what a
    // pattern creates).
    RewritePatternSet decompositions(&getContext());
    decompositions.add<Decompose<linalg::SoftmaxOp>,
                       Decompose<tensor::ConcatOp>>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(decompositions));
    // Then what moves lanes, as transposes around steps on rows (the
    // inserts a concat became included).
    RewritePatternSet relayouts(&getContext());
    relayouts.add<DecomposeRelayout<tensor::ExpandShapeOp>,
                  DecomposeRelayout<tensor::CollapseShapeOp>,
                  DecomposeRelayout<tensor::ExtractSliceOp>,
                  DecomposeRelayout<tensor::InsertSliceOp>, ComposeTransposes>(
        &getContext());
    walkAndApplyPatterns(getOperation(), std::move(relayouts));
    // Transposes a composition replaced are dead (the walk erases only
    // what it visits), and so are their inits.
    SmallVector<Operation *> dead;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (op.hasPureTensorSemantics() && op->use_empty())
        dead.push_back(op);
    });
    for (Operation *op : dead) {
      Value init = op->getOperand(1);
      op->erase();
      if (Operation *empty = init.getDefiningOp<tensor::EmptyOp>();
          empty && empty->use_empty())
        empty->erase();
    }
    RewritePatternSet patterns(&getContext());
    populateLinalgToTPUPatterns(patterns, defaultPrecision);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    // Pads the convolutions and poolings folded in are dead now (the walk
    // erases only what it visits).
    getOperation().walk([](tensor::PadOp pad) {
      if (pad->use_empty())
        pad.erase();
    });

    // What is left did not convert: say why, once per op (the conversions
    // have said why for the ops they tried).
    bool failedToConvert = false;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp>(op))
        return;
      failedToConvert = true;
      if (!isMatmulLike(op) && !isWindowOp(op) &&
          !linalg::isElementwise(op) && !isReduction(op) &&
          !isa<linalg::BroadcastOp, linalg::TransposeOp>(op))
        op.emitError() << "'" << op->getName()
                       << "' is not supported by the TPU compiler; it takes "
                          "linalg.matmul, linalg.batch_matmul and "
                          "linalg.matvec (with linalg.fill inits), "
                          "linalg.conv_2d_nhwc_hwcf, "
                          "linalg.pooling_nhwc_max, _min and _sum, "
                          "linalg.broadcast, linalg.reduce (and reduction "
                          "linalg.generic) over one of the last two "
                          "dimensions or leading ones, linalg.softmax, "
                          "linalg.transpose, and elementwise ops "
                          "(linalg.generic and the named ones) the VPU "
                          "can run";
    });
    // A reshape or pad left has said why (a pad the convolutions that
    // failed would have folded: they have).
    getOperation().walk([&](Operation *op) {
      if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::PadOp,
              tensor::ExtractSliceOp, tensor::InsertSliceOp>(op))
        failedToConvert = true;
    });
    if (failedToConvert)
      return signalPassFailure();
    // Zero fills that fed only converted matmuls are dead now.
    getOperation().walk([](linalg::FillOp fill) {
      if (fill->use_empty())
        fill.erase();
    });
  }
};

} // namespace

void tpu::populateLinalgToTPUPatterns(RewritePatternSet &patterns,
                                      Precision defaultPrecision) {
  patterns.add<ConvertMatmul, ConvertConvolution>(patterns.getContext(),
                                                 defaultPrecision);
  patterns.add<ConvertElementwise, ConvertBroadcast, ConvertReduction,
               ConvertPooling, ConvertPad, ConvertExtractSlice,
               ConvertInsertSlice,
               ConvertTranspose, ConvertReshape<tensor::ExpandShapeOp>,
               ConvertReshape<tensor::CollapseShapeOp>>(patterns.getContext());
}
