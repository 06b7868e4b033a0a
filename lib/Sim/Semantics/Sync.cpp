//===- Sync.cpp - nop and halt --------------------------------------------===//

#include "Semantics.h"

namespace tpu::sim {

TPU_NO_ISSUE_RULE(Sync)

TPU_SEMANTICS(Nop) { return true; }

/// The run ends. Every DMA must have been waited for: one still in flight,
/// or completed and not counted off its semaphore, is a program that
/// forgot a dma.wait (its data may not have arrived on a real chip).
TPU_SEMANTICS(Halt) {
  for (unsigned sem = 0; sem < isa::kNumSemaphores; ++sem) {
    int64_t outstanding =
        core.state.semaphores[sem] + int64_t(core.dma.pending[sem].size());
    if (outstanding == 0)
      continue;
    return core.trap(
        Trap::Kind::DmaOutstanding,
        "halt with " + std::to_string(outstanding) + " DMA(s) on semaphore " +
            std::to_string(sem) + " not waited for (the last issued at b" +
            std::to_string(core.dma.lastIssuedAt[sem]) +
            "); wait for every DMA (dma.wait " + std::to_string(sem) + ", " +
            std::to_string(outstanding) + ") before halt");
  }
  core.halt();
  return true;
}

} // namespace tpu::sim
