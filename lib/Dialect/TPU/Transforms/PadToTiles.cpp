//===- PadToTiles.cpp - Pad tpu.matmul operands to whole tiles ------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <cstdio>

namespace tpu {
#define GEN_PASS_DEF_TPUPADTOTILES
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

TilePadding tpu::getTilePadding(MatmulOp op) {
  auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
  ArrayRef<int64_t> lhs = lhsType.getShape();
  TilePadding padding;
  padding.m = lhs[lhs.size() - 2];
  padding.k = lhs.back();
  padding.n = cast<RankedTensorType>(op.getRhs().getType()).getShape().back();
  for (int64_t dim : lhs.drop_back(2))
    padding.batch *= dim;
  // Rows pad to the row blocks the MXU takes (8: a packed bf16 tile of 16
  // rows holds two, and the kernel pushes only the ones that hold rows);
  // the contraction to the MXU's depth; columns to the lanes.
  padding.paddedM = llvm::alignTo(padding.m, kSublanes);
  padding.paddedK = llvm::alignTo(padding.k, kMxuDim);
  padding.paddedN = llvm::alignTo(padding.n, kLanes);
  return padding;
}

/// `value` grown to `rows` x `cols` in its two minor dims, or `value` itself
/// when it already has that shape.
static Value resizeTo(RewriterBase &rewriter, Location loc, Value value,
                      int64_t rows, int64_t cols) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape().drop_back(2));
  shape.append({rows, cols});
  if (type.getShape() == ArrayRef<int64_t>(shape))
    return value;
  return ResizeOp::create(rewriter, loc, type.clone(shape), value, Value())
      .getResult();
}

FailureOr<MatmulOp> tpu::padMatmulToTiles(RewriterBase &rewriter, MatmulOp op) {
  TilePadding padding = getTilePadding(op);
  if (!padding.needed())
    return rewriter.notifyMatchFailure(op, "already whole tiles");
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value lhs =
      resizeTo(rewriter, loc, op.getLhs(), padding.paddedM, padding.paddedK);
  Value rhs =
      resizeTo(rewriter, loc, op.getRhs(), padding.paddedK, padding.paddedN);
  Value acc;
  if (op.getAcc())
    acc =
        resizeTo(rewriter, loc, op.getAcc(), padding.paddedM, padding.paddedN);
  auto resultType = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> paddedShape(resultType.getShape().drop_back(2));
  paddedShape.append({padding.paddedM, padding.paddedN});
  auto padded = MatmulOp::create(rewriter, loc, resultType.clone(paddedShape),
                                 lhs, rhs, acc, op.getPrecisionAttr());
  padded->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.replaceOpWithNewOp<ResizeOp>(op, resultType, padded.getResult(),
                                        Value());
  return padded;
}

namespace {

struct PadMatmulToTiles : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    return padMatmulToTiles(rewriter, op);
  }
};

std::string formatPercent(uint64_t part, uint64_t whole) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f%%",
                100.0 * double(part) / double(whole));
  return text;
}

struct PadToTilesPass : public tpu::impl::TPUPadToTilesBase<PadToTilesPass> {
  using TPUPadToTilesBase::TPUPadToTilesBase;

  void runOnOperation() override {
    uint64_t matmuls = 0, padded = 0, useful = 0, total = 0;
    getOperation().walk([&](MatmulOp op) {
      TilePadding padding = getTilePadding(op);
      ++matmuls;
      useful += padding.usefulMacs();
      total += padding.paddedMacs();
      if (!padding.needed())
        return;
      ++padded;
      if (report)
        op.emitRemark() << "tpu.matmul padded from M x K x N = " << padding.m
                        << " x " << padding.k << " x " << padding.n << " to "
                        << padding.paddedM << " x " << padding.paddedK << " x "
                        << padding.paddedN << ": "
                        << formatPercent(padding.paddedMacs() -
                                             padding.usefulMacs(),
                                         padding.paddedMacs())
                        << " of its MXU work is padding";
    });
    if (report && matmuls > 0)
      getOperation().emitRemark()
          << "tpu-pad-to-tiles: " << padded << " of " << matmuls
          << " tpu.matmul ops padded; " << useful << " useful MACs of " << total
          << " after padding (" << formatPercent(total - useful, total)
          << " padding)";

    RewritePatternSet patterns(&getContext());
    populatePadToTilesPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace

void tpu::populatePadToTilesPatterns(RewritePatternSet &patterns) {
  patterns.add<PadMatmulToTiles>(patterns.getContext());
}
