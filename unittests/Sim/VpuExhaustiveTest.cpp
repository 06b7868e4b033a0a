//===- VpuExhaustiveTest.cpp - The VPU's functions on all 2^32 inputs -----===//
//
// docs/Numerics.md's error table, recomputed: each function of the
// simulator against the correctly rounded result on every f32 input, and
// against the reference model's own copy of the algorithm, bit for bit.
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

/// `value` rounded once to f32 and flushed as the VPU flushes. A long
/// double (or double, for a function libm gets within an ulp of double)
/// result is far closer than half an f32 ulp, so this is the correctly
/// rounded f32 result.
uint32_t roundAndFlush(long double value) {
  uint32_t bits = bitsOf(float(value));
  return (bits & 0x7F800000u) == 0 ? bits & 0x80000000u : bits;
}

struct Function {
  const char *name;
  uint32_t (*simulated)(uint32_t);
  /// The exact function, on the operand as the VPU reads it.
  long double (*exact)(long double);
  /// The most ulps docs/Numerics.md promises.
  int64_t maxUlps;
  /// The inputs, as bit patterns [first, last]: all of them unless a
  /// scaling argument makes a slice enough.
  uint64_t first = 0, last = 0xFFFFFFFFu;
};

/// Checks `function` on every input and prints its row of the table.
void checkEverywhere(const Function &function) {
  const reference::ElementwiseOp *model =
      reference::lookupElementwiseOp(function.name);
  ASSERT_NE(model, nullptr) << function.name;
  // histogram[d]: inputs d ulps from the correctly rounded result (the
  // last bucket: more). Each thread counts on its own and adds once.
  std::array<std::atomic<uint64_t>, 3> histogram{};
  std::atomic<uint64_t> failures{0};
  std::atomic<uint32_t> disagreement{0}, worstInput{0};
  std::atomic<int64_t> worst{0};
  tpu::testing::forAllFloatRanges([&](uint64_t begin, uint64_t end) {
    begin = std::max(begin, function.first);
    end = std::min(end, function.last + 1);
    std::array<uint64_t, 3> counts{};
    uint64_t failed = 0;
    int64_t localWorst = 0;
    uint32_t localWorstInput = 0;
    for (uint64_t i = begin; i < end; ++i) {
      uint32_t bits = uint32_t(i);
      uint32_t got = function.simulated(bits);
      if (got != bitsOf(model->apply(floatOf(bits), 0))) {
        disagreement = bits;
        ++failed;
        continue;
      }
      uint32_t read = (bits & 0x7F800000u) == 0 ? bits & 0x80000000u : bits;
      long double exact = function.exact(floatOf(read));
      if (std::isnan(exact)) {
        failed += got != kCanonicalNaNBits;
        continue;
      }
      uint32_t rounded = roundAndFlush(exact);
      // The ulp distance makes -0 and +0 one value; a zero's sign counts.
      if ((rounded & 0x7FFFFFFFu) == 0 && (got & 0x7FFFFFFFu) == 0 &&
          got != rounded) {
        disagreement = bits;
        ++failed;
        continue;
      }
      int64_t ulps = std::llabs(orderedBits(got) - orderedBits(rounded));
      ++counts[std::min<int64_t>(ulps, 2)];
      if (ulps > localWorst) {
        localWorst = ulps;
        localWorstInput = bits;
      }
      failed += ulps > function.maxUlps;
    }
    for (int d = 0; d < 3; ++d)
      histogram[d] += counts[d];
    failures += failed;
    int64_t seen = worst.load();
    while (localWorst > seen && !worst.compare_exchange_weak(seen, localWorst))
      ;
    if (localWorst > 0 && localWorst == worst.load())
      worstInput = localWorstInput;
  });
  EXPECT_EQ(failures.load(), 0u)
      << function.name << ": simulator and model disagree (or a zero has the "
      << "wrong sign) on 0x" << std::hex << disagreement << ", or more than " << function.maxUlps << " ulp at 0x"
      << worstInput;
  uint64_t total = histogram[0] + histogram[1] + histogram[2];
  std::printf("%s: max %lld ulp over %llu non-NaN results: %.3f %% correctly "
              "rounded, %.3f %% 1 ulp off, %llu more\n",
              function.name, (long long)worst.load(), (unsigned long long)total,
              100.0 * histogram[0] / total, 100.0 * histogram[1] / total,
              (unsigned long long)histogram[2].load());
}

TEST(VpuExhaustiveTest, Exp) {
  checkEverywhere(
      {"exp", sim::vpuExp,
       [](long double x) { return (long double)std::exp(double(x)); }, 1});
}

TEST(VpuExhaustiveTest, Tanh) {
  checkEverywhere(
      {"tanh", sim::vpuTanh,
       [](long double x) { return (long double)std::tanh(double(x)); }, 1});
}

TEST(VpuExhaustiveTest, Erf) {
  checkEverywhere(
      {"erf", sim::vpuErf,
       [](long double x) { return (long double)std::erf(double(x)); }, 2});
}

TEST(VpuExhaustiveTest, Log) {
  checkEverywhere({"log", sim::vpuLog,
                   [](long double x) {
                     return x == 0 ? -(long double)INFINITY
                                   : (long double)std::log(double(x));
                   },
                   1});
}

TEST(VpuExhaustiveTest, Sqrt) {
  checkEverywhere({"sqrt", sim::vpuSqrt,
                   [](long double x) {
                     // Double is enough: sqrt rounded to double, then to f32,
                     // is sqrt correctly rounded to f32.
                     return (long double)std::sqrt(double(x));
                   },
                   0});
}

/// rsqrt(4x) = rsqrt(x) / 2 exactly, in the exact function and in the
/// double computation alike, and no normal input gives a subnormal or an
/// infinite result: the inputs in [1, 4) (every mantissa, both exponent
/// parities) have the errors of every normal input. The rest are special
/// cases, checked one by one.
TEST(VpuExhaustiveTest, Rsqrt) {
  checkEverywhere({"rsqrt", sim::vpuRsqrt,
                   [](long double x) { return 1.0L / std::sqrt(x); }, 0,
                   bitsOf(1.0f), bitsOf(4.0f) - 1});
  EXPECT_EQ(sim::vpuRsqrt(bitsOf(0.0f)), bitsOf(INFINITY));
  EXPECT_EQ(sim::vpuRsqrt(bitsOf(-0.0f)), bitsOf(-INFINITY));
  EXPECT_EQ(sim::vpuRsqrt(0x00000001u), bitsOf(INFINITY)); // read as +0
  EXPECT_EQ(sim::vpuRsqrt(bitsOf(INFINITY)), 0u);
  EXPECT_EQ(sim::vpuRsqrt(bitsOf(-1.0f)), kCanonicalNaNBits);
  EXPECT_EQ(sim::vpuRsqrt(0xFFC01234u), kCanonicalNaNBits);
  EXPECT_EQ(floatOf(sim::vpuRsqrt(bitsOf(0x1p-126f))), 0x1p63f);
  EXPECT_EQ(floatOf(sim::vpuRsqrt(bitsOf(16.0f))), 0.25f);
}

} // namespace
