//===- ReshapeKernel.cpp - tpu.reshape that moves elements ----------------===//
//
// Between a vector and a column: a rank-1 tensor of n elements is laid out
// as one row of lanes (1 x n); the n x 1 matrix a matrix-vector product
// multiplies by is one lane of rows. Every 128 elements are one 128 x 128
// block, transposed on the XLU (tpu.transpose_block). Rows of a block no
// element fills are zero.
//
// Regrouping rows: with the last dimension kept, the rows are one sequence
// in row-major order on both sides, cut into matrices of `small` rows on
// one side and k times as many on the other. Each large matrix is k small
// ones one after another: per large matrix, the k small ones and the large
// one are in VMEM (each column tile's rows contiguous), and each small
// matrix's rows move as one run, up to 8 at a time: a v.ld from a small
// tile and a masked v.st at any row of the large one, or a v.ld from any
// row of the large one and a v.st of a small tile whose padding rows it
// zeroes.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace tpu;

/// The rows of one side regrouped as the other's (the file comment).
static FailureOr<scf::ForOp> lowerRowRegrouping(RewriterBase &rewriter,
                                                ReshapeOp op) {
  TiledShape from = tiledShapeOf(op.getSource()),
             to = tiledShapeOf(op.getOuts());
  bool merging = from.rows < to.rows;
  const TiledShape &small = merging ? from : to, &large = merging ? to : from;
  int64_t k = large.rows / small.rows, cTiles = from.colTiles();
  int64_t smallTiles = small.rowTiles(), largeTiles = large.rowTiles();
  // Per column tile: k small matrices, one large one and a tile more, which
  // a v.ld of a run near the large one's end reads into.
  int64_t smallRows = k * smallTiles * kSublanes;
  int64_t largeRows = (largeTiles + 1) * kSublanes;
  if (cTiles * (smallRows + largeRows) > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: the rows of a matrix of "
                          << large.rows << " x " << large.cols
                          << " do not fit VMEM to be regrouped";
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value smallVmem = b.allocVmem(cTiles * smallRows);
  Value largeVmem = b.allocVmem(cTiles * largeRows);
  Value zeros = b.splat(0.0f);
  auto smallBase = [&](Value ct) { return b.mul(ct, smallRows); };
  auto largeBase = [&](Value ct) { return b.mul(ct, largeRows); };
  // The extra tile: only read, and only into sublanes no v.st keeps.
  b.forLoop(cTiles, 1, [&](Value ct) {
    b.store(zeros, largeVmem, b.add(largeBase(ct), largeTiles * kSublanes));
  });
  Value stride = b.index(cTiles);
  scf::ForOp loop = b.forLoop(large.batch, 1, [&](Value matrix) {
    Value smallTile = b.mul(matrix, k * smallTiles * cTiles);
    Value largeTile = b.mul(matrix, largeTiles * cTiles);
    b.forLoop(cTiles, 1, [&](Value ct) {
      if (merging) {
        Value count = b.index(k * smallTiles);
        Value row = smallBase(ct);
        Value tile = b.add(smallTile, ct);
        b.dmaLoad(op.getSource(), tile, stride, smallVmem, row, count,
                  kLoadSem);
      } else {
        Value count = b.index(largeTiles);
        Value row = largeBase(ct);
        Value tile = b.add(largeTile, ct);
        b.dmaLoad(op.getSource(), tile, stride, largeVmem, row, count,
                  kLoadSem);
      }
    });
    b.wait(kLoadSem, cTiles);
    b.forLoop(cTiles, 1, [&](Value ct) {
      // The padding rows of the large matrix's last tile, which no run
      // reaches.
      if (merging && large.rows % kSublanes != 0)
        b.store(zeros, largeVmem,
                b.add(largeBase(ct), (largeTiles - 1) * kSublanes));
      b.forLoop(k, 1, [&](Value run) {
        Value smallOffset = b.mul(run, smallTiles * kSublanes);
        Value smallRow = b.add(smallBase(ct), smallOffset);
        Value largeOffset = b.mul(run, small.rows);
        Value largeRow = b.add(largeBase(ct), largeOffset);
        b.forEachTile(smallTiles, small.rows % kSublanes != 0,
                      [&](Value tile, bool partial) {
                        int64_t rows =
                            partial ? small.rows % kSublanes : kSublanes;
                        Value offset = b.mul(tile, kSublanes);
                        Value s = b.add(smallRow, offset);
                        Value l = b.add(largeRow, offset);
                        if (merging)
                          VectorStoreOp::create(b, b.load(smallVmem, s),
                                                largeVmem, l, (1 << rows) - 1);
                        else
                          b.storeRows(b.load(largeVmem, l), rows, zeros,
                                      smallVmem, s);
                      });
      });
    });
    b.forLoop(cTiles, 1, [&](Value ct) {
      if (merging) {
        Value count = b.index(largeTiles);
        Value tile = b.add(largeTile, ct);
        Value row = largeBase(ct);
        b.dmaStore(largeVmem, row, op.getOuts(), tile, stride, count,
                   kStoreSem);
      } else {
        Value count = b.index(k * smallTiles);
        Value tile = b.add(smallTile, ct);
        Value row = smallBase(ct);
        b.dmaStore(smallVmem, row, op.getOuts(), tile, stride, count,
                   kStoreSem);
      }
    });
    b.wait(kStoreSem, cTiles);
  });
  b.dealloc({smallVmem, largeVmem});
  rewriter.eraseOp(op);
  return loop;
}

FailureOr<scf::ForOp> tpu::lowerReshape(RewriterBase &rewriter, ReshapeOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  std::optional<bool> toColumn = op.isVectorToColumn();
  if (!toColumn && op.regroupsRows())
    return lowerRowRegrouping(rewriter, op);
  if (!toColumn)
    return op.emitError() << "tpu-lower-to-mxu: cannot reshape "
                          << op.getSource().getType() << " to "
                          << op.getOuts().getType()
                          << " with a kernel; only between a vector and a "
                             "column, or regrouping rows";
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
    Value end = b.index(tilesPerBlock);
    Value begin = b.index(firstTile);
    b.forLoop(begin, end, 1,
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
