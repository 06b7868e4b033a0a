//===- WidenBF16.cpp - bf16 data movement as f32 --------------------------===//
//
// bf16 tensors are packed two to a word in HBM and VMEM (docs/Compiler.md,
// "Packed bf16"). The elementwise, split and matmul kernels read and write
// packed tiles; the kernels that move words around (transposes, reshapes,
// slices, broadcasts, pooling windows, ...) move 32-bit words, so a bf16
// operand reaches them extended to f32 and their bf16 results are rounded
// back. Both conversions are exact for bf16 values, so the results are the
// same bits; the cost is the f32 traffic of the move and two elementwise
// passes.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace tpu;

bool tpu::movesWords(Operation *op) {
  return op->hasTrait<KernelOpTrait>() &&
         !isa<ElementwiseOp, SplitOp, MatmulPassesOp>(op);
}

/// `value` converted elementwise to `elementType` by `Cast` (arith.extf or
/// arith.truncf), as a tpu.elementwise at the builder's point.
template <typename Cast>
static Value castElements(RewriterBase &rewriter, Location loc, Value value,
                          Type elementType) {
  auto type = cast<RankedTensorType>(value.getType()).clone(elementType);
  auto elementwise =
      ElementwiseOp::create(rewriter, loc, type, ValueRange{value}, Value());
  OpBuilder::InsertionGuard guard(rewriter);
  Block *body = rewriter.createBlock(&elementwise.getBody());
  Value element = body->addArgument(
      cast<RankedTensorType>(value.getType()).getElementType(), loc);
  YieldOp::create(rewriter, loc,
                  Cast::create(rewriter, loc, elementType, element));
  return elementwise.getResult();
}

LogicalResult tpu::widenBF16(RewriterBase &rewriter, Operation *op) {
  auto isBF16Tensor = [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getElementType().isBF16();
  };
  if (!movesWords(op) || op->getNumRegions() != 0 ||
      (llvm::none_of(op->getOperandTypes(), isBF16Tensor) &&
       llvm::none_of(op->getResultTypes(), isBF16Tensor)))
    return rewriter.notifyMatchFailure(op, "no bf16 words to move, or a "
                                           "body typed on them");
  Location loc = op->getLoc();
  Type f32 = rewriter.getF32Type();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(isBF16Tensor(operand.getType())
                           ? castElements<arith::ExtFOp>(rewriter, loc,
                                                         operand, f32)
                           : operand);
  Operation *wide = rewriter.clone(*op);
  wide->setOperands(operands);
  SmallVector<Value> results;
  for (OpResult result : wide->getResults()) {
    if (!isBF16Tensor(result.getType())) {
      results.push_back(result);
      continue;
    }
    result.setType(cast<RankedTensorType>(result.getType()).clone(f32));
    rewriter.setInsertionPointAfter(wide);
    results.push_back(castElements<arith::TruncFOp>(
        rewriter, loc, result, rewriter.getBF16Type()));
  }
  rewriter.replaceOp(op, results);
  return success();
}
