//===- ByteReader.h - Decisions drawn from a fuzzer's bytes -----*- C++ -*-===//
//
// The structure-aware fuzz targets turn their input into choices: each
// call takes the next bytes, and a finished input reads as zeros, so every
// input (the empty one too) describes one valid case and a mutation of a
// byte changes one decision.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_FUZZ_BYTEREADER_H
#define TPU_FUZZ_BYTEREADER_H

#include <cstddef>
#include <cstdint>

namespace tpu::fuzz {

class ByteReader {
public:
  ByteReader(const uint8_t *data, size_t size) : data(data), size(size) {}

  uint8_t byte() { return offset < size ? data[offset++] : 0; }
  uint32_t word() {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i)
      value |= uint32_t(byte()) << (8 * i);
    return value;
  }
  /// A value in [0, bound), bound > 0.
  uint32_t below(uint32_t bound) {
    return bound <= 256 ? byte() % bound : word() % bound;
  }
  /// One of `values`.
  template <typename T, size_t N> T pick(const T (&values)[N]) {
    return values[below(N)];
  }
  bool exhausted() const { return offset >= size; }

private:
  const uint8_t *data;
  size_t size;
  size_t offset = 0;
};

} // namespace tpu::fuzz

#endif // TPU_FUZZ_BYTEREADER_H
