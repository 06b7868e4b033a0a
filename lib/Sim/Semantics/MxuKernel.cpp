//===- MxuKernel.cpp - One pass of 8 rows through an MXU, in SIMD ---------===//
//
// Compiled once per SIMD target Highway knows (SSSE3 to AVX-512 on x86,
// NEON and SVE on 64-bit Arm, ...) and dispatched at run time to the best
// the host has, so one binary runs everywhere. Every target computes the
// same bits: the
// loop keeps each output's adds in ascending k and vectorises across output
// columns only, and a fused multiply-add is used only where the caller has
// shown it rounds as a multiply and an add do (productsAreExact).
//
//===----------------------------------------------------------------------===//

#include "tpu/Sim/MxuKernel.h"

#include "tpu/Support/BF16.h"
#include "tpu/Support/Chip.h"
#include "tpu/Support/TiledLayout.h"

#include <algorithm>

// 32-bit Arm's NEON flushes subnormals in arithmetic, which the MXU's sums
// keep (docs/Numerics.md): no NEON there, only the exact targets.
#if defined(__arm__) && !defined(__aarch64__) &&                             \
    !defined(HWY_DISABLED_TARGETS)
#define HWY_DISABLED_TARGETS HWY_NEON
#endif

// Highway compiles this file again for each target from foreach_target.h,
// found through the include path (lib/Sim is on TPUSim's).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "Semantics/MxuKernel.cpp"
#include "hwy/foreach_target.h" // IWYU pragma: keep
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace tpu::sim {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// acc + a * w, fused into one rounding or rounded twice.
template <bool kFuse, class V> HWY_INLINE V multiplyAdd(V a, V w, V acc) {
  if constexpr (kFuse)
    return hn::MulAdd(a, w, acc);
  else
    return hn::Add(acc, hn::Mul(a, w));
}

/// How many vectors of columns a block of 4 rows spans: its 4 x that
/// accumulators, that many weight vectors and a broadcast must fit in the
/// registers, and there must be enough of them to hide the multiply-add's
/// latency: each accumulator is a chain of 128 dependent adds, so with 8
/// (4 x 2) a 5-cycle multiply-add on two pipes (AMD Zen 2) is busy 4
/// cycles in 5 at best. 12 fill AVX2's 16 registers with the 3 weight
/// vectors and the broadcast.
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
constexpr size_t kColumnVectors = 3; // AVX2 and older: 16 registers
#else
constexpr size_t kColumnVectors = 4; // AVX-512, NEON, SVE: 32 registers
#endif

/// One block of the pass: 4 rows from `row` by kVectors vectors of columns
/// from `column`, or (kRowGroups = 2) 8 rows by one vector. The
/// accumulators stay in registers and each k loads kVectors weight vectors
/// and 4 x kRowGroups broadcasts. Accumulator sij holds row i, column
/// vector j; in the 8-row block, si1 holds row 4 + i of the one vector
/// (column vector 0). They are
/// named, not an array: scalable vectors (SVE, RVV) cannot be array
/// elements or struct members.
template <bool kFuse, size_t kRowGroups, size_t kVectors, class D>
HWY_INLINE void passBlock(D d, const float *HWY_RESTRICT weights,
                          const float *HWY_RESTRICT lhs,
                          float *HWY_RESTRICT slot, bool accumulate, size_t row,
                          size_t column) {
  static_assert((kRowGroups == 1 && kVectors <= 4) ||
                    (kRowGroups == 2 && kVectors == 1),
                "4 rows by up to 4 vectors, or 8 rows by one");
  using V = hn::Vec<D>;
  const size_t lanes = hn::Lanes(d);
  const float *l0 = lhs + row * kMxuDim, *l1 = l0 + kMxuDim, *l2 = l1 + kMxuDim,
              *l3 = l2 + kMxuDim;
  V s00 = hn::Zero(d), s01 = s00, s02 = s00, s03 = s00;
  V s10 = s00, s11 = s00, s12 = s00, s13 = s00;
  V s20 = s00, s21 = s00, s22 = s00, s23 = s00;
  V s30 = s00, s31 = s00, s32 = s00, s33 = s00;
  for (size_t k = 0; k < kMxuDim; ++k) {
    const float *w = weights + k * kMxuDim + column;
    const V w0 = hn::LoadU(d, w);
    V w1 = w0, w2 = w0, w3 = w0;
    if constexpr (kVectors > 1)
      w1 = hn::LoadU(d, w + lanes);
    if constexpr (kVectors > 2)
      w2 = hn::LoadU(d, w + 2 * lanes);
    if constexpr (kVectors > 3)
      w3 = hn::LoadU(d, w + 3 * lanes);
    // One row's broadcast into the kVectors accumulators from s0.
    auto rowOf = [&](float x, V &s0, V &s1, V &s2, V &s3) HWY_ATTR {
      const V a = hn::Set(d, x);
      s0 = multiplyAdd<kFuse>(a, w0, s0);
      if constexpr (kVectors > 1)
        s1 = multiplyAdd<kFuse>(a, w1, s1);
      if constexpr (kVectors > 2)
        s2 = multiplyAdd<kFuse>(a, w2, s2);
      if constexpr (kVectors > 3)
        s3 = multiplyAdd<kFuse>(a, w3, s3);
    };
    rowOf(l0[k], s00, s01, s02, s03);
    rowOf(l1[k], s10, s11, s12, s13);
    rowOf(l2[k], s20, s21, s22, s23);
    rowOf(l3[k], s30, s31, s32, s33);
    if constexpr (kRowGroups == 2) {
      const size_t k4 = 4 * kMxuDim + k;
      rowOf(l0[k4], s01, s01, s01, s01);
      rowOf(l1[k4], s11, s11, s11, s11);
      rowOf(l2[k4], s21, s21, s21, s21);
      rowOf(l3[k4], s31, s31, s31, s31);
    }
  }
  auto finish = [&](V sum, float *out) HWY_ATTR {
    if (accumulate)
      sum = hn::Add(hn::LoadU(d, out), sum);
    hn::StoreU(sum, d, out);
  };
  // One row's kVectors accumulators from s0 into its output row.
  auto finishRow = [&](float *out, V s0, V s1, V s2, V s3) HWY_ATTR {
    finish(s0, out);
    if constexpr (kVectors > 1)
      finish(s1, out + lanes);
    if constexpr (kVectors > 2)
      finish(s2, out + 2 * lanes);
    if constexpr (kVectors > 3)
      finish(s3, out + 3 * lanes);
  };
  float *out = slot + row * kMxuDim + column;
  finishRow(out, s00, s01, s02, s03);
  finishRow(out + kMxuDim, s10, s11, s12, s13);
  finishRow(out + 2 * kMxuDim, s20, s21, s22, s23);
  finishRow(out + 3 * kMxuDim, s30, s31, s32, s33);
  if constexpr (kRowGroups == 2) {
    float *rest = out + 4 * kMxuDim;
    finishRow(rest, s01, s01, s01, s01);
    finishRow(rest + kMxuDim, s11, s11, s11, s11);
    finishRow(rest + 2 * kMxuDim, s21, s21, s21, s21);
    finishRow(rest + 3 * kMxuDim, s31, s31, s31, s31);
  }
}

/// The pass in blocks of 4 rows by kColumnVectors vectors of columns; the
/// whole vectors of columns those leave (one on AVX2: 128 = 5 x 24 + 8) in
/// blocks of all 8 rows by one vector, 8 accumulators where 4 rows by one
/// would have 4.
template <bool kFuse>
void passBlocks(const float *HWY_RESTRICT weights,
                const float *HWY_RESTRICT lhs, float *HWY_RESTRICT slot,
                bool accumulate) {
  static_assert(kSublanes == 8, "blocks of 4 rows, or 8 by one vector");
  const hn::ScalableTag<float> d;
  const size_t lanes = hn::Lanes(d);
  const size_t width = kColumnVectors * lanes;
  size_t column = 0;
  for (; column + width <= kMxuDim; column += width)
    for (size_t row = 0; row < kSublanes; row += 4)
      passBlock<kFuse, 1, kColumnVectors>(d, weights, lhs, slot, accumulate,
                                          row, column);
  for (; column + lanes <= kMxuDim; column += lanes)
    passBlock<kFuse, 2, 1>(d, weights, lhs, slot, accumulate, 0, column);
  // Columns left over when the vector length does not divide 128 (SVE at
  // 384 bits): one at a time, never fused, which is right either way.
  for (; column < kMxuDim; ++column)
    for (size_t row = 0; row < kSublanes; ++row) {
      float sum = 0.0f;
      for (size_t k = 0; k < kMxuDim; ++k)
        sum += lhs[row * kMxuDim + k] * weights[k * kMxuDim + column];
      float &out = slot[row * kMxuDim + column];
      out = accumulate ? out + sum : sum;
    }
}

/// roundToBF16 on each word (docs/Numerics.md, "bf16"), and the range of
/// the results' exponents. MxuKernelExhaustiveTest holds it to toBF16 on
/// every f32 input, on every target.
ExponentRange roundWords(const uint32_t *HWY_RESTRICT words, size_t count,
                         float *HWY_RESTRICT out) {
  const hn::ScalableTag<uint32_t> du;
  const hn::RebindToFloat<decltype(du)> df;
  const size_t lanes = hn::Lanes(du);
  const auto absMask = hn::Set(du, 0x7FFFFFFFu), inf = hn::Set(du, 0x7F800000u),
             minNormal = hn::Set(du, 0x00800000u),
             sign = hn::Set(du, 0x80000000u), high = hn::Set(du, 0xFFFF0000u),
             quiet = hn::Set(du, 0x00400000u), one = hn::Set(du, 1),
             justUnderHalf = hn::Set(du, 0x7FFFu),
             fieldMask = hn::Set(du, 0xFF), normalFields = hn::Set(du, 254);
  auto minField = hn::Set(du, 255), maxField = hn::Zero(du);
  size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const auto bits = hn::LoadU(du, words + i);
    const auto magnitude = hn::And(bits, absMask);
    // As toBF16: a NaN keeps its sign and top payload and is made quiet;
    // zeros and subnormals flush to a zero of their sign; anything else
    // rounds to nearest even, carrying into the exponent up to inf.
    const auto nan = hn::And(hn::Or(bits, quiet), high);
    const auto flushed = hn::And(bits, sign);
    const auto rounded = hn::And(
        hn::Add(bits, hn::Add(justUnderHalf,
                              hn::And(hn::ShiftRight<16>(bits), one))),
        high);
    const auto result =
        hn::IfThenElse(hn::Gt(magnitude, inf), nan,
                       hn::IfThenElse(hn::Lt(magnitude, minNormal), flushed,
                                      rounded));
    hn::StoreU(hn::BitCast(df, result), df, out + i);
    // Fields 1 to 254 are normal numbers; 0 (zero) and 255 (inf, NaN)
    // wrap out of range when 1 is taken off.
    const auto field = hn::And(hn::ShiftRight<23>(result), fieldMask);
    const auto normal = hn::Lt(hn::Sub(field, one), normalFields);
    minField = hn::Min(minField, hn::IfThenElse(normal, field, minField));
    maxField = hn::Max(maxField, hn::IfThenElseZero(normal, field));
  }
  ExponentRange range;
  for (; i < count; ++i) {
    out[i] = roundToBF16(floatOf(words[i]));
    range.add(out[i]);
  }
  uint32_t lowest = hn::GetLane(hn::MinOfLanes(du, minField));
  uint32_t highest = hn::GetLane(hn::MaxOfLanes(du, maxField));
  if (highest != 0) {
    range.min = std::min(range.min, int(lowest) - 127);
    range.max = std::max(range.max, int(highest) - 127);
  }
  return range;
}

void pass(const float *weights, const float *lhs, float *slot,
          bool accumulate, bool fuse) {
  if (fuse)
    passBlocks<true>(weights, lhs, slot, accumulate);
  else
    passBlocks<false>(weights, lhs, slot, accumulate);
}

} // namespace HWY_NAMESPACE
} // namespace tpu::sim
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tpu::sim {

HWY_EXPORT(pass);
HWY_EXPORT(roundWords);

ExponentRange roundToBF16Words(const uint32_t *words, size_t count,
                               float *out) {
  return HWY_DYNAMIC_DISPATCH(roundWords)(words, count, out);
}

void mxuPass(const float *weights, const float *lhs, float *slot,
             bool accumulate, bool fuse) {
  HWY_DYNAMIC_DISPATCH(pass)(weights, lhs, slot, accumulate, fuse);
}

void mxuPassOfWords(const float *weights, const ExponentRange &weightExponents,
                    const uint32_t *words, float *slot, bool accumulate) {
  alignas(64) float rows[kWordsPerTile];
  bool fuse = productsAreExact(roundToBF16Words(words, kWordsPerTile, rows),
                               weightExponents);
  mxuPass(weights, rows, slot, accumulate, fuse);
}

bool productsAreExact(const ExponentRange &a, const ExponentRange &b) {
  if (a.hasSubnormal || b.hasSubnormal)
    return false;
  if (a.max == INT_MIN || b.max == INT_MIN)
    return true; // one side is all zeros, infinities and NaNs
  // |x| is in [2^e, 2^(e+1)), so a product is in [2^(ea+eb), 2^(ea+eb+2)):
  // below 2^128 (finite) and at least 2^-126 (normal), two 8-bit
  // significands need 16 of f32's 24 bits.
  return a.max + b.max <= 126 && a.min + b.min >= -126;
}

} // namespace tpu::sim
#endif // HWY_ONCE
