//===- ElementwiseReference.cpp - Plain C++ model of the VPU ops ----------===//

#include "tpu/Reference/ElementwiseReference.h"

#include "tpu/Support/BF16.h"
#include "tpu/Support/Float.h"

#include <cmath>

namespace tpu::reference {

namespace {

/// docs/Numerics.md, "The VPU": a subnormal operand is a zero of its sign.
float readOperand(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

/// A result: rounded (by the f32 operation that made it), then a subnormal
/// flushed to a zero of its sign and a NaN made canonical.
float writeResult(float x) {
  if (std::fpclassify(x) == FP_SUBNORMAL)
    return std::copysign(0.0f, x);
  return canonicalizeNaN(x);
}

/// The first NaN operand, made quiet (its sign and payload kept).
float quietNaN(float a, float b) {
  return floatOf(bitsOf(std::isnan(a) ? a : b) | 0x00400000u);
}

} // namespace

/// IEEE-754 (2019) maximum and minimum on the flushed operands: a NaN
/// operand gives NaN (the first one, quieted), and -0 is below +0.
float maximumf(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return quietNaN(a, b);
  a = readOperand(a);
  b = readOperand(b);
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

float minimumf(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return quietNaN(a, b);
  a = readOperand(a);
  b = readOperand(b);
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

float maxnumf(float a, float b) {
  if (std::isnan(a) != std::isnan(b))
    return readOperand(std::isnan(a) ? b : a);
  return maximumf(a, b);
}

float minnumf(float a, float b) {
  if (std::isnan(a) != std::isnan(b))
    return readOperand(std::isnan(a) ? b : a);
  return minimumf(a, b);
}

namespace {

/// docs/Numerics.md, "exp", step by step.
float exponential(float x, float) {
  x = readOperand(x);
  if (std::isnan(x))
    return canonicalizeNaN(x);
  if (x > 89.0f)
    return INFINITY;
  if (x < -104.0f)
    return 0.0f;
  const float log2e = floatOf(0x3FB8AA3Bu);
  const float c1 = floatOf(0x3F318000u), c2 = floatOf(0xB95E8083u);
  float n = std::floor(x * log2e + 0.5f);
  float r = x - n * c1;
  r = r - n * c2;
  const float coefficients[] = {1.9875691500e-4f, 1.3981999507e-3f,
                                8.3334519073e-3f, 4.1665795894e-2f,
                                1.6666665459e-1f, 5.0000001201e-1f};
  float p = coefficients[0];
  for (int i = 1; i < 6; ++i)
    p = p * r + coefficients[i];
  p = p * (r * r) + r;
  p = p + 1.0f;
  if (n < -126.0f)
    return 0.0f;
  if (n == 128.0f)
    return writeResult(p * 2.0f * std::ldexp(1.0f, 127));
  return writeResult(p * std::ldexp(1.0f, int(n)));
}

/// docs/Numerics.md, "tanh": a polynomial near 0, else from exp.
float hyperbolicTangent(float x, float) {
  x = readOperand(x);
  if (std::isnan(x))
    return canonicalizeNaN(x);
  if (x == 0.0f) // +-0 is itself
    return x;
  float magnitude = std::fabs(x);
  if (magnitude < 0.625f) {
    const float coefficients[] = {-5.70498872745e-3f, 2.06390887954e-2f,
                                  -5.37397155531e-2f, 1.33314422036e-1f,
                                  -3.33332819422e-1f};
    float z = x * x, p = coefficients[0];
    for (int i = 1; i < 5; ++i)
      p = p * z + coefficients[i];
    return writeResult(p * z * x + x);
  }
  if (magnitude > 9.0f)
    return x < 0 ? -1.0f : 1.0f;
  float e = exponential(magnitude + magnitude, 0);
  float t = 1.0f - 2.0f / (e + 1.0f);
  return writeResult(x < 0 ? -t : t);
}

/// docs/Numerics.md, "log": m 2^e with m near 1, then a polynomial.
float logarithm(float x, float) {
  x = readOperand(x);
  if (std::isnan(x) || x < 0.0f)
    return canonicalizeNaN(NAN);
  if (x == 0.0f)
    return -INFINITY;
  if (std::isinf(x))
    return INFINITY;
  int e;
  float m = std::frexp(x, &e); // x = m 2^e, m in [0.5, 1)
  float f = m - 1.0f;
  if (m < floatOf(0x3F3504F3u)) { // sqrt(1/2)
    e = e - 1;
    f = (m + m) - 1.0f;
  }
  const float coefficients[] = {
      7.0376836292e-2f,  -1.1514610310e-1f, 1.1676998740e-1f,
      -1.2420140846e-1f, 1.4249322787e-1f,  -1.6668057665e-1f,
      2.0000714765e-1f,  -2.4999993993e-1f, 3.3333331174e-1f};
  float z = f * f, p = coefficients[0];
  for (int i = 1; i < 9; ++i)
    p = p * f + coefficients[i];
  float ef = float(e);
  float y = p * f * z;
  y = y + ef * floatOf(0xB95E8083u);
  y = y - 0.5f * z;
  return writeResult((f + y) + ef * floatOf(0x3F318000u));
}

/// docs/Numerics.md, "erf": a polynomial in x^2 below 1, else from erfc.
float errorFunction(float x, float) {
  x = readOperand(x);
  if (std::isnan(x))
    return canonicalizeNaN(x);
  float magnitude = std::fabs(x);
  auto horner = [](const float *coefficients, int count, float at) {
    float p = coefficients[0];
    for (int i = 1; i < count; ++i)
      p = p * at + coefficients[i];
    return p;
  };
  if (magnitude < 1.0f) {
    // The last coefficient less 1: x + x (P - 1).
    const float t[] = {7.853861353153693e-5f,  -8.010193625184903e-4f,
                       5.188327685732524e-3f,  -2.685381193529856e-2f,
                       1.128358514861418e-1f,  -3.761262582423300e-1f,
                       1.128379165726710e+0f - 1.0f};
    return writeResult(x + x * horner(t, 7, x * x));
  }
  const float p[] = {2.326819970068386e-2f, -1.387039388740657e-1f,
                     3.687424674597105e-1f, -5.824733027278666e-1f,
                     6.210004621745983e-1f, -4.944515323274145e-1f,
                     3.404879937665872e-1f, -2.741127028184656e-1f,
                     5.638259427386472e-1f};
  const float r[] = {-1.047766399936249e+1f, 1.297719955372516e+1f,
                     -7.495518717768503e+0f, 2.921019019210786e+0f,
                     -1.015265279202700e+0f, 4.218463358204948e-1f,
                     -2.820767439740514e-1f, 5.641895067754075e-1f};
  float e = exponential(-(magnitude * magnitude), 0);
  float q = 1.0f / magnitude;
  float y = q * q;
  float poly = magnitude < 2.0f ? horner(p, 9, y) : horner(r, 8, y);
  float complement = (e * q) * poly;
  float result = 1.0f - complement;
  return writeResult(x < 0 ? -result : result);
}

float squareRoot(float x, float) {
  return writeResult(std::sqrt(readOperand(x)));
}

float reciprocalSquareRoot(float x, float) {
  x = readOperand(x);
  if (std::isnan(x) || x < 0.0f)
    return canonicalizeNaN(NAN);
  if (x == 0.0f)
    return std::copysign(INFINITY, x);
  return writeResult(float(1.0 / std::sqrt(double(x))));
}

/// IEEE arithmetic on flushed operands (docs/Numerics.md).
constexpr ElementwiseOp kOps[] = {
    {"addf", 2, addf},
    {"subf", 2,
     [](float a, float b) {
       return writeResult(readOperand(a) - readOperand(b));
     }},
    {"mulf", 2,
     [](float a, float b) {
       return writeResult(readOperand(a) * readOperand(b));
     }},
    {"divf", 2,
     [](float a, float b) {
       return writeResult(readOperand(a) / readOperand(b));
     }},
    {"maximumf", 2, maximumf},
    {"minimumf", 2, minimumf},
    {"maxnumf", 2, maxnumf},
    {"minnumf", 2, minnumf},
    {"exp", 1, exponential},
    {"tanh", 1, hyperbolicTangent},
    {"log", 1, logarithm},
    {"erf", 1, errorFunction},
    {"sqrt", 1, squareRoot},
    {"rsqrt", 1, reciprocalSquareRoot},
    // Sign-bit operations: every other bit is kept.
    {"negf", 1,
     [](float a, float) { return floatOf(bitsOf(a) ^ 0x80000000u); }},
    {"absf", 1,
     [](float a, float) { return floatOf(bitsOf(a) & 0x7FFFFFFFu); }},
    // To bf16 and back as the f32 of the same value (docs/Numerics.md):
    // the exhaustively tested conversion every bf16 rounding shares.
    {"truncf", 1, [](float a, float) { return roundToBF16(a); }},
};

} // namespace

float addf(float a, float b) {
  return writeResult(readOperand(a) + readOperand(b));
}

const ElementwiseOp *lookupElementwiseOp(std::string_view name) {
  for (const ElementwiseOp &op : kOps)
    if (name == op.name)
      return &op;
  return nullptr;
}

std::string listElementwiseOps() {
  std::string names;
  for (const ElementwiseOp &op : kOps)
    names += (names.empty() ? "" : ", ") + std::string(op.name);
  return names;
}

} // namespace tpu::reference
