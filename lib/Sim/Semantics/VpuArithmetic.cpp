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

namespace {

/// A NaN operand gives way to the other operand (read as the VPU reads
/// it); two NaNs give the first, as maxOrMin does.
uint32_t maxNumOrMinNum(uint32_t a, uint32_t b, bool isMax) {
  float x = operand(a), y = operand(b);
  if (std::isnan(x) && !std::isnan(y))
    return bitsOf(y);
  if (std::isnan(y) && !std::isnan(x))
    return bitsOf(x);
  return maxOrMin(a, b, isMax);
}

} // namespace

uint32_t vpuMaxNum(uint32_t a, uint32_t b) {
  return maxNumOrMinNum(a, b, true);
}
uint32_t vpuMinNum(uint32_t a, uint32_t b) {
  return maxNumOrMinNum(a, b, false);
}
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

uint32_t vpuTanh(uint32_t a) {
  float x = operand(a);
  if (std::isnan(x))
    return kCanonicalNaNBits;
  // The polynomial would give +0 for -0 (p * z * x is +0, and -0 + +0 is
  // +0); tanh keeps a zero's sign.
  if (x == 0.0f)
    return bitsOf(x);
  float magnitude = std::fabs(x);
  if (magnitude < 0.625f) {
    // tanh(x) = x + x^3 P(x^2): Cephes' tanhf coefficients.
    float z = x * x;
    float p = -5.70498872745e-3f;
    p = p * z + 2.06390887954e-2f;
    p = p * z - 5.37397155531e-2f;
    p = p * z + 1.33314422036e-1f;
    p = p * z - 3.33332819422e-1f;
    return result(p * z * x + x);
  }
  // Past 9, 1 - tanh(x) < 2^-25: the result rounds to +-1.
  if (magnitude > 9.0f)
    return bitsOf(std::copysign(1.0f, x));
  // tanh(|x|) = 1 - 2 / (exp(2 |x|) + 1), with the VPU's exp.
  float e = floatOf(vpuExp(bitsOf(2.0f * magnitude)));
  float t = 1.0f - 2.0f / (e + 1.0f);
  return result(std::copysign(t, x));
}

uint32_t vpuLog(uint32_t a) {
  float x = operand(a);
  if (std::isnan(x) || x < 0.0f)
    return kCanonicalNaNBits;
  if (x == 0.0f)
    return 0xFF800000u; // -inf, for +0 and -0
  if (std::isinf(x))
    return 0x7F800000u;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)), f = m - 1.
  uint32_t bits = bitsOf(x);
  int e = int((bits >> 23) & 0xFF) - 126;
  float m = floatOf((bits & 0x007FFFFFu) | 0x3F000000u); // in [0.5, 1)
  float f;
  if (m < 0.707106781186547524f) {
    e -= 1;
    f = m + m - 1.0f;
  } else {
    f = m - 1.0f;
  }
  // log(1 + f) = f - f^2 / 2 + f^3 P(f): Cephes' logf coefficients; ln 2
  // in the two parts exp uses.
  float z = f * f;
  float p = 7.0376836292e-2f;
  p = p * f - 1.1514610310e-1f;
  p = p * f + 1.1676998740e-1f;
  p = p * f - 1.2420140846e-1f;
  p = p * f + 1.4249322787e-1f;
  p = p * f - 1.6668057665e-1f;
  p = p * f + 2.0000714765e-1f;
  p = p * f - 2.4999993993e-1f;
  p = p * f + 3.3333331174e-1f;
  float y = p * f * z;
  float n = float(e);
  y = y + n * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = f + y;
  r = r + n * 0.693359375f;
  return result(r);
}

uint32_t vpuErf(uint32_t a) {
  float x = operand(a);
  if (std::isnan(x))
    return kCanonicalNaNBits;
  float magnitude = std::fabs(x);
  if (magnitude < 1.0f) {
    // erf(x) = x P(x^2) with Cephes' erff coefficients, evaluated as
    // x + x (P(x^2) - 1): the last coefficient less 1 (exact in f32), so
    // that the rounding of the polynomial is scaled by 0.13, not 1.13.
    // +-0 stays itself.
    float z = x * x;
    float p = 7.853861353153693e-5f;
    p = p * z - 8.010193625184903e-4f;
    p = p * z + 5.188327685732524e-3f;
    p = p * z - 2.685381193529856e-2f;
    p = p * z + 1.128358514861418e-1f;
    p = p * z - 3.761262582423300e-1f;
    p = p * z + (1.128379165726710e+0f - 1.0f);
    return result(x + x * p);
  }
  // erf(|x|) = 1 - erfc(|x|), erfc(|x|) = exp(-x^2) q P(q^2) with
  // q = 1 / |x|: Cephes' erfcf coefficients, one set below 2, one above.
  float e = floatOf(vpuExp(bitsOf(-(magnitude * magnitude))));
  float q = 1.0f / magnitude;
  float y = q * q;
  float p;
  if (magnitude < 2.0f) {
    p = 2.326819970068386e-2f;
    p = p * y - 1.387039388740657e-1f;
    p = p * y + 3.687424674597105e-1f;
    p = p * y - 5.824733027278666e-1f;
    p = p * y + 6.210004621745983e-1f;
    p = p * y - 4.944515323274145e-1f;
    p = p * y + 3.404879937665872e-1f;
    p = p * y - 2.741127028184656e-1f;
    p = p * y + 5.638259427386472e-1f;
  } else {
    p = -1.047766399936249e+1f;
    p = p * y + 1.297719955372516e+1f;
    p = p * y - 7.495518717768503e+0f;
    p = p * y + 2.921019019210786e+0f;
    p = p * y - 1.015265279202700e+0f;
    p = p * y + 4.218463358204948e-1f;
    p = p * y - 2.820767439740514e-1f;
    p = p * y + 5.641895067754075e-1f;
  }
  float complement = (e * q) * p;
  return result(std::copysign(1.0f - complement, x));
}

uint32_t vpuSqrt(uint32_t a) { return result(std::sqrt(operand(a))); }

uint32_t vpuRsqrt(uint32_t a) {
  float x = operand(a);
  if (std::isnan(x) || x < 0.0f)
    return kCanonicalNaNBits;
  if (x == 0.0f)
    return bitsOf(std::copysign(INFINITY, x));
  // Both double operations are IEEE, so the result is the same everywhere.
  return result(float(1.0 / std::sqrt(double(x))));
}

} // namespace tpu::sim
