//===- State.h - Architectural state of one TensorCore ----------*- C++ -*-===//
//
// Registers, the MXUs' latched weights and result buffers, and the DMA
// semaphores: everything an instruction reads or writes that is not memory.
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

/// One MXU: the latched kMxuDim x kMxuDim weight tile (bf16 values held as
/// f32, k-major so a row of weights is contiguous) and the result buffer
/// slots that pushes write or accumulate into.
struct MxuState {
  explicit MxuState(unsigned resultSlots)
      : results(size_t(resultSlots) * kWordsPerTile, 0.0f) {}

  std::vector<float> weights = std::vector<float>(kMxuDim * kMxuDim, 0.0f);
  /// The latched weights' exponents, to tell when a pass may fuse.
  ExponentRange weightExponents;
  std::vector<float> results;

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
