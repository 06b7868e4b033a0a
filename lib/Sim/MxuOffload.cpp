//===- MxuOffload.cpp - MXU passes on a second host thread ----------------===//

#include "MxuOffload.h"

#include "tpu/Sim/MxuKernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tpu::sim {

/// Spins before sleeping (helper) or yielding (step loop): long enough to
/// cover the gap between two pushes, short against a time slice.
static constexpr int kSpins = 20000;

static void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

/// Spins, then yields, until `done()`.
template <typename Done> static void spinUntil(const Done &done) {
  for (int i = 0; !done(); ++i) {
    if (i < kSpins)
      relax();
    else
      std::this_thread::yield();
  }
}

MxuOffload::MxuOffload(unsigned firstMxu)
    : firstMxu(firstMxu), passes(new Pass[kCapacity]),
      thread([this] { loop(); }) {}

MxuOffload::~MxuOffload() {
  drain();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_one();
  thread.join();
}

MxuOffload::Pass &MxuOffload::nextPass() {
  uint64_t next = submitted.load(std::memory_order_relaxed);
  spinUntil([&] {
    return next - finished.load(std::memory_order_acquire) < kCapacity;
  });
  return passes[next % kCapacity];
}

void MxuOffload::submit() {
  submitted.fetch_add(1, std::memory_order_seq_cst);
  // The helper sets `sleeping` before it checks `submitted` under the
  // mutex, so either it sees the new count or this sees it asleep.
  if (sleeping.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lock(mutex);
    wake.notify_one();
  }
}

void MxuOffload::drain() {
  uint64_t target = submitted.load(std::memory_order_relaxed);
  spinUntil(
      [&] { return finished.load(std::memory_order_acquire) == target; });
}

void MxuOffload::loop() {
  uint64_t done = 0;
  for (;;) {
    for (int i = 0; submitted.load(std::memory_order_acquire) == done; ++i) {
      if (stopping.load(std::memory_order_relaxed))
        return;
      if (i < kSpins) {
        relax();
        continue;
      }
      std::unique_lock<std::mutex> lock(mutex);
      sleeping.store(true, std::memory_order_seq_cst);
      wake.wait(lock, [&] {
        return submitted.load(std::memory_order_seq_cst) != done ||
               stopping.load(std::memory_order_relaxed);
      });
      sleeping.store(false, std::memory_order_relaxed);
      i = 0;
    }
    const Pass &pass = passes[done % kCapacity];
    mxuPass(pass.weights, pass.rows, pass.slot, pass.accumulate, pass.fuse);
    finished.store(++done, std::memory_order_release);
  }
}

} // namespace tpu::sim
