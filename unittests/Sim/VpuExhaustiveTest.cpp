//===- VpuExhaustiveTest.cpp - v.exp on all 2^32 inputs -------------------===//
//
// docs/Numerics.md's error table, recomputed: the simulator's exp against
// the correctly rounded result on every f32 input, and against the
// reference model's own copy of the algorithm, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "tpu/Reference/ElementwiseReference.h"
#include "tpu/Sim/VpuArithmetic.h"
#include "tpu/Support/Float.h"

#include "TestUtils/ForAllFloatBits.h"
#include "gtest/gtest.h"

#include <array>
#include <cmath>
#include <cstdio>

using namespace tpu;

namespace {

/// The f32 bit patterns in numeric order, so that adjacent floats differ by
/// one: -0 and +0 both map to 0.
int64_t orderedBits(uint32_t bits) {
  int64_t magnitude = bits & 0x7FFFFFFFu;
  return (bits & 0x80000000u) ? -magnitude : magnitude;
}

/// exp(x) correctly rounded to f32 (glibc's double exp is within an ulp of
/// double, far below half an f32 ulp), then flushed as the VPU flushes,
/// for x read as the VPU reads it.
uint32_t correctlyRoundedExp(uint32_t bits) {
  if ((bits & 0x7F800000u) == 0)
    bits &= 0x80000000u;
  uint32_t result = bitsOf(float(std::exp(double(floatOf(bits)))));
  return (result & 0x7F800000u) == 0 ? 0 : result;
}

TEST(VpuExhaustiveTest, ExpIsWithinOneUlpEverywhere) {
  const reference::ElementwiseOp *modelExp =
      reference::lookupElementwiseOp("exp");
  ASSERT_NE(modelExp, nullptr);
  // histogram[d]: inputs d ulps from the correctly rounded result (the
  // last bucket: more).
  std::array<std::atomic<uint64_t>, 3> histogram{};
  std::atomic<uint32_t> disagreement{0}, worstInput{0};
  uint64_t failures = tpu::testing::forAllFloatBits([&](uint32_t bits) {
    uint32_t got = sim::vpuExp(bits);
    if (got != bitsOf(modelExp->apply(floatOf(bits), 0))) {
      disagreement = bits;
      return false;
    }
    if (std::isnan(floatOf(bits)))
      return got == kCanonicalNaNBits;
    int64_t ulps =
        std::llabs(orderedBits(got) - orderedBits(correctlyRoundedExp(bits)));
    ++histogram[std::min<int64_t>(ulps, 2)];
    if (ulps > 1)
      worstInput = bits;
    return ulps <= 1;
  });
  EXPECT_EQ(failures, 0u) << "simulator and model disagree on 0x" << std::hex
                          << disagreement << ", or more than 1 ulp at 0x"
                          << worstInput;
  uint64_t total = histogram[0] + histogram[1] + histogram[2];
  std::printf("exp over %llu non-NaN inputs: %.2f %% correctly rounded, "
              "%.2f %% 1 ulp off, %llu more\n",
              (unsigned long long)total, 100.0 * histogram[0] / total,
              100.0 * histogram[1] / total,
              (unsigned long long)histogram[2].load());
}

} // namespace
