//===- InsertRowsKernel.cpp - tpu.insert_rows: boxes of whole rows --------===//
//
// For each matrix of the box and each column tile, the row tiles the box
// touches on the source side are DMAed into VMEM (and a zero tile after
// them, which a read of the last rows reaches into), and those on the
// result side are DMAed in from the result (or are zeros, for an extract);
// each row tile of the box is then one v.ld at its source row and one
// masked v.st at its result row, and the result's tiles go out. The
// result starts as a copy of the dest, or as zeros without one, so the
// rows outside the box are those.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpu;

namespace {

/// The first matrix and row of a box at `offsets` in a tensor of `shape`:
/// the matrix index of leading coordinates `index` (within the box) plus
/// the offsets, row-major.
Value matrixOf(KernelBuilder &b, ArrayRef<int64_t> shape,
               ArrayRef<int64_t> offsets, ArrayRef<Value> index) {
  Value matrix = b.index(0);
  for (size_t d = 0; d + 2 < shape.size(); ++d) {
    Value coordinate = b.add(index[d], offsets[d]);
    matrix = b.add(b.mul(matrix, shape[d]), coordinate);
  }
  return matrix;
}

/// Copies every tile of `from` to `to` (the same tiles) through `staging`
/// of `chunk` tiles.
void copyTiles(KernelBuilder &b, Value from, Value to, Value staging,
               int64_t chunk) {
  int64_t tiles = tiledShapeOf(from).numTiles();
  Value zero = b.index(0), one = b.index(1), tilesV = b.index(tiles);
  b.forLoop(tiles, chunk, [&](Value first) {
    Value count = b.min(b.sub(tilesV, first), chunk);
    b.dmaLoad(from, first, one, staging, zero, count, kLoadSem);
    b.wait(kLoadSem, 1);
    b.dmaStore(staging, zero, to, first, one, count, kStoreSem);
    b.wait(kStoreSem, 1);
  });
}

} // namespace

FailureOr<scf::ForOp> tpu::lowerInsertRows(RewriterBase &rewriter,
                                           InsertRowsOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  bool extract = op.getExtract();
  Value result = op.getOuts();
  ArrayRef<int64_t> srcShape =
      cast<ShapedType>(op.getSource().getType()).getShape();
  ArrayRef<int64_t> dstShape = cast<ShapedType>(result.getType()).getShape();
  ArrayRef<int64_t> box = extract ? dstShape : srcShape;
  size_t rank = box.size();
  // Offsets of the box on each side, every dimension but the last.
  SmallVector<int64_t> zeros(rank - 1, 0);
  ArrayRef<int64_t> srcOffsets = extract ? op.getOffsets() : zeros;
  ArrayRef<int64_t> dstOffsets = extract ? ArrayRef<int64_t>(zeros)
                                         : op.getOffsets();
  // Rows of the box, and the row tiles each side's rows touch.
  int64_t rows = rank >= 2 ? box[rank - 2] : 1;
  int64_t srcRow = rank >= 2 ? srcOffsets[rank - 2] : 0;
  int64_t dstRow = rank >= 2 ? dstOffsets[rank - 2] : 0;
  constexpr int64_t kRows = kSublanes;
  auto tilesOf = [](int64_t first, int64_t count) {
    return llvm::divideCeil(first + count, kRows) - first / kRows;
  };
  int64_t srcTiles = tilesOf(srcRow, rows), dstTiles = tilesOf(dstRow, rows);
  TiledShape src = TiledShape::get(srcShape.vec()),
             dst = TiledShape::get(dstShape.vec());
  int64_t cTiles = dst.colTiles();
  int64_t srcVmemRows = (srcTiles + 1) * kRows, dstVmemRows = dstTiles * kRows;
  // The staging of a copy of the dest, or of the zeros of an insert
  // without one; an extract has none.
  int64_t chunk = extract ? 0 : std::min<int64_t>(kVpuChunkTiles, dst.numTiles());
  if (srcVmemRows + dstVmemRows + chunk * kRows > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: a box of " << rows
                          << " rows does not fit VMEM";

  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value srcVmem = b.allocVmem(srcVmemRows), dstVmem = b.allocVmem(dstVmemRows);
  Value staging = extract ? Value() : b.allocVmem(chunk * kRows);
  Value zeroV = b.index(0), zeroTile = b.splat(0.0f);
  if (op.getDest()) {
    copyTiles(b, op.getDest(), result, staging, chunk);
  } else if (!extract) {
    // An insert into nothing: the rest of the result is zero.
    b.forLoop(chunk, 1, [&](Value t) {
      b.store(zeroTile, staging, b.mul(t, kRows));
    });
    Value tilesV = b.index(dst.numTiles()), one = b.index(1);
    b.forLoop(dst.numTiles(), chunk, [&](Value first) {
      b.dmaStore(staging, zeroV, result, first, one,
                 b.min(b.sub(tilesV, first), chunk), kStoreSem);
      b.wait(kStoreSem, 1);
    });
  }
  // The tile after the source's, which only the last row tile's v.ld
  // reaches into (its sublanes are not stored).
  b.store(zeroTile, srcVmem, b.index(srcTiles * kRows));
  SmallVector<int64_t> leading(box.drop_back(std::min<size_t>(rank, 2)));
  if (leading.empty())
    leading.push_back(1);
  scf::ForOp loop = b.forEachIndex(leading, [&](ArrayRef<Value> index) {
    Value srcMatrix = matrixOf(b, srcShape, srcOffsets, index);
    Value dstMatrix = matrixOf(b, dstShape, dstOffsets, index);
    b.forLoop(cTiles, 1, [&](Value ct) {
      Value srcTile =
          b.add(b.mul(b.add(b.mul(srcMatrix, src.rowTiles()), srcRow / kRows),
                      cTiles),
                ct);
      Value dstTile =
          b.add(b.mul(b.add(b.mul(dstMatrix, dst.rowTiles()), dstRow / kRows),
                      cTiles),
                ct);
      Value stride = b.index(cTiles);
      b.dmaLoad(op.getSource(), srcTile, stride, srcVmem, zeroV,
                b.index(srcTiles), kLoadSem);
      // The result's tiles: what is around the box (the dest's, or the
      // zeros of an insert into nothing), or zeros for an extract.
      if (!extract)
        b.dmaLoad(result, dstTile, stride, dstVmem, zeroV, b.index(dstTiles),
                  kLoadSem);
      else
        b.forLoop(dstTiles, 1, [&](Value t) {
          b.store(zeroTile, dstVmem, b.mul(t, kRows));
        });
      b.wait(kLoadSem, extract ? 1 : 2);
      b.forEachTile(llvm::divideCeil(rows, kRows), rows % kRows != 0,
                    [&](Value tile, bool partial) {
                      int64_t count = partial ? rows % kRows : kRows;
                      Value offset = b.mul(tile, kRows);
                      Value value =
                          b.load(srcVmem, b.add(offset, srcRow % kRows));
                      VectorStoreOp::create(b, value, dstVmem,
                                            b.add(offset, dstRow % kRows),
                                            (1 << count) - 1);
                    });
      b.dmaStore(dstVmem, zeroV, result, dstTile, stride, b.index(dstTiles),
                 kStoreSem);
      b.wait(kStoreSem, 1);
    });
  });
  b.dealloc({srcVmem, dstVmem});
  if (staging)
    b.dealloc(staging);
  rewriter.eraseOp(op);
  return loop;
}
