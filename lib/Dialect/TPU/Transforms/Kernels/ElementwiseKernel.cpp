//===- ElementwiseKernel.cpp - tpu.elementwise on the VPU -----------------===//
//
// The body, written for one element, applied to whole vregs: each of its
// ops is cloned with vector operands (the arith and math ops it may hold
// are elementwise on vectors as on scalars), and tpu-lower-to-isa selects
// each one's VPU instruction. bf16 values live in vregs as f32 words of
// bf16 value, so a truncation to bf16 is a rounding and an extension is
// nothing.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

using namespace mlir;
using namespace tpu;

Value tpu::applyElementwiseBody(KernelBuilder &b, Block &body,
                                ValueRange inputs) {
  IRMapping mapping;
  mapping.map(body.getArguments(), inputs);
  for (Operation &op : body.without_terminator()) {
    if (auto trunc = dyn_cast<arith::TruncFOp>(op)) {
      mapping.map(trunc.getResult(), b.round(mapping.lookup(trunc.getIn()),
                                             Rounding::NearestEven));
      continue;
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto value = cast<FloatAttr>(constant.getValue());
      mapping.map(constant.getResult(),
                  b.splat(float(value.getValueAsDouble())));
      continue;
    }
    if (auto ext = dyn_cast<arith::ExtFOp>(op)) {
      mapping.map(ext.getResult(), mapping.lookup(ext.getIn()));
      continue;
    }
    Operation *vectorOp = b.clone(op, mapping);
    for (OpResult result : vectorOp->getResults()) {
      Type element = result.getType();
      // Words of bf16 value are f32 in a vreg.
      if (element.isBF16())
        element = b.getF32Type();
      result.setType(
          VectorType::get({int64_t(kSublanes), int64_t(kLanes)}, element));
    }
  }
  return mapping.lookup(body.getTerminator()->getOperand(0));
}

FailureOr<scf::ForOp> tpu::lowerElementwise(RewriterBase &rewriter,
                                            ElementwiseOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  scf::ForOp loop =
      buildVpuLoop(b, op.getInputs(), op.getOuts(), [&](ValueRange vregs) {
        return SmallVector<Value>{
            applyElementwiseBody(b, op.getBody().front(), vregs)};
      });
  rewriter.eraseOp(op);
  return loop;
}
