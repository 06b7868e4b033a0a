//===- BF16Test.cpp - Targeted cases of the bf16 numerics -----------------===//

#include "tpu/Support/BF16.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

using namespace tpu;

namespace {

uint16_t rne(uint32_t bits) { return toBF16(floatOf(bits)); }
uint16_t trunc(uint32_t bits) {
  return toBF16(floatOf(bits), BF16Rounding::Truncate);
}

TEST(BF16Test, ExactValuesAreKept) {
  EXPECT_EQ(rne(0x3F800000), 0x3F80); // 1.0
  EXPECT_EQ(rne(0xC0490000), 0xC049); // -3.140625
  EXPECT_EQ(rne(0x00000000), 0x0000);
  EXPECT_EQ(rne(0x80000000), 0x8000); // -0 keeps its sign
}

TEST(BF16Test, RoundsToNearestTiesToEven) {
  EXPECT_EQ(rne(0x3F807FFF), 0x3F80); // below half: down
  EXPECT_EQ(rne(0x3F808001), 0x3F81); // above half: up
  EXPECT_EQ(rne(0x3F808000), 0x3F80); // tie, even below: down
  EXPECT_EQ(rne(0x3F818000), 0x3F82); // tie, odd below: up to even
  EXPECT_EQ(rne(0xBF818000), 0xBF82); // same magnitude rule when negative
  EXPECT_EQ(rne(0x3FFFFFFF), 0x4000); // carry into the exponent
}

TEST(BF16Test, OverflowGoesToInfinity) {
  EXPECT_EQ(rne(0x7F7FFFFF), 0x7F80);   // FLT_MAX
  EXPECT_EQ(rne(0xFF7FFFFF), 0xFF80);   // -FLT_MAX
  EXPECT_EQ(rne(0x7F7F8000), 0x7F80);   // tie above the largest bf16: to inf
  EXPECT_EQ(rne(0x7F7F7FFF), 0x7F7F);   // just below the tie: largest bf16
  EXPECT_EQ(trunc(0x7F7FFFFF), 0x7F7F); // truncation never overflows
}

TEST(BF16Test, InfinityStaysInfinity) {
  for (uint32_t bits : {0x7F800000u, 0xFF800000u}) {
    EXPECT_EQ(rne(bits), bits >> 16);
    EXPECT_EQ(trunc(bits), bits >> 16);
  }
}

TEST(BF16Test, NaNStaysNaNAndComesOutQuiet) {
  EXPECT_EQ(rne(0x7FC00000), 0x7FC0);   // quiet NaN
  EXPECT_EQ(rne(0x7F800001), 0x7FC0);   // signalling, payload in low bits only
  EXPECT_EQ(rne(0xFF812345), 0xFFC1);   // sign and top payload kept
  EXPECT_EQ(trunc(0x7F800001), 0x7FC0); // truncation must not make an inf
  EXPECT_EQ(rne(0x7FFFFFFF), 0x7FFF);   // no carry out of a NaN
  EXPECT_TRUE(std::isnan(roundToBF16(std::numeric_limits<float>::quiet_NaN())));
}

TEST(BF16Test, SubnormalsFlushToSignedZero) {
  EXPECT_EQ(rne(0x00000001), 0x0000);
  EXPECT_EQ(rne(0x007FFFFF), 0x0000); // would round up to the smallest normal
  EXPECT_EQ(rne(0x807FFFFF), 0x8000);
  EXPECT_EQ(trunc(0x80400000), 0x8000);
  EXPECT_EQ(rne(0x00800000), 0x0080); // the smallest normal is kept
}

TEST(BF16Test, TruncationDropsTheLowHalf) {
  EXPECT_EQ(trunc(0x3F80FFFF), 0x3F80);
  EXPECT_EQ(trunc(0xBF80FFFF), 0xBF80);
  EXPECT_EQ(trunc(0x3F818000), 0x3F81);
}

TEST(BF16Test, EveryBF16RoundTripsExceptSubnormalsAndSignallingNaNs) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    uint16_t bf16 = static_cast<uint16_t>(bits);
    float widened = fromBF16(bf16);
    EXPECT_EQ(bitsOf(widened), bits << 16) << "widening is exact";
    uint16_t magnitude = bf16 & 0x7FFF;
    uint16_t expected = bf16;
    if (magnitude != 0 && magnitude < 0x0080)
      expected = bf16 & 0x8000; // subnormal: flushed
    else if (magnitude > 0x7F80)
      expected = bf16 | 0x0040; // NaN: quieted
    ASSERT_EQ(toBF16(widened), expected) << std::hex << bits;
    ASSERT_EQ(toBF16(widened, BF16Rounding::Truncate), expected)
        << std::hex << bits;
  }
}

TEST(BF16Test, IsBF16Exact) {
  EXPECT_TRUE(isBF16Exact(1.0f));
  EXPECT_TRUE(isBF16Exact(-0.0f));
  EXPECT_TRUE(isBF16Exact(std::numeric_limits<float>::infinity()));
  EXPECT_FALSE(isBF16Exact(1.0f + 0x1p-10f));
  EXPECT_FALSE(isBF16Exact(floatOf(0x00010000))); // subnormal: flushes
  EXPECT_FALSE(isBF16Exact(floatOf(0x7F800001))); // sNaN: gets quieted
}

TEST(BF16Test, SplitIntoThreeParts) {
  float value = 1.0f + 0x1p-10f + 0x1p-20f;
  for (BF16Rounding rounding :
       {BF16Rounding::NearestEven, BF16Rounding::Truncate}) {
    BF16Split split = splitToBF16(value, rounding);
    EXPECT_EQ(split.hi, 1.0f);
    EXPECT_EQ(split.mid, 0x1p-10f);
    EXPECT_EQ(split.lo, 0x1p-20f);
  }
}

TEST(BF16Test, SplitRoundingDiffersFromTruncation) {
  // 1 + 255/256 * 2^-7 + tiny: nearest rounds hi up, truncation down.
  float value = floatOf(0x3F80FF01);
  BF16Split nearest = splitToBF16(value);
  BF16Split truncated = splitToBF16(value, BF16Rounding::Truncate);
  EXPECT_EQ(bitsOf(nearest.hi), 0x3F810000u);
  EXPECT_LT(nearest.mid, 0.0f); // the residual below the rounded-up hi
  EXPECT_EQ(bitsOf(truncated.hi), 0x3F800000u);
  EXPECT_GT(truncated.mid, 0.0f);
  for (const BF16Split &split : {nearest, truncated})
    EXPECT_EQ(double(split.hi) + double(split.mid) + double(split.lo),
              double(value));
}

TEST(BF16Test, SplitNearFltMaxTruncatesHi) {
  for (float value :
       {std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
        floatOf(0x7F7F8000)}) {
    BF16Split split = splitToBF16(value);
    EXPECT_TRUE(std::isfinite(split.hi)) << value;
    EXPECT_EQ(bitsOf(split.hi), bitsOf(value) & 0xFFFF0000u);
    EXPECT_EQ(double(split.hi) + double(split.mid) + double(split.lo),
              double(value));
  }
}

TEST(BF16Test, SplitOfNonFiniteValues) {
  float inf = std::numeric_limits<float>::infinity();
  BF16Split split = splitToBF16(-inf);
  EXPECT_EQ(split.hi, -inf);
  EXPECT_TRUE(std::isnan(split.mid)); // inf - inf: the NaN fix-up's job
  EXPECT_TRUE(std::isnan(split.lo));
  EXPECT_TRUE(std::isnan(splitToBF16(std::nanf("")).hi));
}

TEST(BF16Test, HighUsesTwoPartsHighestThree) {
  // The error of hi+mid (HIGH) is below 2^-16 relative, of hi+mid+lo
  // (HIGHEST) zero, for values away from the subnormal range.
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  for (int i = 0; i < 10000; ++i) {
    float value = dist(rng);
    BF16Split split = splitToBF16(value);
    double two = double(split.hi) + double(split.mid);
    EXPECT_LE(std::fabs(two - value), std::fabs(value) * 0x1p-16);
    EXPECT_EQ(two + double(split.lo), double(value));
  }
}

} // namespace
