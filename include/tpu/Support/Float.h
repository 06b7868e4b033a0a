//===- Float.h - f32 bit patterns and the one NaN ---------------*- C++ -*-===//
//
// An f32 as its 32 bits, and the rule that makes f32 arithmetic the same on
// every host (docs/Numerics.md): IEEE-754 leaves the sign and payload of a
// NaN an operation produces to the implementation (x86 makes 0xFFC00000 for
// inf - inf and passes on the first NaN operand; ARM makes 0x7FC00000), so
// every f32 arithmetic instruction of the TPU returns the one quiet NaN
// 0x7FC00000 instead, and so does the reference model. Moves, selects, the
// bf16 conversions and max/min keep their operand's NaN.
//
// Standard library only: the simulator and the reference use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_FLOAT_H
#define TPU_SUPPORT_FLOAT_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tpu {

/// The bits of an f32 value.
inline uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// The f32 value with these bits.
inline float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// The NaN every f32 arithmetic result that is NaN becomes.
inline constexpr uint32_t kCanonicalNaNBits = 0x7FC00000u;

/// The bits of an arithmetic result: `value`'s, or the canonical NaN's.
inline uint32_t canonicalBitsOf(float value) {
  return std::isnan(value) ? kCanonicalNaNBits : bitsOf(value);
}

/// `value`, with a NaN replaced by the canonical NaN.
inline float canonicalizeNaN(float value) {
  return floatOf(canonicalBitsOf(value));
}

} // namespace tpu

#endif // TPU_SUPPORT_FLOAT_H
