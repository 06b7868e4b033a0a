//===- ReduceKernel.cpp - Reductions on the VPU and the XLU ---------------===//
//
// tpu.reduce, across the lanes of each row:
//
// A chunk of rows of tiles at a time in VMEM (one DMA in, one out, a
// wait for each: a DMA's latency is paid per wait). For each row, a vreg of
// lane accumulators (in VMEM between tiles) starts at the kind's identity and
// takes each tile of the row in order (after the prologue, if any, on the
// tile), the padding lanes of the last one replaced by the identity (v.lmask
// and v.sel); v.rsum/v.rmax/v.rmin then combines each sublane's lanes in order,
// `init` is combined with that, and lane 0 of the result tile (a column) keeps
// it. The order is docs/Numerics.md's
// ("Reductions"); lanes and rows past the end of the result are zero.
//
// tpu.reduce_columns, down the rows of each column: per column tile, a
// vreg of eight sublane accumulators (in VMEM) starts at the identity and
// takes the matrix's row tiles in order, chunks of them DMAed at a time,
// the padding rows of the last one replaced by the identity (a masked
// v.st); then sublane 0 is combined with sublanes 1, ..., 7 in order (each
// read into every sublane), `init` with that, and row 0 of the result tile
// (a row) keeps it, its padding lanes zeroed.
//
// tpu.reduce_matrices, across matrices: for each result matrix, a chunk of
// its tiles in VMEM starts from `init` and takes the same chunk of each
// reduced matrix in turn (ascending row-major order of the reduced
// coordinates), tile by tile on the VPU, then is DMAed out. The reduced
// matrices' chunks are all DMAed in at once, each into a slot of its own,
// and waited for once.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

#include <cmath>

using namespace mlir;
using namespace tpu;

namespace {

/// The value the kind leaves everything as it is with: -0 for a sum (+0
/// would turn -0 into +0), -inf for a maximum, +inf for a minimum, NaN for
/// maxnum and minnum (which give the other operand for a NaN; -inf would
/// turn a row of NaNs into -inf).
float getIdentity(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
    return -0.0f;
  case ReductionKind::Max:
    return -INFINITY;
  case ReductionKind::Min:
    return INFINITY;
  case ReductionKind::MaxNum:
  case ReductionKind::MinNum:
    return NAN;
  }
  llvm_unreachable("a reduction kind");
}

Value combine(KernelBuilder &b, ReductionKind kind, Value acc, Value x) {
  switch (kind) {
  case ReductionKind::Sum:
    return arith::AddFOp::create(b, acc, x);
  case ReductionKind::Max:
    return arith::MaximumFOp::create(b, acc, x);
  case ReductionKind::Min:
    return arith::MinimumFOp::create(b, acc, x);
  case ReductionKind::MaxNum:
    return arith::MaxNumFOp::create(b, acc, x);
  case ReductionKind::MinNum:
    return arith::MinNumFOp::create(b, acc, x);
  }
  llvm_unreachable("a reduction kind");
}

} // namespace

FailureOr<scf::ForOp> tpu::lowerReduce(RewriterBase &rewriter, ReduceOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  TiledShape in = TiledShape::get(
      cast<ShapedType>(op.getSource().getType()).getShape().vec());
  int64_t cols = in.colTiles(), rows = in.rowTiles();
  if ((cols + 2) * int64_t(kSublanes) > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: a row of " << cols
                          << " tiles of " << op.getSource().getType()
                          << " does not fit VMEM";
  ReductionKind kind = op.getKind();
  int64_t lanesInLast = in.cols - (cols - 1) * int64_t(kLanes);
  int64_t rowsInLast = in.rows - (rows - 1) * int64_t(kSublanes);
  bool partialLastRow = rowsInLast < int64_t(kSublanes);
  // Without a partial last row, the matrices' rows of tiles are one run;
  // with one, each matrix's whole rows are, and its last row goes alone.
  int64_t runRows =
      partialLastRow ? std::max<int64_t>(rows - 1, 1) : in.batch * rows;
  int64_t chunk = unitsPerChunk(cols, runRows, /*buffers=*/1);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(chunk * cols * kSublanes);
  Value acc = b.allocVmem(kSublanes), result = b.allocVmem(chunk * kSublanes);
  Value zero = b.index(0), one = b.index(1);
  Value identity = b.splat(getIdentity(kind));
  // The prologue, if any, on a tile of the source (before the padding
  // lanes become the identity).
  auto prologue = [&](Value x) {
    if (op.getPrologue().empty())
      return x;
    return applyElementwiseBody(b, op.getPrologue().front(), x);
  };

  // Rows of tiles [first, first + count) of the source, counted across its
  // matrices, whose first `sublanes` rows are the source's: one DMA in, a
  // result tile each, one DMA out. (One statement per op where two would
  // be arguments of one call: the IR's order must not depend on the
  // compiler's order of evaluating arguments.)
  auto reduceRows = [&](Value first, Value count, int64_t sublanes) {
    Value firstTile = b.mul(first, cols);
    Value tiles = b.mul(count, cols);
    b.dmaLoad(op.getSource(), firstTile, one, staging, zero, tiles, kLoadSem);
    b.wait(kLoadSem, 1);
    b.forLoop(zero, count, 1, [&](Value row) {
      Value rowStart = b.mul(row, cols * kSublanes);
      b.store(identity, acc, zero);
      int64_t fullCols = lanesInLast == int64_t(kLanes) ? cols : cols - 1;
      b.forLoop(fullCols, 1, [&](Value col) {
        Value x =
            prologue(b.load(staging, b.add(rowStart, b.mul(col, kSublanes))));
        b.store(combine(b, kind, b.load(acc, zero), x), acc, zero);
      });
      if (fullCols < cols) {
        Value x = b.keepLanes(
            prologue(b.load(staging, b.add(rowStart, fullCols * kSublanes))),
            lanesInLast, identity);
        b.store(combine(b, kind, b.load(acc, zero), x), acc, zero);
      }
      Value lanes =
          LaneReduceOp::create(b, b.vregType(), b.load(acc, zero), kind);
      Value value =
          combine(b, kind, b.splat(op.getInit().convertToFloat()), lanes);
      Value column = b.keepLanes(value, 1, b.splat(0.0f));
      Value resultRow = b.mul(row, kSublanes);
      b.storeRows(column, sublanes, b.splat(0.0f), result, resultRow);
    });
    b.dmaStore(result, zero, op.getOuts(), first, one, count, kStoreSem);
    b.wait(kStoreSem, 1);
  };
  scf::ForOp loop;
  if (!partialLastRow) {
    loop = b.forEachChunk(in.batch * rows, chunk, [&](Value first, Value n) {
      reduceRows(first, n, kSublanes);
    });
  } else {
    loop = b.forLoop(in.batch, 1, [&](Value matrix) {
      Value matrixRow = b.mul(matrix, rows);
      if (rows > 1)
        b.forEachChunk(rows - 1, chunk, [&](Value first, Value n) {
          reduceRows(b.add(matrixRow, first), n, kSublanes);
        });
      reduceRows(b.add(matrixRow, rows - 1), one, rowsInLast);
    });
  }
  b.dealloc({staging, acc, result});
  rewriter.eraseOp(op);
  return loop;
}

FailureOr<scf::ForOp> tpu::lowerReduceColumns(RewriterBase &rewriter,
                                              ReduceColumnsOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  TiledShape in = TiledShape::get(
      cast<ShapedType>(op.getSource().getType()).getShape().vec());
  int64_t cols = in.colTiles(), rows = in.rowTiles();
  int64_t chunk = std::min(rows, kVpuChunkTiles);
  ReductionKind kind = op.getKind();
  int64_t lanesInLast = in.cols - (cols - 1) * int64_t(kLanes);
  int64_t rowsInLast = in.rows - (rows - 1) * int64_t(kSublanes);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(chunk * kSublanes);
  Value acc = b.allocVmem(kSublanes), result = b.allocVmem(kSublanes);
  Value zero = b.index(0), one = b.index(1), colsV = b.index(cols);
  Value identity = b.splat(getIdentity(kind));
  // Row tiles [first, first + count) of the column tile at `tile0` (the
  // matrix's first row tile in that column) into the accumulators.
  auto accumulate = [&](Value tile0, Value first, Value count) {
    b.dmaLoad(op.getSource(), b.add(tile0, b.mul(first, cols)), colsV, staging,
              zero, count, kLoadSem);
    b.wait(kLoadSem, 1);
    b.forLoop(zero, count, 1, [&](Value t) {
      Value x = b.load(staging, b.mul(t, kSublanes));
      b.store(combine(b, kind, b.load(acc, zero), x), acc, zero);
    });
  };
  int64_t fullRows = rowsInLast == int64_t(kSublanes) ? rows : rows - 1;
  // Column tile `col` of matrix `matrix`; `partial`: its padding lanes are
  // zeroed in the result.
  auto reduceColumnTile = [&](Value matrix, Value col, bool partial) {
    Value tile0 = b.add(b.mul(matrix, rows * cols), col);
    b.store(identity, acc, zero);
    b.forLoop(fullRows, chunk, [&](Value first) {
      accumulate(tile0, first, b.min(b.sub(b.index(fullRows), first), chunk));
    });
    if (fullRows < rows) {
      // The last row tile: its rows past the end are the identity.
      b.dmaLoad(op.getSource(), b.add(tile0, b.index(fullRows * cols)), one,
                staging, zero, one, kLoadSem);
      b.wait(kLoadSem, 1);
      b.storeRows(b.load(staging, zero), rowsInLast, identity, staging, zero);
      Value last = b.load(staging, zero);
      Value sum = b.load(acc, zero);
      b.store(combine(b, kind, sum, last), acc, zero);
    }
    // Sublane 0, then 1, ..., 7, each in every sublane; then the init.
    Value across = b.loadRowToAllSublanes(acc, zero);
    for (int64_t s = 1; s < int64_t(kSublanes); ++s)
      across =
          combine(b, kind, across, b.loadRowToAllSublanes(acc, b.index(s)));
    Value value =
        combine(b, kind, b.splat(op.getInit().convertToFloat()), across);
    if (partial)
      value = b.keepLanes(value, lanesInLast, b.splat(0.0f));
    // Rows 1 to 7 of the result tile are padding: zero.
    b.storeRows(value, 1, b.splat(0.0f), result, zero);
    b.dmaStore(result, zero, op.getOuts(), b.add(b.mul(matrix, cols), col), one,
               one, kStoreSem);
    b.wait(kStoreSem, 1);
  };
  scf::ForOp loop = b.forLoop(in.batch, 1, [&](Value matrix) {
    b.forEachTile(cols, lanesInLast < int64_t(kLanes),
                  [&](Value col, bool partial) {
                    reduceColumnTile(matrix, col, partial);
                  });
  });
  b.dealloc({staging, acc, result});
  rewriter.eraseOp(op);
  return loop;
}

FailureOr<scf::ForOp> tpu::lowerReduceMatrices(RewriterBase &rewriter,
                                               ReduceMatricesOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  ArrayRef<int64_t> from =
      cast<ShapedType>(op.getSource().getType()).getShape();
  TiledShape out = TiledShape::get(
      cast<ShapedType>(op.getOuts().getType()).getShape().vec());
  ArrayRef<int64_t> lead = from.drop_back(2);
  ArrayRef<int64_t> reducedDims = op.getDimensions();
  SmallVector<int64_t> kept, reduced;
  partDimensions(lead, reducedDims, reduced, kept);
  // Every leading dimension reduced: one result matrix.
  if (kept.empty())
    kept.push_back(1);
  int64_t tiles = out.tilesPerBatch();
  int64_t reducedCount = 1;
  for (int64_t size : reduced)
    reducedCount *= size;
  // Each reduced matrix's chunk has a slot of its own, so that all of them
  // are loaded at once and waited for once; with more matrices than VMEM
  // holds a tile of each, one slot, loaded and waited for in turn.
  int64_t slots =
      reducedCount + 1 <= kVmemRows / int64_t(kSublanes) ? reducedCount : 1;
  int64_t chunk = unitsPerChunk(1, tiles, slots + 1);
  ReductionKind kind = op.getKind();
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(slots * chunk * kSublanes);
  Value acc = b.allocVmem(chunk * kSublanes);
  Value zero = b.index(0), one = b.index(1);
  Value init = b.splat(op.getInit().convertToFloat());
  scf::ForOp loop = b.forEachIndex(kept, [&](ArrayRef<Value> keptIndex) {
    Value target = b.linearIndex(keptIndex, kept);
    b.forEachChunk(tiles, chunk, [&](Value first, Value count) {
      b.forLoop(zero, count, 1,
                [&](Value t) { b.store(init, acc, b.mul(t, kSublanes)); });
      // The chunk of the source matrix at these reduced coordinates, into
      // VMEM row `row`: the kept and reduced coordinates in their places,
      // row-major.
      auto load = [&](ArrayRef<Value> reducedIndex, Value row) {
        Value source = b.linearIndex(
            mergeCoordinates(lead.size(), reducedDims, reducedIndex, keptIndex),
            lead);
        b.dmaLoad(op.getSource(), b.add(b.mul(source, tiles), first), one,
                  staging, row, count, kLoadSem);
      };
      // The chunk at VMEM row `row` into the accumulators.
      auto combineChunk = [&](Value row0) {
        b.forLoop(zero, count, 1, [&](Value t) {
          Value row = b.mul(t, kSublanes);
          Value sum = b.load(acc, row);
          Value x = b.load(staging, b.add(row0, row));
          b.store(combine(b, kind, sum, x), acc, row);
        });
      };
      if (slots == 1) {
        b.forEachIndex(reduced, [&](ArrayRef<Value> reducedIndex) {
          load(reducedIndex, zero);
          b.wait(kLoadSem, 1);
          combineChunk(zero);
        });
      } else {
        // Slot r is the r-th reduced coordinate in row-major order, the
        // order the chunks are combined in.
        b.forEachIndex(reduced, [&](ArrayRef<Value> reducedIndex) {
          Value slot = b.linearIndex(reducedIndex, reduced);
          load(reducedIndex, b.mul(slot, chunk * kSublanes));
        });
        b.wait(kLoadSem, slots);
        b.forLoop(slots, 1, [&](Value slot) {
          combineChunk(b.mul(slot, chunk * kSublanes));
        });
      }
      b.dmaStore(acc, zero, op.getOuts(), b.add(b.mul(target, tiles), first),
                 one, count, kStoreSem);
      b.wait(kStoreSem, 1);
    });
  });
  b.dealloc({staging, acc});
  rewriter.eraseOp(op);
  return loop;
}
