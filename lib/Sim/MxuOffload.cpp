//===- MxuOffload.cpp - MXU passes on a second host thread ----------------===//

#include "MxuOffload.h"

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

MxuOffload::MxuOffload(unsigned numMxus, unsigned resultSlots)
    : firstOffloadedClass(int64_t(numMxus) *
                          (kSlotClasses - kOffloadedClasses)),
      resultSlots(resultSlots), passes(new Pass[kCapacity]),
      submittedBeforeLatch(numMxus, 0),
      submittedThroughSlot(size_t(numMxus) * resultSlots, 0),
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

void MxuOffload::submit(int64_t mxu, int64_t slot) {
  uint64_t count = submitted.fetch_add(1, std::memory_order_seq_cst) + 1;
  submittedThroughSlot[size_t(mxu) * resultSlots + slot] = count;
  // The helper sets `sleeping` before it checks `submitted` under the
  // mutex, so either it sees the new count or this sees it asleep.
  if (sleeping.load(std::memory_order_seq_cst)) {
    std::lock_guard<std::mutex> lock(mutex);
    wake.notify_one();
  }
}

void MxuOffload::latched(int64_t mxu) {
  submittedBeforeLatch[mxu] = submitted.load(std::memory_order_relaxed);
}

void MxuOffload::syncWeightLoad(int64_t mxu) {
  waitFor(submittedBeforeLatch[mxu]);
}

void MxuOffload::syncSlot(int64_t mxu, int64_t slot) {
  waitFor(submittedThroughSlot[size_t(mxu) * resultSlots + slot]);
}

void MxuOffload::drain() { waitFor(submitted.load(std::memory_order_relaxed)); }

void MxuOffload::waitFor(uint64_t count) {
  spinUntil([&] { return finished.load(std::memory_order_acquire) >= count; });
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
    mxuPassOfWords(pass.weights, pass.weightExponents, pass.words, pass.slot,
                   pass.accumulate);
    finished.store(++done, std::memory_order_release);
  }
}

} // namespace tpu::sim
