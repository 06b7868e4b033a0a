//===- ForAllFloatBits.h - Run a check on every f32 bit pattern -*- C++ -*-===//
//
// The exhaustive numeric tests' loop: all 2^32 patterns, split over the
// host's cores.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_UNITTESTS_TESTUTILS_FORALLFLOATBITS_H
#define TPU_UNITTESTS_TESTUTILS_FORALLFLOATBITS_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace tpu::testing {

/// Runs `range(begin, end)` on slices of the 2^32 patterns, one thread per
/// core: per-thread state lives in `range`, so the threads share nothing
/// while they run.
template <typename RangeFn>
inline void forAllFloatRanges(const RangeFn &range) {
  unsigned numThreads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  uint64_t chunk = ((1ull << 32) + numThreads - 1) / numThreads;
  for (unsigned t = 0; t < numThreads; ++t)
    threads.emplace_back([&, t] {
      uint64_t begin = t * chunk;
      range(begin, std::min<uint64_t>(1ull << 32, begin + chunk));
    });
  for (std::thread &thread : threads)
    thread.join();
}

/// Runs `check(bits)` on every 32-bit pattern over all cores and returns how
/// many failed. `check` returns false on a failure.
template <typename CheckFn>
inline uint64_t forAllFloatBits(const CheckFn &check) {
  std::atomic<uint64_t> failures{0};
  forAllFloatRanges([&](uint64_t begin, uint64_t end) {
    uint64_t local = 0;
    for (uint64_t bits = begin; bits < end; ++bits)
      if (!check(static_cast<uint32_t>(bits)))
        ++local;
    failures += local;
  });
  return failures;
}

} // namespace tpu::testing

#endif // TPU_UNITTESTS_TESTUTILS_FORALLFLOATBITS_H
