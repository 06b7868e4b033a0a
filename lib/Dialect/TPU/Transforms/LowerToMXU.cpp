//===- LowerToMXU.cpp - Kernel ops to loops of MXU, VPU and DMA ops -------===//
//
// A thin driver of the kernels in Kernels/: one pattern per kernel op, each
// calling its kernel, applied once to every op of a bufferized function.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tpu {
#define GEN_PASS_DEF_TPULOWERTOMXU
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// Lowers a buffer-form kernel op with `lower`.
template <typename Op, FailureOr<scf::ForOp> (*lower)(RewriterBase &, Op)>
struct LowerKernel : public OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    return lower(rewriter, op);
  }
};

struct LowerMatmulPasses : public OpRewritePattern<MatmulPassesOp> {
  LowerMatmulPasses(MLIRContext *context, const ChipInfo &chip)
      : OpRewritePattern(context), chip(chip) {}
  LogicalResult matchAndRewrite(MatmulPassesOp op,
                                PatternRewriter &rewriter) const override {
    return lowerMatmulPasses(rewriter, op, chip);
  }
  const ChipInfo &chip;
};

bool isKernelOp(Operation *op) { return op->hasTrait<KernelOpTrait>(); }

struct LowerToMXUPass : public tpu::impl::TPULowerToMXUBase<LowerToMXUPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Only bufferized functions (tpu-bufferize's entry) hold buffer-form
    // kernels; others keep their tensors.
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    if (llvm::any_of(func.getArgumentTypes(), isTensor) ||
        llvm::any_of(func.getResultTypes(), isTensor))
      return;
    // Each matmul's useful MACs count its passes; divided by them, the
    // work an f32 matmul unit would do.
    int64_t usefulMacs = 0, usefulF32Macs = 0;
    func.walk([&](MatmulPassesOp op) {
      if (auto macs = op->getAttrOfType<IntegerAttr>(
              TPUDialect::getUsefulMacsAttrName())) {
        usefulMacs += macs.getInt();
        usefulF32Macs += macs.getInt() / int64_t(op.getLhs().size());
      }
    });
    // The kernels that move words take no packed bf16 (tpu-bufferize
    // widens it to f32 for them).
    WalkResult packed = func.walk([](Operation *op) {
      if (!movesWords(op))
        return WalkResult::advance();
      for (Value operand : op->getOperands())
        if (getElementTypeOrSelf(operand.getType()).isBF16()) {
          op->emitError() << "tpu-lower-to-mxu: '" << op->getName()
                          << "' moves 32-bit words, but " << operand.getType()
                          << " is packed bf16; give it f32 (tpu-bufferize "
                             "extends bf16 operands of such kernels)";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (packed.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateLowerToMXUPatterns(patterns, getChipInfo(getChipOf(func)));
    walkAndApplyPatterns(func, std::move(patterns));
    // A kernel that could not be written has said why.
    if (func.walk([](Operation *op) {
              return isKernelOp(op) ? WalkResult::interrupt()
                                    : WalkResult::advance();
            })
            .wasInterrupted())
      return signalPassFailure();
    Builder builder(&getContext());
    func->setAttr(TPUDialect::getUsefulMacsAttrName(),
                  builder.getI64IntegerAttr(usefulMacs));
    func->setAttr(TPUDialect::getUsefulF32MacsAttrName(),
                  builder.getI64IntegerAttr(usefulF32Macs));
  }
};

} // namespace

void tpu::populateLowerToMXUPatterns(RewritePatternSet &patterns,
                                     const ChipInfo &chip) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LowerMatmulPasses>(context, chip);
  patterns.add<LowerKernel<SplitOp, lowerSplit>,
               LowerKernel<ElementwiseOp, lowerElementwise>,
               LowerKernel<ResizeOp, lowerResize>,
               LowerKernel<ReshapeOp, lowerReshape>,
               LowerKernel<BroadcastOp, lowerBroadcast>,
               LowerKernel<ReduceOp, lowerReduce>,
               LowerKernel<ReduceColumnsOp, lowerReduceColumns>,
               LowerKernel<ReduceMatricesOp, lowerReduceMatrices>,
               LowerKernel<BroadcastLanesOp, lowerBroadcastLanes>,
               LowerKernel<TransposeOp, lowerTranspose>,
               LowerKernel<WindowsOp, lowerWindows>,
               LowerKernel<PermuteMatricesOp, lowerPermuteMatrices>,
               LowerKernel<PermuteRowsOp, lowerPermuteRows>,
               LowerKernel<InsertRowsOp, lowerInsertRows>>(context);
}
