//===- BF16.h - TPU bfloat16 numerics ---------------------------*- C++ -*-===//
//
// The one definition of how this project turns f32 into bf16, shared by the
// compiler (constant folding, precision expansion) and the simulator (VPU
// conversions, MXU operand rounding). docs/Numerics.md is the contract:
//
//  - round to nearest, ties to even; overflow goes to +-inf;
//  - NaN stays NaN and comes out quiet, sign and top payload bits kept;
//  - inf stays inf;
//  - f32 subnormal inputs flush to a zero of the same sign, as the TPU's VPU
//    and MXU do. bf16 has f32's exponent range, so only f32 subnormals can
//    produce bf16 subnormals: flushing inputs is enough.
//
// This header depends on nothing but the C++ standard library, so the
// simulator can use it without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_BF16_H
#define TPU_SUPPORT_BF16_H

#include "tpu/Support/Float.h"

#include <cstdint>

namespace tpu {

/// How an f32 is narrowed to bf16.
enum class BF16Rounding {
  /// Round to nearest, ties to even (the TPU's conversion, and the default
  /// split rounding).
  NearestEven,
  /// Drop the low 16 bits (mask 0xFFFF0000), as XLA's GPU bf16_3x/bf16_6x
  /// rewriter does. NaN, inf and subnormal handling are the same as above.
  Truncate,
};

/// Narrows an f32 to the bit pattern of a bf16. Inline: the simulator's MXU
/// loop calls it for every operand.
inline uint16_t toBF16(float value,
                       BF16Rounding rounding = BF16Rounding::NearestEven) {
  constexpr uint32_t kSignMask = 0x80000000u;
  constexpr uint32_t kAbsMask = 0x7FFFFFFFu;
  constexpr uint32_t kInfBits = 0x7F800000u;
  constexpr uint32_t kMinNormalBits = 0x00800000u;
  constexpr uint16_t kBF16QuietBit = 0x0040u; // top mantissa bit
  uint32_t bits = bitsOf(value);
  uint32_t magnitude = bits & kAbsMask;
  if (magnitude > kInfBits) // NaN: keep sign and top payload, force quiet.
    return static_cast<uint16_t>(bits >> 16) | kBF16QuietBit;
  if (magnitude < kMinNormalBits) // Zero or subnormal: flush, keep the sign.
    return static_cast<uint16_t>((bits & kSignMask) >> 16);
  if (rounding == BF16Rounding::Truncate)
    return static_cast<uint16_t>(bits >> 16);
  // Ties to even: add just under half an ulp, plus one more when the kept
  // part is odd. A carry out of the mantissa bumps the exponent, which is the
  // right answer up to and including overflow to inf. inf itself has zero
  // low bits and an even kept part, so it stays inf.
  uint32_t roundingBias = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + roundingBias) >> 16);
}

/// Widens a bf16 bit pattern to f32. Exact: the bf16 bits become the top
/// half of the f32.
inline float fromBF16(uint16_t bits) {
  return floatOf(static_cast<uint32_t>(bits) << 16);
}

/// `fromBF16(toBF16(value, rounding))`: the nearest bf16 as an f32.
inline float roundToBF16(float value,
                         BF16Rounding rounding = BF16Rounding::NearestEven) {
  return fromBF16(toBF16(value, rounding));
}

/// True if narrowing `value` to bf16 loses nothing: its low 16 bits are zero
/// and it is not an f32 subnormal (those flush). NaNs count as exact only when
/// already quiet with their payload in the top half.
inline bool isBF16Exact(float value) {
  return bitsOf(roundToBF16(value)) == bitsOf(value);
}

/// An f32 value split into bf16 parts (each stored as an exactly
/// representable f32): value ~= hi + mid + lo.
struct BF16Split {
  float hi;
  float mid;
  float lo;
};

/// Splits `value` as the HIGH and HIGHEST precisions need (docs/Numerics.md):
///   hi  = bf16(value)
///   mid = bf16(value - hi)
///   lo  = bf16(value - hi - mid)
/// with each subtraction exact in f32. HIGH (bf16_3x) uses hi and mid as its
/// "hi" and "lo". With round-to-nearest, a finite value whose hi would round up
/// to inf (within half a bf16 ulp of FLT_MAX) has hi truncated instead, so the
/// parts stay finite and still sum to the value.
///
/// For inf and NaN, hi is the (quiet) value and mid/lo are NaN: the
/// precision expansion's NaN fix-up is what keeps those terms harmless.
inline BF16Split
splitToBF16(float value, BF16Rounding rounding = BF16Rounding::NearestEven) {
  BF16Split split;
  split.hi = roundToBF16(value, rounding);
  // Near FLT_MAX, rounding up overflows; the truncated hi keeps the parts
  // finite (value - hi is then exact and small).
  constexpr uint32_t kInfBits = 0x7F800000u;
  if ((bitsOf(split.hi) & 0x7FFFFFFFu) == kInfBits &&
      (bitsOf(value) & kInfBits) != kInfBits)
    split.hi = roundToBF16(value, BF16Rounding::Truncate);
  float rest = value - split.hi;
  split.mid = roundToBF16(rest, rounding);
  split.lo = roundToBF16(rest - split.mid, rounding);
  return split;
}

} // namespace tpu

#endif // TPU_SUPPORT_BF16_H
