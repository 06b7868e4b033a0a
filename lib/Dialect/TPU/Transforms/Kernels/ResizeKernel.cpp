//===- ResizeKernel.cpp - tpu.resize across row tiles ---------------------===//
//
// A resize that keeps the tiled image of a zero-padded source is a view
// (tpu-bufferize); any other copies the row tiles both have through VMEM,
// a chunk of rows of tiles per DMA (a DMA's latency is paid per wait), and
// writes zero tiles where the result has rows the source lacks. When it grows,
// the source's padding becomes elements, so unless it is known zero
// (`zero_padded_source`), those are zeroed on the way, whatever the padding
// held (an elementwise op's padding is its body applied to zeros: exp(0) = 1,
// 0/0 = NaN): the lanes past the source's columns in its last column tile
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
  int64_t rows = std::min(from.rowTiles(), to.rowTiles());
  // What of the source's padding becomes elements of the result.
  int64_t lanesInLast = from.cols - (cols - 1) * int64_t(kLanes);
  int64_t rowsInLast = from.rows - (from.rowTiles() - 1) * int64_t(kSublanes);
  bool zeroPadded = op.getZeroPaddedSource();
  bool maskLanes =
      !zeroPadded && to.cols > from.cols && lanesInLast < int64_t(kLanes);
  bool maskRows =
      !zeroPadded && to.rows > from.rows && rowsInLast < int64_t(kSublanes);
  // The source's last row of tiles is among those copied when the result
  // has as many or more; it goes alone when its padding rows are zeroed.
  bool maskLastRow = rows == from.rowTiles() && maskRows;
  int64_t plain = maskLastRow ? rows - 1 : rows;
  // With as many rows of tiles in both and none masked, the matrices' rows
  // of tiles are one run in both.
  bool oneRun = from.rowTiles() == to.rowTiles() && !maskLastRow;
  int64_t runRows = oneRun ? from.batch * rows : std::max<int64_t>(plain, 1);
  int64_t chunk = unitsPerChunk(cols, runRows, /*buffers=*/1);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(chunk * cols * kSublanes);
  Value one = b.index(1), zero = b.index(0);
  // Rows of tiles [fromRow, fromRow + count) of the source (counted across
  // its matrices) to [toRow, toRow + count) of the result: one DMA in, one
  // out. `lastSourceRow`: the one row is the source's last, whose padding
  // rows become zeros. (One statement per op here and below: the IR's
  // order must not depend on the compiler's order of evaluating
  // arguments.)
  auto copyRows = [&](Value fromRow, Value toRow, Value count,
                      bool lastSourceRow) {
    Value fromTile = b.mul(fromRow, cols);
    Value tiles = b.mul(count, cols);
    b.dmaLoad(op.getSource(), fromTile, one, staging, zero, tiles, kLoadSem);
    b.wait(kLoadSem, 1);
    if (maskLanes) {
      b.forLoop(zero, count, 1, [&](Value row) {
        Value last =
            b.add(b.mul(row, cols * kSublanes), (cols - 1) * kSublanes);
        Value tile = b.load(staging, last);
        b.store(b.keepLanes(tile, lanesInLast, b.splat(0.0f)), staging, last);
      });
    }
    if (lastSourceRow) {
      b.forLoop(cols, 1, [&](Value col) {
        Value at = b.mul(col, kSublanes);
        Value tile = b.load(staging, at);
        b.storeRows(tile, rowsInLast, b.splat(0.0f), staging, at);
      });
    }
    Value toTile = b.mul(toRow, cols);
    b.dmaStore(staging, zero, op.getOuts(), toTile, one, tiles, kStoreSem);
    b.wait(kStoreSem, 1);
  };
  scf::ForOp loop;
  if (oneRun) {
    loop = b.forEachChunk(runRows, chunk, [&](Value first, Value count) {
      copyRows(first, first, count, false);
    });
  } else {
    loop = b.forLoop(from.batch, 1, [&](Value batch) {
      Value fromBase = b.mul(batch, from.rowTiles()),
            toBase = b.mul(batch, to.rowTiles());
      if (plain > 0)
        b.forEachChunk(plain, chunk, [&](Value first, Value count) {
          Value fromRow = b.add(fromBase, first);
          Value toRow = b.add(toBase, first);
          copyRows(fromRow, toRow, count, false);
        });
      if (maskLastRow) {
        Value fromRow = b.add(fromBase, plain);
        Value toRow = b.add(toBase, plain);
        copyRows(fromRow, toRow, one, true);
      }
      // Rows the source lacks: zero tiles, for a new buffer holds anything.
      // One row of them in VMEM (the VPU writes no more than that), a DMA
      // of it per row of the result, all waited for once.
      int64_t extra = to.rowTiles() - rows;
      if (extra > 0) {
        Value zeros = b.splat(0.0f);
        b.forLoop(cols, 1, [&](Value col) {
          b.store(zeros, staging, b.mul(col, kSublanes));
        });
        Value firstMissing = b.index(rows);
        Value end = b.index(to.rowTiles());
        Value rowTiles = b.index(cols);
        b.forLoop(firstMissing, end, 1, [&](Value row) {
          Value toTile = b.mul(b.add(toBase, row), cols);
          b.dmaStore(staging, zero, op.getOuts(), toTile, one, rowTiles,
                     kStoreSem);
        });
        b.wait(kStoreSem, extra);
      }
    });
  }
  b.dealloc(staging);
  rewriter.eraseOp(op);
  return loop;
}
