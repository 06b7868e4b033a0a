//===- ElementwiseReference.cpp - Plain C++ model of the VPU ops ----------===//

#include "tpu/Reference/ElementwiseReference.h"

#include "tpu/Support/Float.h"

#include <cmath>

namespace tpu::reference {

namespace {

/// The first NaN operand, made quiet (its sign and payload kept).
float quietNaN(float a, float b) {
  return floatOf(bitsOf(std::isnan(a) ? a : b) | 0x00400000u);
}

/// IEEE-754 (2019) maximum and minimum: a NaN operand gives NaN (the first
/// one, quieted), and -0 is below +0.
float maximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return quietNaN(a, b);
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

float minimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return quietNaN(a, b);
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// IEEE arithmetic; a NaN result is the canonical NaN (docs/Numerics.md).
constexpr ElementwiseOp kOps[] = {
    {"addf", 2, [](float a, float b) { return canonicalizeNaN(a + b); }},
    {"subf", 2, [](float a, float b) { return canonicalizeNaN(a - b); }},
    {"mulf", 2, [](float a, float b) { return canonicalizeNaN(a * b); }},
    {"divf", 2, [](float a, float b) { return canonicalizeNaN(a / b); }},
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
