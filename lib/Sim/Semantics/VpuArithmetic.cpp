//===- VpuArithmetic.cpp - The VPU's f32 arithmetic on words --------------===//
//
// The host's binary32 arithmetic does the rounding (the project builds with
// -ffp-contract=off, so nothing fuses into an FMA); the flushes and the
// canonical NaN around it make the result the same bits on every host.
//
//===----------------------------------------------------------------------===//

#include "tpu/Sim/VpuArithmetic.h"

#include "tpu/Support/Float.h"

#include <cmath>

namespace tpu::sim {

namespace {

/// A subnormal read as a zero of its sign.
float operand(uint32_t bits) {
  return (bits & 0x7F800000u) == 0 ? floatOf(bits & 0x80000000u)
                                   : floatOf(bits);
}

/// A result's word: subnormals flushed to a zero of their sign, NaN made
/// canonical.
uint32_t result(float value) {
  uint32_t bits = canonicalBitsOf(value);
  return (bits & 0x7F800000u) == 0 ? bits & 0x80000000u : bits;
}

uint32_t maxOrMin(uint32_t a, uint32_t b, bool isMax) {
  float x = operand(a), y = operand(b);
  if (std::isnan(x))
    return a | 0x00400000u;
  if (std::isnan(y))
    return b | 0x00400000u;
  if (x == y) // equal, including +0 against -0: decided by the sign
    return bitsOf(std::signbit(x) == isMax ? y : x);
  return bitsOf((isMax ? x > y : x < y) ? x : y);
}

} // namespace

uint32_t vpuAdd(uint32_t a, uint32_t b) {
  return result(operand(a) + operand(b));
}
uint32_t vpuSub(uint32_t a, uint32_t b) {
  return result(operand(a) - operand(b));
}
uint32_t vpuMul(uint32_t a, uint32_t b) {
  return result(operand(a) * operand(b));
}
uint32_t vpuDiv(uint32_t a, uint32_t b) {
  return result(operand(a) / operand(b));
}
uint32_t vpuMax(uint32_t a, uint32_t b) { return maxOrMin(a, b, true); }
uint32_t vpuMin(uint32_t a, uint32_t b) { return maxOrMin(a, b, false); }
bool vpuEqual(uint32_t a, uint32_t b) { return operand(a) == operand(b); }
bool vpuLess(uint32_t a, uint32_t b) { return operand(a) < operand(b); }
bool vpuLessEqual(uint32_t a, uint32_t b) { return operand(a) <= operand(b); }

uint32_t vpuExp(uint32_t a) {
  float x = operand(a);
  if (std::isnan(x))
    return kCanonicalNaNBits;
  // Past these, the result overflows or flushes whatever the polynomial
  // says (ln(FLT_MAX) = 88.72, ln(2^-126) = -87.34).
  if (x > 89.0f)
    return 0x7F800000u;
  if (x < -104.0f)
    return 0;
  // x = n ln2 + r with |r| <= ln2 / 2 (about): n from x log2(e), ln2 in
  // two parts so that n * kLn2Hi is exact.
  constexpr float kLog2E = 1.44269502162933349609375f; // 0x3FB8AA3B
  constexpr float kLn2Hi = 0.693359375f;               // 0x3F318000
  constexpr float kLn2Lo = -2.12194440e-4f;            // 0xB95E8083
  float n = std::floor(x * kLog2E + 0.5f);
  float r = x - n * kLn2Hi;
  r = r - n * kLn2Lo;
  // exp(r) = 1 + r + r^2 P(r): Cephes' expf coefficients.
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r;
  p = p + 1.0f;
  // p * 2^n, with 2^n built from its bits (n in [-150, 128]).
  int exponent = int(n);
  if (exponent < -126)
    return 0;
  if (exponent == 128)
    return result((p * 2.0f) * floatOf(uint32_t(254) << 23));
  return result(p * floatOf(uint32_t(exponent + 127) << 23));
}

} // namespace tpu::sim
