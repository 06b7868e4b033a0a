//===- State.h - Architectural state of one TensorCore ----------*- C++ -*-===//
//
// Registers, the MXUs' weights (latched and staged) and result buffers, and the
// DMA semaphores: everything an instruction reads or writes that is not memory.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_STATE_H
#define TPU_SIM_STATE_H

#include "tpu/ISA/ISA.h"
#include "tpu/Sim/MxuKernel.h"
#include "tpu/Support/Chip.h"
#include "tpu/Support/TiledLayout.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tpu::sim {

/// A vector register: kSublanes x kLanes 32-bit words, sublane-major.
using VReg = std::array<uint32_t, kWordsPerTile>;

/// One MXU: two kMxuDim x kMxuDim weight tiles (bf16 values held as f32,
/// k-major so a row of weights is contiguous), the latched one pushes
/// multiply by and the one the last weight load staged (the same tile
/// until a load after a latch), and the result buffer slots that pushes
/// write or accumulate into.
struct MxuState {
  explicit MxuState(unsigned resultSlots)
      : results(size_t(resultSlots) * kWordsPerTile, 0.0f) {}

  struct WeightTile {
    std::vector<float> values = std::vector<float>(kMxuDim * kMxuDim, 0.0f);
    /// Its exponents, to tell when a pass may fuse.
    ExponentRange exponents;
  };
  std::array<WeightTile, 2> weightTiles;
  unsigned latched = 0, staged = 0;
  std::vector<float> results;

  const WeightTile &weights() const { return weightTiles[latched]; }
  /// The tile a weight load writes: never the latched one, which pushes
  /// still read.
  WeightTile &stage() {
    staged = 1 - latched;
    return weightTiles[staged];
  }
  void latch() { latched = staged; }
  float *slot(int64_t index) { return &results[size_t(index) * kWordsPerTile]; }
};

struct ArchState {
  ArchState(unsigned numMxus, unsigned resultSlots)
      : mxus(numMxus, MxuState(resultSlots)) {}

  /// s0 reads as zero; writes to it are dropped.
  std::array<uint32_t, isa::kNumScalarRegisters> sregs{};
  std::array<VReg, isa::kNumVectorRegisters> vregs{};
  std::vector<MxuState> mxus;
  /// Completed, not yet waited-for DMAs per semaphore.
  std::array<int64_t, isa::kNumSemaphores> semaphores{};
  /// Index of the bundle to issue next.
  int64_t pc = 0;
};

} // namespace tpu::sim

#endif // TPU_SIM_STATE_H
