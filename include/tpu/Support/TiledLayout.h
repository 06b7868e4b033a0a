//===- TiledLayout.h - The device layout of a tensor ------------*- C++ -*-===//
//
// How a tensor lies in HBM and VMEM: its two minor dimensions are cut into
// tiles of one vreg, 8 x 128 32-bit words, padded with zeros up to whole
// tiles; tiles are stored row-major, and leading (batch) dimensions are
// outermost. A rank-1 tensor of n elements is laid out as 1 x n, a scalar as
// 1 x 1. 16-bit elements (bf16) are packed two to a word, so their tile is
// 16 x 128: the word at (sublane s, lane l) holds row s in its low half and
// row s + 8 in its high half, as v.pack.bf16 makes it (docs/Compiler.md,
// "Packed bf16"). The compiler (which emits addresses) and the simulator's
// runtime (which lays .npy data out this way) both use this one definition.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_TILEDLAYOUT_H
#define TPU_SUPPORT_TILEDLAYOUT_H

#include "tpu/Support/Chip.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tpu {

inline constexpr uint64_t kWordsPerTile = kSublanes * kLanes;

struct TiledShape {
  int64_t batch = 1;
  int64_t rows = 1;
  int64_t cols = 1;
  /// Elements per 32-bit word: 1, or 2 for bf16.
  int64_t packing = 1;

  static TiledShape get(const std::vector<int64_t> &shape,
                        int64_t packing = 1) {
    TiledShape tiled;
    tiled.packing = packing;
    size_t rank = shape.size();
    if (rank >= 1)
      tiled.cols = shape[rank - 1];
    if (rank >= 2)
      tiled.rows = shape[rank - 2];
    for (size_t i = 0; i + 2 < rank; ++i)
      tiled.batch *= shape[i];
    return tiled;
  }

  /// Rows of one tile: 8 words high, times the packing.
  int64_t tileRows() const { return kSublanes * packing; }
  int64_t rowTiles() const { return (rows + tileRows() - 1) / tileRows(); }
  int64_t colTiles() const { return (cols + kLanes - 1) / kLanes; }
  int64_t paddedRows() const { return rowTiles() * tileRows(); }
  int64_t paddedCols() const { return colTiles() * kLanes; }
  int64_t tilesPerBatch() const { return rowTiles() * colTiles(); }
  int64_t numTiles() const { return batch * tilesPerBatch(); }
  int64_t numElements() const { return batch * rows * cols; }

  /// The word offset of element (b, r, c) from the tensor's first tile.
  int64_t wordOffset(int64_t b, int64_t r, int64_t c) const {
    int64_t tile = b * tilesPerBatch() + (r / tileRows()) * colTiles() +
                   c / int64_t(kLanes);
    return tile * int64_t(kWordsPerTile) + (r % kSublanes) * kLanes +
           c % int64_t(kLanes);
  }
  /// The bit where element (b, r, c) starts in its word: 0, or 16 for the
  /// high half of a packed word.
  unsigned bitOffset(int64_t r) const {
    return unsigned((r % tileRows()) / kSublanes) * (32 / unsigned(packing));
  }

  /// Row-major element `index` as (b, r, c).
  void position(int64_t index, int64_t &b, int64_t &r, int64_t &c) const {
    c = index % cols;
    r = index / cols % rows;
    b = index / cols / rows;
  }
  /// Writes element `index` (row-major), whose own bits (16 of them for
  /// bf16) are `bits`, into `image`, which holds the tensor's tiles.
  void setElement(std::vector<uint32_t> &image, int64_t index,
                  uint32_t bits) const {
    int64_t b, r, c;
    position(index, b, r, c);
    unsigned shift = bitOffset(r);
    uint32_t mask = packing == 1 ? ~0u : 0xFFFFu;
    uint32_t &word = image[size_t(wordOffset(b, r, c))];
    word = (word & ~(mask << shift)) | ((bits & mask) << shift);
  }
  /// Calls visit(index, word, shift) for each element of tile `tile`
  /// (padding left out): its row-major index in the tensor, the word of
  /// the tile that holds it (0 to kWordsPerTile - 1) and the bit where it
  /// starts there. A tile at a time: the runtime moves whole tensors so.
  template <typename Visit>
  void forEachElementInTile(int64_t tile, Visit visit) const {
    int64_t b = tile / tilesPerBatch(), inBatch = tile % tilesPerBatch();
    int64_t firstRow = inBatch / colTiles() * tileRows();
    int64_t firstCol = inBatch % colTiles() * int64_t(kLanes);
    int64_t endRow = std::min(rows, firstRow + tileRows());
    int64_t endCol = std::min(cols, firstCol + int64_t(kLanes));
    for (int64_t r = firstRow; r < endRow; ++r) {
      int64_t index = (b * rows + r) * cols + firstCol;
      int64_t word = (r % kSublanes) * kLanes;
      unsigned shift = bitOffset(r);
      for (int64_t c = firstCol; c < endCol; ++c)
        visit(index++, word++, shift);
    }
  }
  /// The bits of the element that starts at bit `shift` of `word`.
  uint32_t elementBits(uint32_t word, unsigned shift) const {
    return packing == 1 ? word : (word >> shift) & 0xFFFFu;
  }
};

} // namespace tpu

#endif // TPU_SUPPORT_TILEDLAYOUT_H
