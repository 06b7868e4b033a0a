//===- MatmulReference.cpp - Plain C++ model of the MXU numerics ----------===//

#include "tpu/Reference/MatmulReference.h"

#include "tpu/Reference/ElementwiseReference.h"

#include <cmath>

namespace tpu::reference {

namespace {

constexpr int64_t kTileDepth = 128;

/// Which part of a split operand a term uses.
enum class Part { Hi, Mid, Lo };

float part(const BF16Split &split, Part which) {
  return which == Part::Hi    ? split.hi
         : which == Part::Mid ? split.mid
                              : split.lo;
}

struct Term {
  Part left, right;
};

} // namespace

std::vector<float> matmul(const MatmulShape &shape, const std::vector<float> &a,
                          const std::vector<float> &b,
                          MatmulPrecision precision, BF16Rounding split,
                          const std::vector<float> &accumulator) {
  const int64_t m = shape.m, n = shape.n, k = shape.k;
  // DEFAULT rounds operands as the MXU does (nearest even); the split
  // rounding option only concerns HIGH and HIGHEST.
  auto splitAll = [&](const std::vector<float> &values) {
    std::vector<BF16Split> parts(values.size());
    for (size_t i = 0; i < values.size(); ++i)
      parts[i] = precision == MatmulPrecision::Default
                     ? BF16Split{roundToBF16(values[i]), 0.0f, 0.0f}
                     : splitToBF16(values[i], split);
    return parts;
  };
  std::vector<BF16Split> as = splitAll(a), bs = splitAll(b);

  std::vector<Term> smallTerms;
  if (precision == MatmulPrecision::High)
    // HIGH's "lo" is the second part of the split.
    smallTerms = {{Part::Mid, Part::Hi}, {Part::Hi, Part::Mid}};
  else if (precision == MatmulPrecision::Highest)
    smallTerms = {{Part::Mid, Part::Mid},
                  {Part::Lo, Part::Hi},
                  {Part::Hi, Part::Lo},
                  {Part::Mid, Part::Hi},
                  {Part::Hi, Part::Mid}};

  std::vector<float> c(size_t(shape.batch * m * n));
  for (int64_t batch = 0; batch < shape.batch; ++batch) {
    const BF16Split *aBatch = &as[batch * m * k];
    const BF16Split *bBatch = &bs[batch * k * n];
    // One MXU pass: K tile `tile` of term `term`, for output (i, j).
    auto pass = [&](Term term, int64_t tile, int64_t i, int64_t j) {
      float sum = 0.0f;
      for (int64_t kk = tile * kTileDepth;
           kk < std::min(k, (tile + 1) * kTileDepth); ++kk) {
        float product = part(aBatch[i * k + kk], term.left) *
                        part(bBatch[kk * n + j], term.right);
        sum = sum + product;
      }
      return sum;
    };
    int64_t tiles = (k + kTileDepth - 1) / kTileDepth;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float big = 0.0f;
        for (int64_t tile = 0; tile < tiles; ++tile)
          big = big + pass({Part::Hi, Part::Hi}, tile, i, j);
        float result = big;
        if (!smallTerms.empty()) {
          float small = 0.0f;
          for (int64_t tile = 0; tile < tiles; ++tile)
            for (Term term : smallTerms)
              small = small + pass(term, tile, i, j);
          if (std::isnan(small))
            small = 0.0f;
          // The epilogue's adds are the VPU's (subnormals flush).
          result = addf(small, big);
        }
        size_t index = size_t((batch * m + i) * n + j);
        if (!accumulator.empty())
          result = addf(accumulator[index], result);
        // Every add of a NaN gives NaN, so making the NaN canonical once at
        // the end is the same as after every add (docs/Numerics.md).
        c[index] = canonicalizeNaN(result);
      }
    }
  }
  return c;
}

} // namespace tpu::reference
