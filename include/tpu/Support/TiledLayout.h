//===- TiledLayout.h - The device layout of a tensor ------------*- C++ -*-===//
//
// How a tensor lies in HBM and VMEM: its two minor dimensions are cut into
// (8,128) tiles of 32-bit words, padded with zeros up to whole tiles; tiles
// are stored row-major, and leading (batch) dimensions are outermost. A rank-1
// tensor of n elements is laid out as 1 x n, a scalar as 1 x 1. The compiler
// (which emits addresses) and the simulator's runtime (which lays .npy data
// out this way) both use this one definition.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_TILEDLAYOUT_H
#define TPU_SUPPORT_TILEDLAYOUT_H

#include "tpu/Support/Chip.h"

#include <cstdint>
#include <vector>

namespace tpu {

inline constexpr uint64_t kWordsPerTile = kSublanes * kLanes;

struct TiledShape {
  int64_t batch = 1;
  int64_t rows = 1;
  int64_t cols = 1;

  static TiledShape get(const std::vector<int64_t> &shape) {
    TiledShape tiled;
    size_t rank = shape.size();
    if (rank >= 1)
      tiled.cols = shape[rank - 1];
    if (rank >= 2)
      tiled.rows = shape[rank - 2];
    for (size_t i = 0; i + 2 < rank; ++i)
      tiled.batch *= shape[i];
    return tiled;
  }

  int64_t rowTiles() const { return (rows + kSublanes - 1) / kSublanes; }
  int64_t colTiles() const { return (cols + kLanes - 1) / kLanes; }
  int64_t paddedRows() const { return rowTiles() * kSublanes; }
  int64_t paddedCols() const { return colTiles() * kLanes; }
  int64_t tilesPerBatch() const { return rowTiles() * colTiles(); }
  int64_t numTiles() const { return batch * tilesPerBatch(); }
  int64_t numElements() const { return batch * rows * cols; }

  /// The word offset of element (b, r, c) from the tensor's first tile.
  int64_t wordOffset(int64_t b, int64_t r, int64_t c) const {
    int64_t tile = b * tilesPerBatch() + (r / kSublanes) * colTiles() +
                   c / int64_t(kLanes);
    return tile * int64_t(kWordsPerTile) + (r % kSublanes) * kLanes +
           c % int64_t(kLanes);
  }
};

} // namespace tpu

#endif // TPU_SUPPORT_TILEDLAYOUT_H
