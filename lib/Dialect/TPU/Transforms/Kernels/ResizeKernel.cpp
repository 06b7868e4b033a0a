//===- ResizeKernel.cpp - tpu.resize across row tiles ---------------------===//
//
// A resize that keeps the tiled image is a view (tpu-bufferize); one that
// adds or drops row tiles copies the row tiles both have, one row of tiles
// at a time through VMEM, and writes zero tiles where the result has rows
// the source lacks.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace tpu;

FailureOr<scf::ForOp> tpu::lowerResize(RewriterBase &rewriter, ResizeOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  auto shapeOf = [](Value v) {
    return TiledShape::get(cast<ShapedType>(v.getType()).getShape().vec());
  };
  TiledShape from = shapeOf(op.getSource()), to = shapeOf(op.getOuts());
  if (from.colTiles() != to.colTiles())
    return op.emitError()
           << "tpu-lower-to-mxu: can only pad or slice rows and the "
              "columns inside the last (8,128) tile, from "
           << op.getSource().getType() << " to " << op.getOuts().getType();
  int64_t cols = to.colTiles();
  if (cols * kSublanes > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: rows of " << cols
                          << " tiles do not fit VMEM";
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  int64_t rows = std::min(from.rowTiles(), to.rowTiles());
  Value staging = b.allocVmem(cols * kSublanes);
  Value count = b.index(cols), one = b.index(1), zero = b.index(0);
  auto rowOfTiles = [&](Value batch, Value row, const TiledShape &shape) {
    return b.mul(b.add(b.mul(batch, shape.rowTiles()), row), cols);
  };
  scf::ForOp loop = b.forLoop(from.batch, 1, [&](Value batch) {
    b.forLoop(rows, 1, [&](Value row) {
      Value srcTile = rowOfTiles(batch, row, from);
      Value dstTile = rowOfTiles(batch, row, to);
      b.dmaLoad(op.getSource(), srcTile, one, staging, zero, count, kLoadSem);
      b.wait(kLoadSem, 1);
      b.dmaStore(staging, zero, op.getOuts(), dstTile, one, count, kStoreSem);
      b.wait(kStoreSem, 1);
    });
    // Rows the source lacks: zero tiles, for a new buffer holds anything.
    if (to.rowTiles() > rows) {
      Value zeros = b.splat(0.0f);
      b.forLoop(cols, 1, [&](Value col) {
        b.store(zeros, staging, b.mul(col, kSublanes));
      });
      b.forLoop(b.index(rows), b.index(to.rowTiles()), 1, [&](Value row) {
        b.dmaStore(staging, zero, op.getOuts(), rowOfTiles(batch, row, to), one,
                   count, kStoreSem);
        b.wait(kStoreSem, 1);
      });
    }
  });
  b.dealloc(staging);
  rewriter.eraseOp(op);
  return loop;
}
