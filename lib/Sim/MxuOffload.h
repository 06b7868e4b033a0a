//===- MxuOffload.h - MXU passes on a second host thread --------*- C++ -*-===//
//
// With SimulatorOptions::hostThreads = 2, a helper thread computes part of
// the MXUs' passes (those into some of each MXU's result slots), in the
// order the program pushed them, while the step loop goes on. The results
// are the same bits: the passes into one slot still run one after another
// on one thread, weight tiles are only read by passes, and before the
// step loop touches what a queued pass reads or writes it waits for that
// pass, and no later one: a pop for the last pass into its slot, a weight
// load for the passes that multiplied by the tile it rewrites (those
// pushed before the MXU's last latch), the end of the run for all.
// Internal to the simulator library.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_MXUOFFLOAD_H
#define TPU_LIB_SIM_MXUOFFLOAD_H

#include "tpu/Sim/MxuKernel.h"
#include "tpu/Support/TiledLayout.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tpu::sim {

class MxuOffload {
public:
  /// For a core of `numMxus` MXUs with `resultSlots` slots each.
  MxuOffload(unsigned numMxus, unsigned resultSlots);
  ~MxuOffload();
  MxuOffload(const MxuOffload &) = delete;
  MxuOffload &operator=(const MxuOffload &) = delete;

  /// Whether the passes into `slot` of `mxu` run on the helper. Passes
  /// into one slot always run on one thread, in order.
  bool isOffloaded(int64_t mxu, int64_t slot) const {
    return mxu * kSlotClasses + slot % kSlotClasses >= firstOffloadedClass;
  }

  /// A pass to fill in and submit: the pushed vreg's words as the program
  /// wrote them (the helper rounds them to bf16, as the MXU reads them)
  /// and the pass's operands. Waits while the queue is full.
  struct Pass {
    alignas(64) uint32_t words[kWordsPerTile];
    const float *weights;
    /// The latched tile's exponents, to tell whether the pass may fuse.
    ExponentRange weightExponents;
    float *slot;
    bool accumulate;
  };
  Pass &nextPass();
  /// Queues the pass nextPass() returned: MXU `mxu`'s into result slot
  /// `slot`.
  void submit(int64_t mxu, int64_t slot);

  /// Records an mxu.latch of `mxu`: the passes queued so far multiply by
  /// the tile the next weight load of `mxu` rewrites.
  void latched(int64_t mxu);
  /// Returns when no queued pass reads the tile a weight load of `mxu`
  /// rewrites.
  void syncWeightLoad(int64_t mxu);
  /// Returns when the passes queued into `slot` of `mxu` have run; their
  /// results are then visible to the caller.
  void syncSlot(int64_t mxu, int64_t slot);
  /// Returns when every submitted pass has run.
  void drain();

private:
  void loop();
  /// Returns when the first `count` passes have run.
  void waitFor(uint64_t count);

  static constexpr uint64_t kCapacity = 64;
  /// The helper takes the passes into the last kOffloadedClasses of every
  /// kSlotClasses classes of (MXU, slot % kSlotClasses), in MXU-major
  /// order: five eighths, as the step loop's thread has the rest of the
  /// simulation to run besides its passes (measured on the 1024^3 matmul:
  /// half ran 4-13% slower, three quarters 15%; docs/Simulator.md,
  /// "Speed").
  static constexpr int64_t kSlotClasses = 8;
  static constexpr int64_t kOffloadedClasses = 5;
  const int64_t firstOffloadedClass;
  const unsigned resultSlots;
  std::unique_ptr<Pass[]> passes;
  /// The step loop's own: per MXU, the passes submitted before its last
  /// latch, and per slot the count up to its last offloaded pass.
  std::vector<uint64_t> submittedBeforeLatch;
  std::vector<uint64_t> submittedThroughSlot;
  /// Passes submitted and finished so far. Each side spins on the other's
  /// counter for a while; then the helper sleeps on `wake`, so an idle or
  /// oversubscribed host does not lose a core to it.
  alignas(64) std::atomic<uint64_t> submitted{0};
  alignas(64) std::atomic<uint64_t> finished{0};
  std::atomic<bool> sleeping{false};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable wake;
  std::thread thread;
};

} // namespace tpu::sim

#endif // TPU_LIB_SIM_MXUOFFLOAD_H
