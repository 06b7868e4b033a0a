//===- BF16ExhaustiveTest.cpp - All 2^32 f32 inputs -----------------------===//
//
// The conversion and the split are checked on every f32 bit pattern against
// a formula that shares nothing with the implementation: the implementation
// adds a rounding bias to the bits; the reference picks the nearer of the two
// neighbouring bf16 values by comparing distances in double arithmetic. LLVM's
// APFloat is a third opinion on a sample.
//
//===----------------------------------------------------------------------===//

#include "tpu/Support/BF16.h"

#include "TestUtils/ForAllFloatBits.h"

#include "llvm/ADT/APFloat.h"
#include "gtest/gtest.h"

#include <atomic>
#include <cmath>

using namespace tpu;
using tpu::testing::forAllFloatBits;

namespace {

/// What docs/Numerics.md says a conversion must give, from first principles.
uint16_t referenceToBF16(uint32_t bits, BF16Rounding rounding) {
  float value = floatOf(bits);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  if (std::isnan(value))
    return static_cast<uint16_t>(bits >> 16) | 0x0040;
  if (value == 0.0f || std::fpclassify(value) == FP_SUBNORMAL)
    return sign;
  uint16_t towardZero = static_cast<uint16_t>(bits >> 16);
  if (std::isinf(value) || rounding == BF16Rounding::Truncate)
    return towardZero;
  uint16_t awayFromZero = towardZero + 1;
  double below = std::fabs(double(fromBF16(towardZero)));
  // Past the largest bf16 the next step up would be 2^128; reaching it means
  // overflow, and the bits of towardZero + 1 are then those of inf.
  double above = (awayFromZero & 0x7FFF) == 0x7F80
                     ? std::ldexp(1.0, 128)
                     : std::fabs(double(fromBF16(awayFromZero)));
  double magnitude = std::fabs(double(value));
  double distBelow = magnitude - below, distAbove = above - magnitude;
  if (distBelow != distAbove)
    return distBelow < distAbove ? towardZero : awayFromZero;
  return (towardZero & 1) ? awayFromZero : towardZero;
}

TEST(BF16ExhaustiveTest, ConversionMatchesReferenceOnAllInputs) {
  std::atomic<uint32_t> firstFailure{0};
  uint64_t failures = forAllFloatBits([&](uint32_t bits) {
    float value = floatOf(bits);
    bool ok =
        toBF16(value) == referenceToBF16(bits, BF16Rounding::NearestEven) &&
        toBF16(value, BF16Rounding::Truncate) ==
            referenceToBF16(bits, BF16Rounding::Truncate);
    if (!ok)
      firstFailure = bits;
    return ok;
  });
  EXPECT_EQ(failures, 0u) << "e.g. bits 0x" << std::hex << firstFailure;
}

TEST(BF16ExhaustiveTest, SplitIsExactOnAllInputs) {
  // For every finite input and both roundings: the parts are bf16 values,
  // finite, and sum exactly to the input, unless a residual fell into the
  // flushed subnormal range (possible only for |x| < 2^-100).
  std::atomic<uint32_t> firstFailure{0};
  uint64_t failures = forAllFloatBits([&](uint32_t bits) {
    float value = floatOf(bits);
    if (!std::isfinite(value))
      return true;
    for (BF16Rounding rounding :
         {BF16Rounding::NearestEven, BF16Rounding::Truncate}) {
      BF16Split split = splitToBF16(value, rounding);
      // A finite bf16 value has zero low bits; the flush to zero makes
      // an f32 subnormal part impossible too.
      auto isFiniteBF16 = [](float part) {
        return (bitsOf(part) & 0xFFFFu) == 0 && std::isfinite(part) &&
               std::fpclassify(part) != FP_SUBNORMAL;
      };
      bool partsOk = isFiniteBF16(split.hi) && isFiniteBF16(split.mid) &&
                     isFiniteBF16(split.lo);
      double error = double(value) -
                     (double(split.hi) + double(split.mid) + double(split.lo));
      bool sumOk = std::fabs(value) >= 0x1p-100f ? error == 0.0
                                                 : std::fabs(error) < 0x1p-126;
      if (!partsOk || !sumOk) {
        firstFailure = bits;
        return false;
      }
    }
    return true;
  });
  EXPECT_EQ(failures, 0u) << "e.g. bits 0x" << std::hex << firstFailure;
}

TEST(BF16ExhaustiveTest, ConversionAgreesWithAPFloat) {
  // APFloat rounds like IEEE hardware; it knows nothing of the TPU's flushing
  // or NaN quieting, so only normal, zero and infinite inputs are compared.
  // Sampled: every rounding boundary of every bf16 value, and a stride.
  auto check = [](uint32_t bits) {
    float value = floatOf(bits);
    if (std::isnan(value) || std::fpclassify(value) == FP_SUBNORMAL)
      return;
    llvm::APFloat reference(value);
    bool losesInfo;
    reference.convert(llvm::APFloat::BFloat(),
                      llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    uint64_t expected = reference.bitcastToAPInt().getZExtValue();
    ASSERT_EQ(toBF16(value), expected) << std::hex << bits;
  };
  for (uint32_t upper = 0; upper <= 0xFFFF; ++upper)
    for (uint32_t lower :
         {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu})
      check((upper << 16) | lower);
  for (uint64_t bits = 0; bits < (1ull << 32); bits += 4099)
    check(static_cast<uint32_t>(bits));
}

} // namespace
