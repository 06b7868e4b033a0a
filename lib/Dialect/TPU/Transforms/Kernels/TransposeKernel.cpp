//===- TransposeKernel.cpp - Transposes: blocks and whole matrices --------===//
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
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace tpu;

FailureOr<scf::ForOp> tpu::lowerTranspose(RewriterBase &rewriter,
                                          TransposeOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  auto tiledShapeOf = [](Value v) {
    return TiledShape::get(cast<ShapedType>(v.getType()).getShape().vec());
  };
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
  // Row-major strides of the source's leading dimensions, in matrices.
  SmallVector<int64_t> strides(permutation.size(), 1);
  for (int64_t d = int64_t(strides.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * from[d + 1];
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
