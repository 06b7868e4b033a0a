//===- ErrorBound.h - How far a TPU matmul may be from the CPU's -*- C++
//-*-===//
//
// The oracle for HIGH and HIGHEST, whose results are not the CPU's bit for
// bit: a bound on |c_tpu - c_cpu| for one output element c = sum_k a_k b_k
// (+ acc), where c_cpu is plain f32 arithmetic (products rounded, summed in
// ascending k) and c_tpu follows docs/Numerics.md. docs/Testing.md, "The
// error bound", derives each part; tpu-ref check-bound applies it.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_REFERENCE_ERRORBOUND_H
#define TPU_REFERENCE_ERRORBOUND_H

#include "tpu/Support/BF16.h"
#include "tpu/Support/Precision.h"

#include <cstdint>

namespace tpu::reference {

/// e_p: how far the products a precision keeps can be from a b, relative
/// to |a| |b| (the parts are exact in f32, barring overflow and underflow).
double getProductError(MatmulPrecision precision, BF16Rounding split);

/// The bound's coefficient: |c_tpu - c_cpu| <= coefficient x (S + |acc|),
/// S = sum_k |a_k| |b_k|, for a contraction of `k` and with or without an
/// accumulator.
double getErrorBoundCoefficient(MatmulPrecision precision, BF16Rounding split,
                                int64_t k, bool hasAccumulator);

} // namespace tpu::reference

#endif // TPU_REFERENCE_ERRORBOUND_H
