//===- MxuKernel.h - One pass of 8 rows through an MXU ----------*- C++ -*-===//
//
// The arithmetic of an mxu.push, apart from the instruction: the host's
// hottest loop (docs/Simulator.md, "Speed"). It runs in SIMD on the widest
// vector unit the host has, chosen at run time (Google Highway), and gives
// the same bits on every one.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_MXUKERNEL_H
#define TPU_SIM_MXUKERNEL_H

#include "tpu/Support/Float.h"

#include <climits>
#include <cstddef>
#include <cstdint>

namespace tpu::sim {

/// The binary exponents of a set of bf16 values (zeros, infinities and
/// NaNs left out): enough to tell whether every product of two sets is
/// exact in f32.
struct ExponentRange {
  int min = INT_MAX;
  int max = INT_MIN;
  /// Set by an f32 subnormal, which is not a bf16 value: no bound is
  /// claimed for its products.
  bool hasSubnormal = false;

  void add(float value) {
    uint32_t bits = bitsOf(value);
    uint32_t field = (bits >> 23) & 0xFF;
    if (field == 0xFF || (bits & 0x7FFFFFFF) == 0)
      return; // inf, NaN, zero
    if (field == 0) {
      hasSubnormal = true;
      return;
    }
    int exponent = int(field) - 127;
    min = exponent < min ? exponent : min;
    max = exponent > max ? exponent : max;
  }
  void merge(const ExponentRange &other) {
    min = other.min < min ? other.min : min;
    max = other.max > max ? other.max : max;
    hasSubnormal |= other.hasSubnormal;
  }
};

/// True if every product of a value in `a` and one in `b` is exact in f32:
/// 16 significant bits, neither overflowing nor below the normal range.
/// Then a fused multiply-add rounds exactly as a multiply and an add do
/// (docs/Numerics.md, "The MXU"). Products with a zero, an infinity or a
/// NaN agree either way (a NaN's payload may not, but NaNs leave the MXU
/// canonical).
bool productsAreExact(const ExponentRange &a, const ExponentRange &b);

/// out[i] = roundToBF16(words[i] as f32) for i < count, as the MXU reads
/// its operands, and the exponents of the results.
ExponentRange roundToBF16Words(const uint32_t *words, size_t count,
                               float *out);

/// One pass of 8 LHS rows through a latched weight tile, in the MXU's
/// order: out[r][n] is the sum over k = 0..127 ascending, from +0, of
/// lhs[r][k] * weights[k][n], each add rounded to nearest even; it is
/// written to `slot` or, with `accumulate`, added to it (one more rounded
/// add). `lhs` (8 x 128, row-major) and `weights` (128 x 128, k-major) hold
/// bf16 values. With `fuse` each step is one fused multiply-add: callers
/// pass it only when productsAreExact, where it gives the same bits and
/// runs faster.
void mxuPass(const float *weights, const float *lhs, float *slot,
             bool accumulate, bool fuse);

/// mxuPass of a pushed vreg's 8 x 128 words as the MXU takes them: rounded
/// to bf16 (roundToBF16Words), fused where productsAreExact with the
/// latched tile's exponents `weightExponents`.
void mxuPassOfWords(const float *weights, const ExponentRange &weightExponents,
                    const uint32_t *words, float *slot, bool accumulate);

} // namespace tpu::sim

#endif // TPU_SIM_MXUKERNEL_H
