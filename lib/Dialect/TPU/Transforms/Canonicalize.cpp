//===- Canonicalize.cpp - Canonicalization that keeps VPU arithmetic ------===//
//
// Upstream's canonicalizer, restricted to the ops whose folds mean on the
// TPU what they mean in MLIR: everything but float arithmetic, whose folds
// assume IEEE-754 results the VPU does not give (docs/Numerics.md).
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "tpu/Dialect/TPU/IR/TPUDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

/// scf.if's CombineIfs makes one if of two in a row on one condition, and
/// CombineNestedIfs one of an if and the if its then part holds, on the
/// conjunction of their conditions; the if either makes has none of the
/// branch_weights (TPUDialect::getBranchWeightsAttrName) the kernels set
/// on the parts they know to be rare. An scf.if a pattern makes gets the
/// weights every other if on its condition in its block has, where they
/// all have the same, or on a conjunction, those that make the then part
/// rare of an operand's ifs (a conjunction is true at most as often).
struct KeepBranchWeights : public RewriterBase::Listener {
  static StringRef name() {
    return tpu::TPUDialect::getBranchWeightsAttrName();
  }

  /// The weights every scf.if on `cond` in `block` but `made` has, if they
  /// have the same; else null.
  static DenseI32ArrayAttr commonWeights(Value cond, Block *block,
                                         Operation *made) {
    DenseI32ArrayAttr weights;
    for (Operation *user : cond.getUsers()) {
      auto other = dyn_cast<scf::IfOp>(user);
      if (!other || other == made || other->getBlock() != block)
        continue;
      auto those = other->getAttrOfType<DenseI32ArrayAttr>(name());
      if (!those || (weights && those != weights))
        return nullptr;
      weights = those;
    }
    return weights;
  }

  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    auto made = dyn_cast<scf::IfOp>(op);
    if (!made || made->hasAttr(name()))
      return;
    Value cond = made.getCondition();
    Block *block = made->getBlock();
    DenseI32ArrayAttr weights = commonWeights(cond, block, made);
    if (auto conjunction = cond.getDefiningOp<arith::AndIOp>();
        !weights && conjunction) {
      for (Value operand : conjunction->getOperands()) {
        DenseI32ArrayAttr those = commonWeights(operand, block, made);
        if (tpu::TPUDialect::isThenRare(those) == true) {
          weights = those;
          break;
        }
      }
    }
    if (weights)
      made->setAttr(name(), weights);
  }
};

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
    KeepBranchWeights keepWeights;
    config.setListener(&keepWeights);
    (void)applyOpPatternsGreedily(ops, patterns, config);
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
