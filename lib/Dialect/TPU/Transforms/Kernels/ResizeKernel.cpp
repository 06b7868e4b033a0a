//===- ResizeKernel.cpp - tpu.resize across row tiles ---------------------===//
//
// A resize that keeps the tiled image of a zero-padded source is a view
// (tpu-bufferize); any other copies the row tiles both have, one row of
// tiles at a time through VMEM, and writes zero tiles where the result has
// rows the source lacks. When it grows, the source's padding becomes
// elements, so unless it is known zero (`zero_padded_source`), those are
// zeroed on the way, whatever the padding held (an
// elementwise op's padding is its body applied to zeros: exp(0) = 1, 0/0 =
// NaN): the lanes past the source's columns in its last column tile
// (v.lmask, v.sel), the rows past its rows in its last row tile (a masked
// v.st over zeros).
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
  TiledShape from = tiledShapeOf(op.getSource()),
             to = tiledShapeOf(op.getOuts());
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
  // What of the source's padding becomes elements of the result.
  int64_t lanesInLast = from.cols - (cols - 1) * int64_t(kLanes);
  int64_t rowsInLast = from.rows - (from.rowTiles() - 1) * int64_t(kSublanes);
  bool zeroPadded = op.getZeroPaddedSource();
  bool maskLanes =
      !zeroPadded && to.cols > from.cols && lanesInLast < int64_t(kLanes);
  bool maskRows =
      !zeroPadded && to.rows > from.rows && rowsInLast < int64_t(kSublanes);
  auto copyRow = [&](Value batch, Value row, bool lastSourceRow) {
    b.dmaLoad(op.getSource(), rowOfTiles(batch, row, from), one, staging, zero,
              count, kLoadSem);
    b.wait(kLoadSem, 1);
    if (maskLanes) {
      Value last = b.index((cols - 1) * kSublanes);
      b.store(b.keepLanes(b.load(staging, last), lanesInLast, b.splat(0.0f)),
              staging, last);
    }
    if (lastSourceRow && maskRows) {
      b.forLoop(cols, 1, [&](Value col) {
        Value at = b.mul(col, kSublanes);
        Value tile = b.load(staging, at);
        b.storeRows(tile, rowsInLast, b.splat(0.0f), staging, at);
      });
    }
    b.dmaStore(staging, zero, op.getOuts(), rowOfTiles(batch, row, to), one,
               count, kStoreSem);
    b.wait(kStoreSem, 1);
  };
  // The source's last row of tiles is among those copied when the result
  // has as many or more.
  bool lastIsCopied = rows == from.rowTiles();
  scf::ForOp loop = b.forLoop(from.batch, 1, [&](Value batch) {
    int64_t plain = lastIsCopied && maskRows ? rows - 1 : rows;
    b.forLoop(plain, 1, [&](Value row) { copyRow(batch, row, false); });
    if (plain < rows)
      copyRow(batch, b.index(plain), true);
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
