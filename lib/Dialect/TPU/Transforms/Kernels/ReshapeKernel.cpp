//===- ReshapeKernel.cpp - tpu.reshape between a vector and a column ------===//
//
// A rank-1 tensor of n elements is laid out as one row of lanes (1 x n);
// the n x 1 matrix a matrix-vector product multiplies by is one lane of
// rows. Every 128 elements are one 128 x 128 block, transposed on the XLU
// (tpu.transpose_block). Rows of a block no element fills are zero.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"

using namespace mlir;
using namespace tpu;

FailureOr<scf::ForOp> tpu::lowerReshape(RewriterBase &rewriter, ReshapeOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  std::optional<bool> toColumn = op.isVectorToColumn();
  if (!toColumn)
    return op.emitError() << "tpu-lower-to-mxu: cannot reshape "
                          << op.getSource().getType() << " to "
                          << op.getOuts().getType()
                          << " with a kernel; only between a vector and a "
                             "column";
  Value vector = *toColumn ? op.getSource() : op.getOuts();
  ArrayRef<int64_t> shape = cast<ShapedType>(vector.getType()).getShape();
  int64_t elements = shape.front();
  int64_t blocks = (elements + kMxuDim - 1) / kMxuDim;
  int64_t columnTiles = (elements + kSublanes - 1) / kSublanes;
  int64_t tilesPerBlock = kMxuDim / kSublanes;

  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value src = op.getSource(), dst = op.getOuts();
  Value in = b.allocVmem(kMxuDim), out = b.allocVmem(kMxuDim);
  Value zero = b.index(0), one = b.index(1);
  Value zeros = b.splat(0.0f);
  // Rows of `in` no DMA writes must be zero: they become the lanes of the
  // block that hold no element.
  auto clear = [&](int64_t firstTile) {
    b.forLoop(b.index(firstTile), b.index(tilesPerBlock), 1,
              [&](Value tile) { b.store(zeros, in, b.mul(tile, kSublanes)); });
  };
  if (*toColumn)
    clear(1);
  scf::ForOp loop = b.forLoop(blocks, 1, [&](Value block) {
    Value firstColumnTile = b.mul(block, tilesPerBlock);
    Value count =
        b.min(b.sub(b.index(columnTiles), firstColumnTile), tilesPerBlock);
    if (*toColumn) {
      b.dmaLoad(src, block, one, in, zero, one, kLoadSem);
    } else {
      clear(0);
      b.dmaLoad(src, firstColumnTile, one, in, zero, count, kLoadSem);
    }
    b.wait(kLoadSem, 1);
    TransposeBlockOp::create(b, in, zero, out, zero);
    if (*toColumn)
      b.dmaStore(out, zero, dst, firstColumnTile, one, count, kStoreSem);
    else
      b.dmaStore(out, zero, dst, block, one, one, kStoreSem);
    b.wait(kStoreSem, 1);
  });
  b.dealloc({in, out});
  rewriter.eraseOp(op);
  return loop;
}
