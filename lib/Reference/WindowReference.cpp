//===- WindowReference.cpp - Plain C++ model of image windows -------------===//

#include "tpu/Reference/WindowReference.h"

#include <cstddef>

using namespace tpu::reference;

int64_t Windows::outputSize(int dim) const {
  int64_t padded =
      image[1 + dim] + padding[2 * dim] + padding[2 * dim + 1];
  int64_t extent = dilations[dim] * (window[dim] - 1) + 1;
  return padded < extent ? 0 : (padded - extent) / strides[dim] + 1;
}

namespace {

/// Tap (kh, kw) of output position (oh, ow) of image n, channel c.
float tap(const Windows &w, const std::vector<float> &image, int64_t n,
          int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t c) {
  auto [batch, rows, cols, channels] = w.image;
  int64_t row = oh * w.strides[0] + kh * w.dilations[0] - w.padding[0];
  int64_t col = ow * w.strides[1] + kw * w.dilations[1] - w.padding[2];
  if (row < 0 || row >= rows || col < 0 || col >= cols)
    return w.padValue;
  return image[((n * rows + row) * cols + col) * channels + c];
}

} // namespace

std::vector<float>
tpu::reference::windowTaps(const Windows &w, const std::vector<float> &image) {
  int64_t oh = w.outputSize(0), ow = w.outputSize(1);
  std::vector<float> taps;
  taps.reserve(std::size_t(w.window[0] * w.window[1] * w.image[0] * oh * ow *
                      w.image[3]));
  for (int64_t kh = 0; kh < w.window[0]; ++kh)
    for (int64_t kw = 0; kw < w.window[1]; ++kw)
      for (int64_t n = 0; n < w.image[0]; ++n)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x)
            for (int64_t c = 0; c < w.image[3]; ++c)
              taps.push_back(tap(w, image, n, y, x, kh, kw, c));
  return taps;
}

std::vector<float> tpu::reference::im2col(const Windows &w,
                                          const std::vector<float> &image,
                                          int64_t paddedC) {
  int64_t oh = w.outputSize(0), ow = w.outputSize(1);
  std::vector<float> matrix;
  matrix.reserve(std::size_t(w.image[0] * oh * ow * w.window[0] * w.window[1] *
                        paddedC));
  for (int64_t n = 0; n < w.image[0]; ++n)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t kh = 0; kh < w.window[0]; ++kh)
          for (int64_t kw = 0; kw < w.window[1]; ++kw)
            for (int64_t c = 0; c < paddedC; ++c)
              matrix.push_back(c < w.image[3]
                                   ? tap(w, image, n, y, x, kh, kw, c)
                                   : 0.0f);
  return matrix;
}
