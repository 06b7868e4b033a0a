//===- ReductionReference.cpp - Plain C++ model of row reductions ---------===//

#include "tpu/Reference/ReductionReference.h"

#include "tpu/Reference/ElementwiseReference.h"

#include <array>
#include <cmath>

namespace tpu::reference {

std::optional<ReductionKind> parseReductionKind(std::string_view name) {
  if (name == "sum")
    return ReductionKind::Sum;
  if (name == "max")
    return ReductionKind::Max;
  if (name == "min")
    return ReductionKind::Min;
  return std::nullopt;
}

std::vector<float> reduceRows(const std::vector<float> &values, int64_t rows,
                              int64_t cols, ReductionKind kind, float init) {
  constexpr int64_t kLanes = 128;
  float (*combine)(float, float) = kind == ReductionKind::Sum   ? addf
                                   : kind == ReductionKind::Max ? maximumf
                                                                : minimumf;
  // The identities: -0 leaves every sum as it is (+0 would turn -0 into
  // +0), -inf every maximum, +inf every minimum.
  float identity = kind == ReductionKind::Sum   ? -0.0f
                   : kind == ReductionKind::Max ? -INFINITY
                                                : INFINITY;
  std::vector<float> result(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = &values[size_t(r * cols)];
    std::array<float, kLanes> lanes;
    lanes.fill(identity);
    for (int64_t c = 0; c < cols; ++c)
      lanes[c % kLanes] = combine(lanes[c % kLanes], row[c]);
    float across = lanes[0];
    for (int64_t l = 1; l < kLanes; ++l)
      across = combine(across, lanes[l]);
    result[size_t(r)] = combine(init, across);
  }
  return result;
}

} // namespace tpu::reference
