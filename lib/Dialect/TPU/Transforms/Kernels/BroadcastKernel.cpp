//===- BroadcastKernel.cpp - tpu.broadcast through VMEM -------------------===//
//
// New leading dimensions: each result matrix is a copy of the source
// matrix its kept coordinates pick, moved a row of tiles at a time through
// VMEM by DMA. A new second-to-last dimension (a row broadcast of a rank-1
// source): the source's one row, read into all eight sublanes of each of
// its tiles, makes a row of tiles in VMEM that is DMAed to every row of
// tiles of the result; the last row of each matrix gets only the valid
// sublanes and zeros below, so the padding stays zero.
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

/// A copy of the matrix its kept leading coordinates pick into every
/// result matrix.
scf::ForOp broadcastLeading(KernelBuilder &b, BroadcastOp op, Value staging) {
  ArrayRef<int64_t> to = shapeOf(op.getOuts());
  TiledShape tiled = TiledShape::get(to.vec());
  ArrayRef<int64_t> dims = op.getDimensions();
  // Rank 2 (nothing new, a copy) has one matrix.
  SmallVector<int64_t> lead(to.drop_back(2));
  if (lead.empty())
    lead.push_back(1);
  int64_t cols = tiled.colTiles(), rows = tiled.rowTiles();
  Value one = b.index(1), zero = b.index(0), count = b.index(cols);
  return b.forEachIndex(lead, [&](ArrayRef<Value> index) {
    // The result's matrix number and the source's, row-major over the
    // leading dimensions each has.
    Value target = b.index(0), source = b.index(0);
    for (auto [d, i] : llvm::enumerate(index)) {
      target = b.add(b.mul(target, lead[d]), i);
      if (!llvm::is_contained(dims, int64_t(d)))
        source = b.add(b.mul(source, lead[d]), i);
    }
    b.forLoop(rows, 1, [&](Value row) {
      Value from = b.mul(b.add(b.mul(source, rows), row), cols);
      Value into = b.mul(b.add(b.mul(target, rows), row), cols);
      b.dmaLoad(op.getSource(), from, one, staging, zero, count, kLoadSem);
      b.wait(kLoadSem, 1);
      b.dmaStore(staging, zero, op.getOuts(), into, one, count, kStoreSem);
      b.wait(kStoreSem, 1);
    });
  });
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
  auto storeRow = [&](Value rowTiles, Value matrix, Value row) {
    Value into = b.mul(b.add(b.mul(matrix, rows), row), cols);
    b.dmaStore(rowTiles, zero, op.getOuts(), into, one, count, kStoreSem);
    b.wait(kStoreSem, 1);
  };
  // Only the last row of tiles of a matrix can have rows past the end.
  return b.forLoop(tiled.batch, 1, [&](Value matrix) {
    b.forEachTile(rows, bool(lastRows), [&](Value row, bool partial) {
      storeRow(partial ? lastRows : staging, matrix, row);
    });
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
  Value staging = b.allocVmem(cols * kSublanes);
  Value lastRows = partialLastRow ? b.allocVmem(cols * kSublanes) : Value();
  scf::ForOp loop = rowBroadcast ? broadcastRow(b, op, staging, lastRows)
                                 : broadcastLeading(b, op, staging);
  b.dealloc(lastRows ? SmallVector<Value>{staging, lastRows}
                     : SmallVector<Value>{staging});
  rewriter.eraseOp(op);
  return loop;
}

// tpu.broadcast_lanes: each tile of the column (lane 0 of its rows) is
// spread across the lanes (v.lbcast) and stored into every tile of the
// result's row of tiles, the padding lanes of the last one zeroed.
FailureOr<scf::ForOp> tpu::lowerBroadcastLanes(RewriterBase &rewriter,
                                               BroadcastLanesOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  TiledShape out = TiledShape::get(shapeOf(op.getOuts()).vec());
  int64_t cols = out.colTiles(), rows = out.rowTiles();
  if ((cols + 1) * int64_t(kSublanes) > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: a row of " << cols
                          << " tiles of " << op.getOuts().getType()
                          << " does not fit VMEM";
  int64_t lanesInLast = out.cols - (cols - 1) * int64_t(kLanes);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value column = b.allocVmem(kSublanes),
        staging = b.allocVmem(cols * kSublanes);
  Value zero = b.index(0), one = b.index(1);
  scf::ForOp loop = b.forLoop(out.batch * rows, 1, [&](Value tileRow) {
    b.dmaLoad(op.getSource(), tileRow, one, column, zero, one, kLoadSem);
    b.wait(kLoadSem, 1);
    Value spread =
        LaneBroadcastOp::create(b, b.vregType(), b.load(column, zero));
    b.forLoop(cols, 1, [&](Value col) {
      b.store(spread, staging, b.mul(col, kSublanes));
    });
    if (lanesInLast < int64_t(kLanes))
      b.store(b.keepLanes(spread, lanesInLast, b.splat(0.0f)), staging,
              b.index((cols - 1) * kSublanes));
    b.dmaStore(staging, zero, op.getOuts(), b.mul(tileRow, cols), one,
               b.index(cols), kStoreSem);
    b.wait(kStoreSem, 1);
  });
  b.dealloc({column, staging});
  rewriter.eraseOp(op);
  return loop;
}
