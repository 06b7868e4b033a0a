//===- ErrorBound.cpp - How far a TPU matmul may be from the CPU's --------===//
//
// docs/Testing.md, "The error bound", in code; each line below is one line
// of the derivation there.
//
//===----------------------------------------------------------------------===//

#include "tpu/Reference/ErrorBound.h"

#include <algorithm>
#include <cmath>

namespace tpu::reference {

namespace {

/// f32's unit roundoff.
const double kF32Roundoff = std::ldexp(1.0, -24);

/// gamma_n = n u / (1 - n u): the relative error of n rounded f32
/// operations in a row (Higham, Accuracy and Stability of Numerical
/// Algorithms, 3.1).
double gamma(int64_t n) {
  double nu = double(n) * kF32Roundoff;
  return nu / (1 - nu);
}

/// The unit roundoff of a bf16 part: 8 significant bits, so 2^-8 rounding
/// to nearest and 2^-7 truncating.
double partRoundoff(BF16Rounding rounding) {
  return rounding == BF16Rounding::Truncate ? std::ldexp(1.0, -7)
                                            : std::ldexp(1.0, -8);
}

} // namespace

double getProductError(MatmulPrecision precision, BF16Rounding split) {
  // hi = bf16(a), |hi| <= (1 + u)|a|; each later part rounds what is left:
  // |mid| <= (1 + u) u |a|, |lo| <= (1 + u) u^2 |a|, and what no part holds
  // is r with |r| <= u^2 |a| (two parts) or u^3 |a| (three).
  switch (precision) {
  case MatmulPrecision::Default: {
    // The MXU rounds both operands to nearest: (1 + u)^2 - 1.
    double u = partRoundoff(BF16Rounding::NearestEven);
    return 2 * u + u * u;
  }
  case MatmulPrecision::High: {
    // a = hi + lo + r; kept: hi.hi, hi.lo, lo.hi; dropped:
    // lo.lo + hi.r + r.hi + lo.r + r.lo + r.r.
    double u = partRoundoff(split);
    return u * u * ((1 + u) * (1 + u) + 2 * (1 + u) + 2 * (1 + u) * u + u * u);
  }
  case MatmulPrecision::Highest: {
    // a = hi + mid + lo + r; kept: hi.hi, hi.mid, mid.hi, hi.lo, lo.hi,
    // mid.mid; dropped: mid.lo + lo.mid + lo.lo and every product with r.
    double u = partRoundoff(split);
    double hi = 1 + u, mid = (1 + u) * u, lo = (1 + u) * u * u, r = u * u * u;
    return 2 * mid * lo + lo * lo + 2 * (hi + mid + lo) * r + r * r;
  }
  }
  return 0;
}

double getErrorBoundCoefficient(MatmulPrecision precision, BF16Rounding split,
                                int64_t k, bool hasAccumulator) {
  double u = partRoundoff(precision == MatmulPrecision::Default
                              ? BF16Rounding::NearestEven
                              : split);
  // The kept products, summed over k, are at most w S in magnitude:
  // |hi| + |mid| + |lo| <= (1 + u)(1 + 2u)|a|.
  double w = std::pow((1 + u) * (1 + 2 * u), 2);
  // The TPU's longest chain of rounded adds (docs/Numerics.md's order): one
  // pass over a K tile (at most 127 after the first product), the passes of
  // every term and tile into one sum (5 small terms at HIGHEST), small +
  // big, and the accumulator.
  int64_t tiles = (k + 127) / 128;
  int64_t terms = precision == MatmulPrecision::Default ? 1
                  : precision == MatmulPrecision::High  ? 2
                                                        : 5;
  int64_t tpuDepth =
      std::min<int64_t>(k, 128) - 1 + terms * tiles + 1 + hasAccumulator;
  // The CPU: k rounded products summed in order, after the accumulator.
  int64_t cpuDepth = k + hasAccumulator;
  return getProductError(precision, split) + w * gamma(tpuDepth) +
         gamma(cpuDepth);
}

} // namespace tpu::reference
