//===- TransposeKernel.cpp - Transposes: blocks, matrices and rows --------===//
//
// tpu.transpose: each 128 x 128 block of a matrix (16 row tiles of one
// column tile) is DMAed into VMEM (HBM tiles a row of tiles apart),
// transposed on the XLU (tpu.transpose_block) and DMAed out as 16 row tiles
// of one column tile of the result. Rows of a block past the source's tiles
// are zeroed first: they become the result's padding columns.
//
// tpu.permute_matrices: each matrix is a run of tiles, DMAed from its place
// in the source to its place in the result through VMEM.
//
// tpu.permute_rows: rows gathered by strided loads (below).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace tpu;

/// Row-major strides of the leading dimensions of `shape` (all but the
/// last two), in matrices.
static SmallVector<int64_t> getMatrixStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size() - 2, 1);
  for (int64_t d = int64_t(strides.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

FailureOr<scf::ForOp> tpu::lowerTranspose(RewriterBase &rewriter,
                                          TransposeOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  TiledShape from = tiledShapeOf(op.getSource()),
             to = tiledShapeOf(op.getOuts());
  constexpr int64_t kBlockTiles = kMxuDim / kSublanes;
  auto blocks = [](int64_t tiles) {
    return (tiles + kBlockTiles - 1) / kBlockTiles;
  };
  // Source blocks: row blocks of 16 row tiles, and one per column tile.
  int64_t rowBlocks = blocks(from.rowTiles()), colBlocks = from.colTiles();
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value in = b.allocVmem(kMxuDim), out = b.allocVmem(kMxuDim);
  Value zero = b.index(0);
  Value zeros = b.splat(0.0f);
  bool partialRowBlock = from.rowTiles() % kBlockTiles != 0;
  bool partialColBlock = to.rowTiles() % kBlockTiles != 0;
  scf::ForOp loop = b.forLoop(from.batch, 1, [&](Value matrix) {
    b.forLoop(rowBlocks, 1, [&](Value rowBlock) {
      Value firstRowTile = b.mul(rowBlock, kBlockTiles);
      Value rowTiles =
          b.min(b.sub(b.index(from.rowTiles()), firstRowTile), kBlockTiles);
      b.forLoop(colBlocks, 1, [&](Value colBlock) {
        // Rows of the block no DMA writes: zero (only the last row block
        // has them).
        if (partialRowBlock)
          b.forLoop(rowTiles, b.index(kBlockTiles), 1, [&](Value tile) {
            b.store(zeros, in, b.mul(tile, kSublanes));
          });
        Value source =
            b.add(b.mul(b.add(b.mul(matrix, from.rowTiles()), firstRowTile),
                        from.colTiles()),
                  colBlock);
        b.dmaLoad(op.getSource(), source, b.index(from.colTiles()), in, zero,
                  rowTiles, kLoadSem);
        b.wait(kLoadSem, 1);
        TransposeBlockOp::create(b, in, zero, out, zero);
        // The block is column tile `rowBlock` of result row tiles from
        // 16 x `colBlock` on.
        Value firstOutRowTile = b.mul(colBlock, kBlockTiles);
        Value outRowTiles =
            partialColBlock
                ? b.min(b.sub(b.index(to.rowTiles()), firstOutRowTile),
                        kBlockTiles)
                : b.index(kBlockTiles);
        Value target =
            b.add(b.mul(b.add(b.mul(matrix, to.rowTiles()), firstOutRowTile),
                        to.colTiles()),
                  rowBlock);
        b.dmaStore(out, zero, op.getOuts(), target, b.index(to.colTiles()),
                   outRowTiles, kStoreSem);
        b.wait(kStoreSem, 1);
      });
    });
  });
  b.dealloc({in, out});
  rewriter.eraseOp(op);
  return loop;
}

FailureOr<scf::ForOp>
tpu::lowerPermuteMatrices(RewriterBase &rewriter, PermuteMatricesOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  ArrayRef<int64_t> from =
      cast<ShapedType>(op.getSource().getType()).getShape();
  ArrayRef<int64_t> to = cast<ShapedType>(op.getOuts().getType()).getShape();
  ArrayRef<int64_t> permutation = op.getPermutation();
  int64_t tiles = TiledShape::get(from.vec()).tilesPerBatch();
  SmallVector<int64_t> strides = getMatrixStrides(from);
  int64_t chunk = std::min(tiles, kVpuChunkTiles);
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(chunk * kSublanes);
  Value zero = b.index(0), one = b.index(1), tilesV = b.index(tiles);
  // Each result matrix, in order, from the source matrix the permutation
  // puts there, a chunk of tiles at a time.
  scf::ForOp loop = b.forEachIndex(
      to.drop_back(2), [&](ArrayRef<Value> index) {
        Value target = zero, source = zero;
        for (auto [d, i] : llvm::enumerate(index)) {
          target = b.add(b.mul(target, to[d]), i);
          source = b.add(source, b.mul(i, strides[permutation[d]]));
        }
        Value targetTile = b.mul(target, tiles);
        Value sourceTile = b.mul(source, tiles);
        b.forLoop(tiles, chunk, [&](Value first) {
          Value count = b.min(b.sub(tilesV, first), chunk);
          b.dmaLoad(op.getSource(), b.add(sourceTile, first), one, staging,
                    zero, count, kLoadSem);
          b.wait(kLoadSem, 1);
          b.dmaStore(staging, zero, op.getOuts(), b.add(targetTile, first), one,
                     count, kStoreSem);
          b.wait(kStoreSem, 1);
        });
      });
  b.dealloc(staging);
  rewriter.eraseOp(op);
  return loop;
}

// tpu.permute_rows: the source dimension k that the result's rows run along
// is a leading one, so a result tile's eight rows are eight source rows
// whose matrices are a stride apart. For each source row tile (and column
// tile), a chunk of k's tiles is DMAed into VMEM with that stride; row rs
// of every staged tile is then eight rows apart, so each result tile is
// one v.ld of sublane stride 8 (row by row, with zero rows after, for a
// last tile with padding), staged and DMAed out to its result matrix.
FailureOr<scf::ForOp> tpu::lowerPermuteRows(RewriterBase &rewriter,
                                            PermuteRowsOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  ArrayRef<int64_t> from =
      cast<ShapedType>(op.getSource().getType()).getShape();
  ArrayRef<int64_t> to = cast<ShapedType>(op.getOuts().getType()).getShape();
  ArrayRef<int64_t> permutation = op.getPermutation();
  int64_t rowDim = int64_t(from.size()) - 2;
  TiledShape source = TiledShape::get(from.vec());
  TiledShape result = TiledShape::get(to.vec());
  int64_t colTiles = source.colTiles();
  // k: the source dimension along the result's rows; p: the result
  // dimension that the source's rows became.
  int64_t k = permutation.back();
  int64_t p = llvm::find(permutation, rowDim) - permutation.begin();
  SmallVector<int64_t> strides = getMatrixStrides(from);
  int64_t kTileStride = strides[k] * source.tilesPerBatch();
  constexpr int64_t kRows = kSublanes;
  // A chunk is a whole number of result row tiles.
  static_assert(kVpuChunkTiles % kSublanes == 0);
  int64_t chunk =
      std::min<int64_t>(llvm::alignTo(from[k], kRows), kVpuChunkTiles);
  int64_t chunks = llvm::divideCeil(from[k], chunk);
  int64_t lastChunk = from[k] - (chunks - 1) * chunk;

  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value staging = b.allocVmem(chunk * kRows);
  Value outStaging = b.allocVmem(llvm::divideCeil(chunk, kRows) * kRows);
  Value zero = b.index(0), zeros = b.splat(0.0f);
  // The result's leading dimensions, the source's rows (dimension p) by
  // row tile.
  SmallVector<int64_t> loops(to.drop_back(2));
  loops[p] = source.rowTiles();
  scf::ForOp loop = b.forEachIndex(loops, [&](ArrayRef<Value> index) {
    Value sourceMatrix = zero;
    for (auto [d, i] : llvm::enumerate(index))
      if (int64_t(d) != p)
        sourceMatrix = b.add(sourceMatrix, b.mul(i, strides[permutation[d]]));
    Value rowTile = index[p];
    Value firstTile = b.mul(
        b.add(b.mul(sourceMatrix, source.rowTiles()), rowTile), colTiles);
    b.forLoop(colTiles, 1, [&](Value ct) {
      b.forEachTile(chunks, lastChunk != chunk, [&](Value c, bool partial) {
        int64_t rows = partial ? lastChunk : chunk;
        Value first = b.mul(c, chunk);
        Value count = b.index(rows);
        Value stride = b.index(kTileStride);
        Value chunkTile = b.mul(first, kTileStride);
        Value tile = b.add(b.add(firstTile, ct), chunkTile);
        b.dmaLoad(op.getSource(), tile, stride, staging, zero, count, kLoadSem);
        b.wait(kLoadSem, 1);
        b.forLoop(kRows, 1, [&](Value rs) {
          Value row = b.add(b.mul(rowTile, kRows), rs);
          auto gather = [&] {
            b.forEachTile(
                llvm::divideCeil(rows, kRows), rows % kRows != 0,
                [&](Value t, bool last) {
                  Value read = b.add(b.mul(t, kRows * kRows), rs);
                  Value target = b.mul(t, kRows);
                  if (!last) {
                    b.store(VectorLoadOp::create(b, b.vregType(), staging,
                                                 read, kRows),
                            outStaging, target);
                    return;
                  }
                  b.store(zeros, outStaging, target);
                  for (int64_t i = 0; i < rows % kRows; ++i)
                    VectorStoreOp::create(
                        b, b.loadRowToAllSublanes(staging,
                                                  b.add(read, i * kRows)),
                        outStaging, target, 1 << i);
                });
            // The result matrix of this source row, from the loop indices.
            Value matrix = zero;
            for (auto [d, i] : llvm::enumerate(index))
              matrix = b.add(b.mul(matrix, to[d]), int64_t(d) == p ? row : i);
            Value chunkRowTile = b.mul(c, chunk / kRows);
            Value rowTileOut =
                b.add(b.mul(matrix, result.rowTiles()), chunkRowTile);
            Value outTile = b.add(b.mul(rowTileOut, colTiles), ct);
            Value count = b.index(llvm::divideCeil(rows, kRows));
            Value stride = b.index(colTiles);
            b.dmaStore(outStaging, zero, op.getOuts(), outTile, stride, count,
                       kStoreSem);
            b.wait(kStoreSem, 1);
          };
          // A last row tile with padding has fewer rows.
          if (from[rowDim] % kRows != 0)
            b.ifThen(b.lessThan(row, b.index(from[rowDim])), gather);
          else
            gather();
        });
      });
    });
  });
  b.dealloc({staging, outStaging});
  rewriter.eraseOp(op);
  return loop;
}
