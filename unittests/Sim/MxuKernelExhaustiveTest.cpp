//===- MxuKernelExhaustiveTest.cpp - MXU operand rounding, all inputs -----===//
//
// The MXU's SIMD operand rounding against toBF16 (itself checked on every
// input by BF16ExhaustiveTest) on all 2^32 f32 inputs, on every target.
//
//===----------------------------------------------------------------------===//

#include "HwyTargets.h"

#include "tpu/Sim/MxuKernel.h"
#include "tpu/Support/BF16.h"
#include "tpu/Support/Float.h"

#include "TestUtils/ForAllFloatBits.h"

#include "gtest/gtest.h"

#include <atomic>
#include <vector>

using namespace tpu;
using namespace tpu::sim;

TEST(MxuKernelExhaustiveTest, RoundingMatchesToBF16OnAllInputs) {
  tpu::sim::testing::forEachHwyTarget([] {
    std::atomic<uint64_t> failures{0};
    tpu::testing::forAllFloatRanges([&](uint64_t begin, uint64_t end) {
      constexpr size_t kChunk = 4096;
      std::vector<uint32_t> words(kChunk);
      std::vector<float> out(kChunk);
      uint64_t local = 0;
      for (uint64_t first = begin; first < end; first += kChunk) {
        size_t count = size_t(std::min<uint64_t>(kChunk, end - first));
        for (size_t i = 0; i < count; ++i)
          words[i] = uint32_t(first + i);
        roundToBF16Words(words.data(), count, out.data());
        for (size_t i = 0; i < count; ++i)
          local += bitsOf(out[i]) != bitsOf(roundToBF16(floatOf(words[i])));
      }
      failures += local;
    });
    EXPECT_EQ(failures.load(), 0u);
  });
}
