//===- ElementwiseReference.cpp - Plain C++ model of the VPU ops ----------===//

#include "tpu/Reference/ElementwiseReference.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tpu::reference {

namespace {

/// IEEE-754 (2019) maximum and minimum: a NaN operand gives NaN, and -0 is
/// below +0.
float maximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) ? a : b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

float minimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) ? a : b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// IEEE division; every NaN result is the quiet NaN 0x7FC00000.
float divide(float a, float b) {
  float quotient = a / b;
  if (!std::isnan(quotient))
    return quotient;
  uint32_t bits = 0x7FC00000u;
  std::memcpy(&quotient, &bits, sizeof(bits));
  return quotient;
}

constexpr ElementwiseOp kOps[] = {
    {"addf", 2, [](float a, float b) { return a + b; }},
    {"subf", 2, [](float a, float b) { return a - b; }},
    {"mulf", 2, [](float a, float b) { return a * b; }},
    {"divf", 2, divide},
    {"maximumf", 2, maximum},
    {"minimumf", 2, minimum},
};

} // namespace

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
