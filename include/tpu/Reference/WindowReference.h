//===- WindowReference.h - Plain C++ model of image windows -----*- C++ -*-===//
//
// The windows of an NHWC image batch as docs/Numerics.md ("Convolutions
// and pooling") defines them, written from the docs, not from the
// kernel: what convolutions (through im2col and the matmul model) and
// poolings (through the reduction model) are checked against.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_REFERENCE_WINDOWREFERENCE_H
#define TPU_REFERENCE_WINDOWREFERENCE_H

#include <array>
#include <cstdint>
#include <vector>

namespace tpu::reference {

/// An image batch [N, H, W, C] and the windows taken of it: `padding` is
/// [top, bottom, left, right] rows and columns of `padValue` around each
/// image; tap (kh, kw) of output position (oh, ow) is the padded image's
/// element at row oh * strides[0] + kh * dilations[0] and column
/// ow * strides[1] + kw * dilations[1].
struct Windows {
  std::array<int64_t, 4> image = {1, 1, 1, 1};
  std::array<int64_t, 2> window = {1, 1};
  std::array<int64_t, 2> strides = {1, 1};
  std::array<int64_t, 2> dilations = {1, 1};
  std::array<int64_t, 4> padding = {0, 0, 0, 0};
  float padValue = 0;

  /// The output's rows (dim 0) or columns (dim 1); 0 when a window does
  /// not fit the padded image.
  int64_t outputSize(int dim) const;
};

/// The taps, leading: [KH, KW, N, OH, OW, C], row-major.
std::vector<float> windowTaps(const Windows &windows,
                              const std::vector<float> &image);

/// The im2col matrix: [N * OH * OW, KH * KW * paddedC], row (n, oh, ow)
/// holding tap kh * KW + kw in columns [t paddedC, t paddedC + C) and
/// zeros in the rest of each tap's paddedC.
std::vector<float> im2col(const Windows &windows,
                          const std::vector<float> &image, int64_t paddedC);

} // namespace tpu::reference

#endif // TPU_REFERENCE_WINDOWREFERENCE_H
