//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the .npy format (versions 1.0, 2.0 and 3.0) for the
// element types a program's signature can have: little-endian float32
// ('<f4') and int32 ('<i4'), C order.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_NPY_NPY_H
#define TPU_NPY_NPY_H

#include "tpu/ISA/Program.h"

#include "absl/status/statusor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tpu {

struct NpyArray {
  isa::ElementType elementType = isa::ElementType::F32;
  std::vector<int64_t> shape;
  /// Elements in C order, as raw 32-bit words.
  std::vector<uint32_t> words;
};

/// Parses .npy bytes; `name` goes into error messages.
absl::StatusOr<NpyArray> parseNpy(const std::vector<uint8_t> &bytes,
                                  const std::string &name);
absl::StatusOr<NpyArray> readNpyFile(const std::string &path);

std::vector<uint8_t> serializeNpy(const NpyArray &array);
absl::Status writeNpyFile(const std::string &path, const NpyArray &array);

/// `(7, 300)` as NumPy prints a shape.
std::string formatShape(const std::vector<int64_t> &shape);

} // namespace tpu

#endif // TPU_NPY_NPY_H
