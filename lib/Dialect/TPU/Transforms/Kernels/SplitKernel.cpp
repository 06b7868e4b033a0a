//===- SplitKernel.cpp - tpu.split on the VPU -----------------------------===//
//
// Each tile of the input, in VMEM, becomes its bf16 parts in vregs
// (KernelBuilder::splitToBF16, docs/Numerics.md), DMAed out.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"

using namespace mlir;
using namespace tpu;

FailureOr<scf::ForOp> tpu::lowerSplit(RewriterBase &rewriter, SplitOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  size_t parts = op.getOuts().size();
  scf::ForOp loop =
      buildVpuLoop(b, op.getInput(), op.getOuts(), [&](ValueRange vregs) {
        return b.splitToBF16(vregs[0], parts, op.getRounding());
      });
  rewriter.eraseOp(op);
  return loop;
}
