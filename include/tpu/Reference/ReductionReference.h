//===- ReductionReference.h - Plain C++ model of row reductions -*- C++ -*-===//
//
// The sum, maximum, minimum, maxnum and minnum of each row (the last dimension) in the
// order docs/Numerics.md ("Reductions") defines, so that a compiled
// reduction is checked bit for bit (tpu-ref reduce). Written from the
// docs, not from the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_REFERENCE_REDUCTIONREFERENCE_H
#define TPU_REFERENCE_REDUCTIONREFERENCE_H

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tpu::reference {

enum class ReductionKind { Sum, Max, Min, MaxNum, MinNum };

/// "sum", "max", "min", "maxnum" or "minnum".
std::optional<ReductionKind> parseReductionKind(std::string_view name);

/// The value that leaves every other as it is under the kind: -0, -inf,
/// +inf, and the canonical NaN for maxnum and minnum.
float getReductionIdentity(ReductionKind kind);

/// Each of the `rows` rows of `values` (row-major, `cols` per row) reduced
/// to one value: 128 lane accumulators, each starting from the kind's
/// identity and taking the row's elements l, l + 128, l + 256, ... in
/// order; then lane 0 combined with lanes 1, 2, ..., 127 in order; then
/// `init` combined with that.
std::vector<float> reduceRows(const std::vector<float> &values, int64_t rows,
                              int64_t cols, ReductionKind kind, float init);

/// Each column (the second-to-last dimension) of each of the `matrices`
/// matrices of `rows` x `cols` (row-major) reduced to one value: eight
/// accumulators, accumulator s starting from the kind's identity and
/// taking the column's elements s, s + 8, s + 16, ... in order; then
/// accumulator 0 combined with 1, 2, ..., 7 in order; then `init` combined
/// with that. The result is `matrices` rows of `cols`.
std::vector<float> reduceColumns(const std::vector<float> &values,
                                 int64_t matrices, int64_t rows, int64_t cols,
                                 ReductionKind kind, float init);

/// The array `values` of shape `shape` reduced over `dims`, leading
/// dimensions (neither of the last two): each result element is `init`
/// combined with the source's elements at its row and column in every
/// matrix the reduced coordinates pick, in ascending row-major order of
/// those coordinates.
std::vector<float> reduceMatrices(const std::vector<float> &values,
                                  const std::vector<int64_t> &shape,
                                  const std::vector<int64_t> &dims,
                                  ReductionKind kind, float init);

} // namespace tpu::reference

#endif // TPU_REFERENCE_REDUCTIONREFERENCE_H
