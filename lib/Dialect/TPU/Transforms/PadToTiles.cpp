//===- PadToTiles.cpp - Pad tpu.matmul operands to whole tiles ------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "llvm/Support/MathExtras.h"

#include <cstdio>

namespace tpu {
#define GEN_PASS_DEF_TPUPADTOTILES
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// `value` padded with zeros at the high end to `shape`, or `value` itself
/// when it already has that shape.
Value padTo(OpBuilder &builder, Location loc, Value value,
            ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  auto padded = RankedTensorType::get(shape, type.getElementType());
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getZeroAttr(type.getElementType()));
  return tensor::createPadHighOp(padded, value, zero, /*nofold=*/false, loc,
                                 builder);
}

struct PadToTilesPass : public tpu::impl::TPUPadToTilesBase<PadToTilesPass> {
  using TPUPadToTilesBase::TPUPadToTilesBase;

  void runOnOperation() override {
    Totals totals;
    getOperation()->walk([&](MatmulOp op) { pad(op, totals); });
    numPadded += totals.padded;
    usefulMacs += totals.usefulMacs;
    paddedMacs += totals.paddedMacs;
    // The same numbers as the statistics, which an LLVM built without
    // LLVM_ENABLE_STATS (Debian's, for one) cannot show.
    if (report && totals.matmuls > 0)
      getOperation()->emitRemark()
          << "tpu-pad-to-tiles: " << totals.padded << " of " << totals.matmuls
          << " tpu.matmul ops padded; " << totals.usefulMacs
          << " useful MACs of " << totals.paddedMacs << " after padding ("
          << formatPercent(totals.paddedMacs - totals.usefulMacs,
                           totals.paddedMacs)
          << " padding)";
  }

  struct Totals {
    uint64_t matmuls = 0, padded = 0, usefulMacs = 0, paddedMacs = 0;
  };

  static std::string formatPercent(uint64_t part, uint64_t whole) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f%%",
                  100.0 * double(part) / double(whole));
    return text;
  }

  void pad(MatmulOp op, Totals &totals) {
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    ArrayRef<int64_t> lhs = lhsType.getShape();
    size_t rank = lhs.size();
    int64_t m = lhs[rank - 2], k = lhs[rank - 1];
    int64_t n = rhsType.getShape()[rank - 1];
    int64_t batch = 1;
    for (int64_t dim : lhs.drop_back(2))
      batch *= dim;
    // Rows pad to the LHS's native tile (two bf16 rows share a word);
    // the contraction to the MXU's depth; columns to the lanes.
    int64_t rowTile =
        TiledLayoutAttr::getNative(lhsType.getElementType()).getTile()[0];
    int64_t mp = llvm::alignTo(m, rowTile);
    int64_t kp = llvm::alignTo(k, kMxuDim);
    int64_t np = llvm::alignTo(n, kLanes);
    uint64_t useful = uint64_t(batch * m * k * n);
    uint64_t total = uint64_t(batch * mp * kp * np);
    ++totals.matmuls;
    totals.usefulMacs += useful;
    totals.paddedMacs += total;
    if (mp == m && kp == k && np == n)
      return;
    ++totals.padded;
    if (report)
      op.emitRemark() << "tpu.matmul padded from M x K x N = " << m << " x "
                      << k << " x " << n << " to " << mp << " x " << kp << " x "
                      << np << ": " << formatPercent(total - useful, total)
                      << " of its MXU work is padding";

    OpBuilder builder(op);
    Location loc = op.getLoc();
    SmallVector<int64_t> batchDims(lhs.drop_back(2));
    auto shapeOf = [&](int64_t rows, int64_t cols) {
      SmallVector<int64_t> shape(batchDims);
      shape.append({rows, cols});
      return shape;
    };
    Value newLhs = padTo(builder, loc, op.getLhs(), shapeOf(mp, kp));
    Value newRhs = padTo(builder, loc, op.getRhs(), shapeOf(kp, np));
    Value newAcc;
    if (Value acc = op.getAcc())
      newAcc = padTo(builder, loc, acc, shapeOf(mp, np));
    auto resultType =
        RankedTensorType::get(shapeOf(mp, np), builder.getF32Type());
    auto padded = MatmulOp::create(builder, loc, resultType, newLhs, newRhs,
                                   newAcc, op.getPrecisionAttr());
    SmallVector<OpFoldResult> offsets(rank, builder.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, builder.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim : op.getResult().getType().getShape())
      sizes.push_back(builder.getIndexAttr(dim));
    Value slice = tensor::ExtractSliceOp::create(
        builder, loc, op.getResult().getType(), padded.getResult(), offsets,
        sizes, strides);
    op.getResult().replaceAllUsesWith(slice);
    op.erase();
  }
};

} // namespace
