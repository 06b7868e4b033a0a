//===- BroadcastKernel.cpp - tpu.broadcast through VMEM -------------------===//
//
// New leading dimensions: each result matrix is a copy of the source
// matrix its kept coordinates pick; a chunk of a source matrix's rows of
// tiles is DMAed into VMEM once and out to each of its copies. A new
// second-to-last dimension (a row broadcast of a rank-1 source): the
// source's one row, read into all eight sublanes of each of its tiles,
// makes a row of tiles in VMEM that is DMAed to every row of tiles of the
// result; the last row of each matrix gets only the valid sublanes and
// zeros below, so the padding stays zero.
//
// A DMA's latency is paid once per wait (docs/Simulator.md, "DMA"), so
// these kernels move as much as a DMA can and wait once for what shares a
// buffer.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace tpu;

namespace {

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

/// Each source matrix (a coordinate of the leading dimensions the result
/// keeps), a chunk of its rows of tiles at a time: DMAed into VMEM once,
/// then out to every result matrix that copies it, and waited for once.
scf::ForOp broadcastLeading(KernelBuilder &b, BroadcastOp op) {
  ArrayRef<int64_t> to = shapeOf(op.getOuts());
  TiledShape tiled = TiledShape::get(to.vec());
  ArrayRef<int64_t> dims = op.getDimensions();
  // Rank 2 (nothing new, a copy) has one matrix.
  SmallVector<int64_t> lead(to.drop_back(2));
  if (lead.empty())
    lead.push_back(1);
  SmallVector<int64_t> kept, added;
  partDimensions(lead, dims, added, kept);
  int64_t copies = 1;
  for (int64_t size : added)
    copies *= size;
  // Every leading dimension new: one source matrix.
  if (kept.empty())
    kept.push_back(1);
  int64_t cols = tiled.colTiles(), rows = tiled.rowTiles();
  int64_t chunk = unitsPerChunk(cols, rows, /*buffers=*/1);
  Value staging = b.allocVmem(chunk * cols * kSublanes);
  Value one = b.index(1), zero = b.index(0);
  scf::ForOp loop = b.forEachIndex(kept, [&](ArrayRef<Value> keptIndex) {
    Value source = b.linearIndex(keptIndex, kept);
    b.forEachChunk(rows, chunk, [&](Value row0, Value count) {
      Value tiles = b.mul(count, cols);
      b.dmaLoad(op.getSource(), b.mul(b.add(b.mul(source, rows), row0), cols),
                one, staging, zero, tiles, kLoadSem);
      b.wait(kLoadSem, 1);
      // The result matrix of these coordinates of the new dimensions:
      // row-major over the leading dimensions, each coordinate in its
      // place.
      auto storeCopy = [&](ArrayRef<Value> addedIndex) {
        Value target = b.linearIndex(
            mergeCoordinates(lead.size(), dims, addedIndex, keptIndex), lead);
        b.dmaStore(staging, zero, op.getOuts(),
                   b.mul(b.add(b.mul(target, rows), row0), cols), one, tiles,
                   kStoreSem);
      };
      if (added.empty())
        storeCopy({});
      else
        b.forEachIndex(added, storeCopy);
      // The stores only read the chunk: one wait for them all.
      b.wait(kStoreSem, copies);
    });
  });
  b.dealloc(staging);
  return loop;
}

/// The rank-1 source's row in every row of every result matrix.
scf::ForOp broadcastRow(KernelBuilder &b, BroadcastOp op, Value staging,
                        Value lastRows) {
  TiledShape tiled = TiledShape::get(shapeOf(op.getOuts()).vec());
  int64_t cols = tiled.colTiles(), rows = tiled.rowTiles();
  int64_t validInLast = tiled.rows - (rows - 1) * int64_t(kSublanes);
  Value one = b.index(1), zero = b.index(0), count = b.index(cols);
  b.dmaLoad(op.getSource(), zero, one, staging, zero, count, kLoadSem);
  b.wait(kLoadSem, 1);
  b.forLoop(cols, 1, [&](Value col) {
    Value row = b.mul(col, kSublanes);
    Value replicated = b.loadRowToAllSublanes(staging, row);
    if (lastRows)
      b.storeRows(replicated, validInLast, b.splat(0.0f), lastRows, row);
    b.store(replicated, staging, row);
  });
  // Only the last row of tiles of a matrix can have rows past the end. The
  // stores only read VMEM: one wait a matrix for all of them.
  return b.forLoop(tiled.batch, 1, [&](Value matrix) {
    b.forEachTile(rows, bool(lastRows), [&](Value row, bool partial) {
      Value into = b.mul(b.add(b.mul(matrix, rows), row), cols);
      b.dmaStore(partial ? lastRows : staging, zero, op.getOuts(), into, one,
                 count, kStoreSem);
    });
    b.wait(kStoreSem, rows);
  });
}

} // namespace

FailureOr<scf::ForOp> tpu::lowerBroadcast(RewriterBase &rewriter,
                                          BroadcastOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  ArrayRef<int64_t> to = shapeOf(op.getOuts());
  TiledShape tiled = TiledShape::get(to.vec());
  int64_t rank = int64_t(to.size());
  bool rowBroadcast =
      rank >= 2 && llvm::is_contained(op.getDimensions(), rank - 2);
  bool partialLastRow = rowBroadcast && tiled.rows % kSublanes != 0;
  int64_t cols = tiled.colTiles();
  if ((partialLastRow ? 2 : 1) * cols * int64_t(kSublanes) > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: a row of " << cols
                          << " tiles of " << op.getOuts().getType()
                          << " does not fit VMEM";
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  if (!rowBroadcast) {
    scf::ForOp loop = broadcastLeading(b, op);
    rewriter.eraseOp(op);
    return loop;
  }
  Value staging = b.allocVmem(cols * kSublanes);
  Value lastRows = partialLastRow ? b.allocVmem(cols * kSublanes) : Value();
  scf::ForOp loop = broadcastRow(b, op, staging, lastRows);
  b.dealloc(lastRows ? SmallVector<Value>{staging, lastRows}
                     : SmallVector<Value>{staging});
  rewriter.eraseOp(op);
  return loop;
}

// tpu.broadcast_lanes: each tile of the column (lane 0 of its rows) is
// spread across the lanes (v.lbcast) and stored into every tile of the
// result's row of tiles, the padding lanes of the last one zeroed; a chunk
// of rows of tiles at a time (the column's tiles and the result's rows of
// tiles are both runs of tiles), one DMA in and one out.
FailureOr<scf::ForOp> tpu::lowerBroadcastLanes(RewriterBase &rewriter,
                                               BroadcastLanesOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  TiledShape out = TiledShape::get(shapeOf(op.getOuts()).vec());
  int64_t cols = out.colTiles(), tileRows = out.batch * out.rowTiles();
  if ((cols + 1) * int64_t(kSublanes) > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: a row of " << cols
                          << " tiles of " << op.getOuts().getType()
                          << " does not fit VMEM";
  int64_t lanesInLast = out.cols - (cols - 1) * int64_t(kLanes);
  int64_t chunk = unitsPerChunk(cols, tileRows, /*buffers=*/1);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value column = b.allocVmem(chunk * kSublanes),
        staging = b.allocVmem(chunk * cols * kSublanes);
  Value zero = b.index(0), one = b.index(1);
  scf::ForOp loop =
      b.forEachChunk(tileRows, chunk, [&](Value first, Value count) {
        b.dmaLoad(op.getSource(), first, one, column, zero, count, kLoadSem);
        b.wait(kLoadSem, 1);
        b.forLoop(zero, count, 1, [&](Value tileRow) {
          Value spread = LaneBroadcastOp::create(
              b, b.vregType(), b.load(column, b.mul(tileRow, kSublanes)));
          Value rowStart = b.mul(tileRow, cols * kSublanes);
          b.forLoop(cols, 1, [&](Value col) {
            b.store(spread, staging, b.add(rowStart, b.mul(col, kSublanes)));
          });
          if (lanesInLast < int64_t(kLanes)) {
            // One statement per op: the IR's order must not depend on the
            // compiler's order of evaluating arguments.
            Value kept = b.keepLanes(spread, lanesInLast, b.splat(0.0f));
            b.store(kept, staging, b.add(rowStart, (cols - 1) * kSublanes));
          }
        });
        Value firstTile = b.mul(first, cols);
        Value tiles = b.mul(count, cols);
        b.dmaStore(staging, zero, op.getOuts(), firstTile, one, tiles,
                   kStoreSem);
        b.wait(kStoreSem, 1);
      });
  b.dealloc({column, staging});
  rewriter.eraseOp(op);
  return loop;
}
