//===- SplitKernel.cpp - tpu.split on the VPU -----------------------------===//
//
// Each tile of the input, in VMEM, becomes its bf16 parts in vregs
// (docs/Numerics.md): hi = bf16(x), then bf16 of what hi leaves, and so on.
// The FLT_MAX guard is written out in the IR: with nearest-even rounding,
// a finite x whose hi would round up to inf is truncated instead.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

using namespace mlir;
using namespace tpu;

namespace {

/// x rounded to bf16 by `rounding`; with nearest-even, a finite x that
/// would round up to inf is truncated instead, so hi stays finite and
/// x - hi exact.
Value roundHi(KernelBuilder &b, Value x, Rounding rounding) {
  Value rounded = b.round(x, rounding);
  if (rounding == Rounding::Truncate)
    return rounded; // truncation never overflows
  Value truncated = b.round(x, Rounding::Truncate);
  // v - v is NaN exactly when v is inf or NaN.
  auto nonFinite = [&](Value v) -> Value {
    Value diff = arith::SubFOp::create(b, v, v);
    return arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, diff, diff);
  };
  Value overflowed =
      arith::SelectOp::create(b, nonFinite(rounded), truncated, rounded);
  return arith::SelectOp::create(b, nonFinite(x), rounded, overflowed);
}

/// The parts of one vreg: 1 (a plain rounding), 2 (hi, lo) or 3 (hi, mid,
/// lo).
SmallVector<Value> splitVreg(KernelBuilder &b, Value x, size_t parts,
                             Rounding rounding) {
  if (parts == 1)
    return {b.round(x, rounding)};
  Value hi = roundHi(b, x, rounding);
  Value rest = arith::SubFOp::create(b, x, hi);
  Value next = b.round(rest, rounding);
  if (parts == 2)
    return {hi, next};
  Value rest2 = arith::SubFOp::create(b, rest, next);
  return {hi, next, b.round(rest2, rounding)};
}

} // namespace

FailureOr<scf::ForOp> tpu::lowerSplit(RewriterBase &rewriter, SplitOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  size_t parts = op.getOuts().size();
  scf::ForOp loop =
      buildVpuLoop(b, op.getInput(), op.getOuts(), [&](ValueRange vregs) {
        return splitVreg(b, vregs[0], parts, op.getRounding());
      });
  rewriter.eraseOp(op);
  return loop;
}
