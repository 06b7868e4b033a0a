//===- MatmulReference.h - Plain C++ model of the MXU numerics --*- C++ -*-===//
//
// docs/Numerics.md written out directly, with no tiling machinery beyond
// what the numerics depend on, to check the simulator and the compiler
// against. It shares only tpu/Support (BF16.h, Precision.h) with them.
//
// C[b] = A[b] x B[b] (+ Acc[b]) for A: M x K, B: K x N, all f32 row-major:
//  - A pass over one K tile of 128 (the MXU's depth) sums bf16 x bf16
//    products in ascending k, starting from +0, each add rounded to nearest
//    even. Passes are added into an f32 accumulator in ascending tile order.
//  - DEFAULT: one term, bf16(a) x bf16(b).
//  - HIGH / HIGHEST: operands split into hi (+ mid) + lo; the small terms
//    (HIGH: lo*hi, hi*lo; HIGHEST: mid*mid, lo*hi, hi*lo, mid*hi, hi*mid)
//    accumulate in one sum, K tiles outermost and the terms of each tile
//    in that order inside; hi*hi accumulates on its own;
//    r = FixNaN(small) + (hi*hi) + Acc, where FixNaN turns NaN into 0.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_REFERENCE_MATMULREFERENCE_H
#define TPU_REFERENCE_MATMULREFERENCE_H

#include "tpu/Support/BF16.h"
#include "tpu/Support/Precision.h"

#include <cstdint>
#include <vector>

namespace tpu::reference {

struct MatmulShape {
  int64_t batch = 1, m = 1, n = 1, k = 1;
};

/// `a` is batch x m x k, `b` batch x k x n; returns batch x m x n.
/// `accumulator`, if not empty, is batch x m x n and is added last.
std::vector<float> matmul(const MatmulShape &shape, const std::vector<float> &a,
                          const std::vector<float> &b,
                          MatmulPrecision precision,
                          BF16Rounding split = BF16Rounding::NearestEven,
                          const std::vector<float> &accumulator = {});

} // namespace tpu::reference

#endif // TPU_REFERENCE_MATMULREFERENCE_H
