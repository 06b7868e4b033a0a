//===- ReductionReference.cpp - Plain C++ model of row reductions ---------===//

#include "tpu/Reference/ReductionReference.h"

#include "tpu/Reference/ElementwiseReference.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace tpu::reference {

namespace {

struct Kind {
  const char *name;
  ReductionKind kind;
  float (*combine)(float, float);
  float identity;
};

/// The identities: -0 leaves every sum as it is (+0 would turn -0 into
/// +0), -inf every maximum, +inf every minimum, and a NaN every maxnum and
/// minnum (which pass over a NaN for the other operand).
const Kind kKinds[] = {
    {"sum", ReductionKind::Sum, addf, -0.0f},
    {"max", ReductionKind::Max, maximumf, -INFINITY},
    {"min", ReductionKind::Min, minimumf, INFINITY},
    {"maxnum", ReductionKind::MaxNum, maxnumf, NAN},
    {"minnum", ReductionKind::MinNum, minnumf, NAN},
};

const Kind &lookup(ReductionKind kind) {
  for (const Kind &entry : kKinds)
    if (entry.kind == kind)
      return entry;
  std::abort();
}

} // namespace

std::optional<ReductionKind> parseReductionKind(std::string_view name) {
  for (const Kind &entry : kKinds)
    if (name == entry.name)
      return entry.kind;
  return std::nullopt;
}

float getReductionIdentity(ReductionKind kind) {
  return lookup(kind).identity;
}

std::vector<float> reduceRows(const std::vector<float> &values, int64_t rows,
                              int64_t cols, ReductionKind kind, float init) {
  constexpr int64_t kLanes = 128;
  float (*combine)(float, float) = lookup(kind).combine;
  float identity = lookup(kind).identity;
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

std::vector<float> reduceColumns(const std::vector<float> &values,
                                 int64_t matrices, int64_t rows, int64_t cols,
                                 ReductionKind kind, float init) {
  constexpr int64_t kSublanes = 8;
  float (*combine)(float, float) = lookup(kind).combine;
  std::vector<float> result(size_t(matrices * cols));
  for (int64_t m = 0; m < matrices; ++m) {
    for (int64_t c = 0; c < cols; ++c) {
      std::array<float, kSublanes> sublanes;
      sublanes.fill(lookup(kind).identity);
      for (int64_t r = 0; r < rows; ++r)
        sublanes[r % kSublanes] = combine(
            sublanes[r % kSublanes], values[size_t((m * rows + r) * cols + c)]);
      float across = sublanes[0];
      for (int64_t s = 1; s < kSublanes; ++s)
        across = combine(across, sublanes[s]);
      result[size_t(m * cols + c)] = combine(init, across);
    }
  }
  return result;
}

std::vector<float> reduceMatrices(const std::vector<float> &values,
                                  const std::vector<int64_t> &shape,
                                  const std::vector<int64_t> &dims,
                                  ReductionKind kind, float init) {
  float (*combine)(float, float) = lookup(kind).combine;
  auto isReduced = [&](size_t d) {
    return std::find(dims.begin(), dims.end(), int64_t(d)) != dims.end();
  };
  // Strides of the source, row-major; the reduced and the kept dimensions.
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size() - 1; d-- > 0;)
    strides[d] = strides[d + 1] * shape[d + 1];
  std::vector<size_t> keptDims, reducedDims;
  int64_t results = 1, combos = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (isReduced(d)) {
      reducedDims.push_back(d);
      combos *= shape[d];
    } else {
      keptDims.push_back(d);
      results *= shape[d];
    }
  }
  std::vector<float> result(size_t(results), 0.0f);
  for (int64_t r = 0; r < results; ++r) {
    // The kept coordinates of result element r, row-major.
    int64_t base = 0, rest = r;
    for (size_t k = keptDims.size(); k-- > 0;) {
      base += (rest % shape[keptDims[k]]) * strides[keptDims[k]];
      rest /= shape[keptDims[k]];
    }
    float value = init;
    for (int64_t c = 0; c < combos; ++c) {
      int64_t offset = 0, left = c;
      for (size_t k = reducedDims.size(); k-- > 0;) {
        offset += (left % shape[reducedDims[k]]) * strides[reducedDims[k]];
        left /= shape[reducedDims[k]];
      }
      value = combine(value, values[size_t(base + offset)]);
    }
    result[size_t(r)] = value;
  }
  return result;
}

} // namespace tpu::reference
