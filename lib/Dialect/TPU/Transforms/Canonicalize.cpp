//===- Canonicalize.cpp - Canonicalization that keeps VPU arithmetic ------===//
//
// Upstream's canonicalizer, restricted to the ops whose folds mean on the
// TPU what they mean in MLIR: everything but float arithmetic, whose folds
// assume IEEE-754 results the VPU does not give (docs/Numerics.md).
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tpu {
#define GEN_PASS_DEF_TPUCANONICALIZE
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;

namespace {

/// An arith or math op that computes on floats (constants aside): the
/// VPU's arithmetic.
bool isFloatArithmetic(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::ConstantOp>(op))
    return false;
  auto isFloat = [](Type type) {
    return isa<FloatType>(getElementTypeOrSelf(type));
  };
  return llvm::any_of(op->getOperandTypes(), isFloat) ||
         llvm::any_of(op->getResultTypes(), isFloat);
}

struct CanonicalizePass
    : public tpu::impl::TPUCanonicalizeBase<CanonicalizePass> {
  /// The patterns are the context's, fixed for every run (as upstream's
  /// canonicalizer builds them); nothing of a run is kept.
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owning(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owning);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owning, context);
    patterns = FrozenRewritePatternSet(std::move(owning));
    return success();
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (op != getOperation() && !isFloatArithmetic(op))
        ops.push_back(op);
    });
    // Only those ops are rewritten: a float op a pattern moves (the body of
    // a loop that runs once) is not new to the driver.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    (void)applyOpPatternsGreedily(ops, patterns, config);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
