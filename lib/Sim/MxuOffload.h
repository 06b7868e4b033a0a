//===- MxuOffload.h - MXU passes on a second host thread --------*- C++ -*-===//
//
// With SimulatorOptions::hostThreads = 2, the upper half of the core's MXUs
// compute their passes on a helper thread, in the order the program pushed
// them, while the step loop goes on. The results are the same bits: each
// MXU's passes still run one after another on one thread, and the step
// loop drains the queue before anything else touches an offloaded MXU's
// weights or result slots (a weight load, a pop, the end of the run).
// Internal to the simulator library.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_MXUOFFLOAD_H
#define TPU_LIB_SIM_MXUOFFLOAD_H

#include "tpu/Support/TiledLayout.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

namespace tpu::sim {

class MxuOffload {
public:
  /// MXUs [firstMxu, numMxus) are offloaded.
  explicit MxuOffload(unsigned firstMxu);
  ~MxuOffload();
  MxuOffload(const MxuOffload &) = delete;
  MxuOffload &operator=(const MxuOffload &) = delete;

  bool isOffloaded(int64_t mxu) const { return mxu >= firstMxu; }

  /// A pass to fill in and submit: room for its rounded LHS rows and its
  /// operands. Waits while the queue is full.
  struct Pass {
    alignas(64) float rows[kWordsPerTile];
    const float *weights;
    float *slot;
    bool accumulate;
    bool fuse;
  };
  Pass &nextPass();
  /// Queues the pass nextPass() returned.
  void submit();
  /// Returns when every submitted pass has run; their results are then
  /// visible to the caller.
  void drain();

private:
  void loop();

  static constexpr uint64_t kCapacity = 64;
  const unsigned firstMxu;
  std::unique_ptr<Pass[]> passes;
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
