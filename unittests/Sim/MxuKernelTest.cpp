//===- MxuKernelTest.cpp - The MXU's SIMD kernels on every target ---------===//
//
// Each kernel is held, on every SIMD target, to a plain loop written from
// docs/Numerics.md: a pass is a sum in ascending k of products, each add
// rounded (the project builds with -ffp-contract=off, so the loop never
// fuses); the operands round as toBF16 does.
//
//===----------------------------------------------------------------------===//

#include "HwyTargets.h"

#include "tpu/Sim/MxuKernel.h"
#include "tpu/Support/BF16.h"
#include "tpu/Support/Chip.h"
#include "tpu/Support/Float.h"
#include "tpu/Support/TiledLayout.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <vector>

using namespace tpu;
using namespace tpu::sim;
using tpu::sim::testing::forEachHwyTarget;

namespace {

/// The pass as docs/Numerics.md states it.
std::vector<float> referencePass(const std::vector<float> &weights,
                                 const std::vector<float> &lhs,
                                 std::vector<float> slot, bool accumulate) {
  for (unsigned r = 0; r < kSublanes; ++r)
    for (unsigned n = 0; n < kMxuDim; ++n) {
      float sum = 0.0f;
      for (unsigned k = 0; k < kMxuDim; ++k)
        sum = sum + lhs[r * kMxuDim + k] * weights[k * kMxuDim + n];
      float &out = slot[r * kMxuDim + n];
      out = accumulate ? out + sum : sum;
    }
  return slot;
}

std::vector<float> randomBF16(size_t count, unsigned seed, float scale = 1) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  std::vector<float> values(count);
  for (float &value : values)
    value = roundToBF16(normal(rng));
  return values;
}

ExponentRange rangeOf(const std::vector<float> &values) {
  ExponentRange range;
  for (float value : values)
    range.add(value);
  return range;
}

void expectPass(const std::vector<float> &weights,
                const std::vector<float> &lhs, bool fuse) {
  std::vector<float> start = randomBF16(kWordsPerTile, 99);
  for (bool accumulate : {false, true}) {
    std::vector<float> expected =
        referencePass(weights, lhs, start, accumulate);
    std::vector<float> slot = start;
    mxuPass(weights.data(), lhs.data(), slot.data(), accumulate, fuse);
    for (size_t i = 0; i < kWordsPerTile; ++i)
      ASSERT_EQ(bitsOf(slot[i]), bitsOf(expected[i]))
          << "row " << i / kMxuDim << " column " << i % kMxuDim
          << (accumulate ? ", accumulating" : "");
  }
}

TEST(MxuKernelTest, PassMatchesTheSumOnEveryTarget) {
  std::vector<float> weights = randomBF16(kMxuDim * kMxuDim, 1);
  std::vector<float> lhs = randomBF16(kWordsPerTile, 2, 1000.0f);
  ASSERT_TRUE(productsAreExact(rangeOf(lhs), rangeOf(weights)));
  forEachHwyTarget([&] {
    expectPass(weights, lhs, /*fuse=*/true);
    expectPass(weights, lhs, /*fuse=*/false);
  });
}

// Where a product is not exact, fusing would round differently; the
// unfused pass must still round each product on its own. Row 0 sums
// 3 * 2^-149 (exact, subnormal) and 2^-75 * 2^-75 = 2^-150: rounded alone,
// the product ties to 0 and the sum stays 3 * 2^-149; fused, the sum is the
// tie 3.5 * 2^-149 and rounds to 4 * 2^-149. Row 1 sums -2^127 and
// 2^64 * 2^64 = 2^128: rounded alone the product overflows and the sum is
// inf; fused it would be 2^127. The same sums at rows 4 and 5, columns
// 122 and 123, land in the blocks of 8 rows by one vector that take the
// columns the wider blocks leave (AVX2, SSE4).
TEST(MxuKernelTest, UnfusedPassRoundsEachProduct) {
  std::vector<float> weights(kMxuDim * kMxuDim, 0.0f),
      lhs(kWordsPerTile, 0.0f);
  for (auto [row, column] : {std::pair<unsigned, unsigned>(0, 0), {4, 122}}) {
    weights[0 * kMxuDim + column] = std::ldexp(1.5f, -74);
    lhs[row * kMxuDim + 0] = std::ldexp(1.0f, -74);
    weights[1 * kMxuDim + column] = std::ldexp(1.0f, -75);
    lhs[row * kMxuDim + 1] = std::ldexp(1.0f, -75);
    weights[0 * kMxuDim + column + 1] = -std::ldexp(1.0f, 127);
    lhs[(row + 1) * kMxuDim + 0] = 1.0f;
    weights[1 * kMxuDim + column + 1] = std::ldexp(1.0f, 64);
    lhs[(row + 1) * kMxuDim + 1] = std::ldexp(1.0f, 64);
  }
  EXPECT_FALSE(productsAreExact(rangeOf(lhs), rangeOf(weights)));
  std::vector<float> expected(kWordsPerTile, 0.0f);
  expected = referencePass(weights, lhs, expected, false);
  EXPECT_EQ(expected[0], std::ldexp(3.0f, -149));
  EXPECT_EQ(expected[kMxuDim + 1], INFINITY);
  EXPECT_EQ(expected[4 * kMxuDim + 122], std::ldexp(3.0f, -149));
  EXPECT_EQ(expected[5 * kMxuDim + 123], INFINITY);
  forEachHwyTarget([&] { expectPass(weights, lhs, /*fuse=*/false); });
}

TEST(MxuKernelTest, ProductsAreExactAtTheBoundsAndNotPast) {
  auto range = [](std::initializer_list<float> values) {
    ExponentRange result;
    for (float value : values)
      result.add(value);
    return result;
  };
  // Largest: below 2^(63+1) * 2^(63+1) = 2^128.
  EXPECT_TRUE(productsAreExact(range({0x1.FEp63f}), range({0x1.FEp63f})));
  EXPECT_FALSE(productsAreExact(range({0x1p64f}), range({0x1p63f})));
  // Smallest: 2^-63 * 2^-63 = 2^-126, normal; 2^-127 is not.
  EXPECT_TRUE(productsAreExact(range({0x1p-63f}), range({0x1p-63f})));
  EXPECT_FALSE(productsAreExact(range({0x1p-64f}), range({0x1p-63f})));
  // Zeros, infinities and NaNs bound nothing; subnormals are not bf16.
  EXPECT_TRUE(productsAreExact(range({0.0f, -0.0f, INFINITY, NAN}),
                               range({0x1p127f, 0x1p-126f})));
  EXPECT_FALSE(productsAreExact(range({0x1p-140f}), range({1.0f})));
  // A wide set bounds both ways at once.
  EXPECT_FALSE(
      productsAreExact(range({0x1p-100f, 0x1p100f}), range({0x1p-30f})));
}

// The claim behind productsAreExact, checked directly: where it holds, a
// fused multiply-add and a multiply then an add give the same bits.
TEST(MxuKernelTest, FusingIsExactWhereProductsAreExact) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> exponent(-126, 127);
  std::uniform_int_distribution<uint32_t> bits;
  int checked = 0;
  for (int i = 0; i < 200000; ++i) {
    float a = roundToBF16(std::ldexp(1.0f + float(bits(rng) % 256) / 256,
                                     exponent(rng)));
    float w = roundToBF16(std::ldexp(1.0f + float(bits(rng) % 256) / 256,
                                     exponent(rng)));
    float c = floatOf(bits(rng));
    ExponentRange ra, rw;
    ra.add(a);
    rw.add(w);
    if (!productsAreExact(ra, rw) || std::isnan(c))
      continue;
    ++checked;
    float product = a * w;
    ASSERT_EQ(bitsOf(std::fma(a, w, c)), bitsOf(c + product))
        << a << " * " << w << " + " << c;
  }
  EXPECT_GT(checked, 50000);
}

TEST(MxuKernelTest, RoundingMatchesToBF16OnEveryTarget) {
  std::vector<uint32_t> words = {
      0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x3F808000,
      0x3F818000, 0x3F80FFFF, 0x7F7FFFFF, 0x7F7F8000, 0xFF7F7FFF, 0x7F800000,
      0xFF800000, 0x7F800001, 0xFFC01234, 0x7FBFFFFF, 0x00FFFFFF, 0x3F7FFFFF};
  std::mt19937 rng(3);
  std::uniform_int_distribution<uint32_t> bits;
  while (words.size() < 100003) // not a multiple of any vector length
    words.push_back(bits(rng));
  forEachHwyTarget([&] {
    std::vector<float> out(words.size());
    ExponentRange range = roundToBF16Words(words.data(), words.size(),
                                           out.data());
    ExponentRange expected;
    for (size_t i = 0; i < words.size(); ++i) {
      float want = roundToBF16(floatOf(words[i]));
      ASSERT_EQ(bitsOf(out[i]), bitsOf(want)) << std::hex << words[i];
      expected.add(want);
    }
    EXPECT_EQ(range.min, expected.min);
    EXPECT_EQ(range.max, expected.max);
    EXPECT_FALSE(range.hasSubnormal);
  });
  // The range of a set with nothing normal is empty.
  forEachHwyTarget([&] {
    std::vector<uint32_t> specials(64, 0x7FC00000);
    specials[5] = 0x00000001;
    std::vector<float> out(specials.size());
    ExponentRange range =
        roundToBF16Words(specials.data(), specials.size(), out.data());
    EXPECT_EQ(range.max, INT_MIN);
  });
}

} // namespace
