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
#include <functional>
#include <string>
#include <vector>

namespace tpu {

struct NpyArray {
  isa::ElementType elementType = isa::ElementType::F32;
  std::vector<int64_t> shape;
  /// Elements in C order, as raw 32-bit words.
  std::vector<uint32_t> words;
};

/// What a .npy header says.
struct NpyHeader {
  isa::ElementType elementType = isa::ElementType::F32;
  std::vector<int64_t> shape;
  uint64_t numElements = 1;
  /// Where the data starts in the file.
  uint64_t dataOffset = 0;
};

/// Limits on what a file may claim, so no header makes a reader allocate
/// without bound: the header's length (NumPy writes well under 1 KiB) and
/// the element count (2^40, 4 TiB of data).
inline constexpr size_t kMaxNpyHeaderBytes = 1 << 16;
inline constexpr uint64_t kMaxNpyElements = uint64_t(1) << 40;

/// Parses .npy bytes; `name` goes into error messages.
absl::StatusOr<NpyArray> parseNpy(const std::vector<uint8_t> &bytes,
                                  const std::string &name);

/// Reads a .npy file: the header first, checked against the file's size
/// and then by `vet` (if given), and the data only after both accept it.
absl::StatusOr<NpyArray>
readNpyFile(const std::string &path,
            const std::function<absl::Status(const NpyHeader &)> &vet = {});

std::vector<uint8_t> serializeNpy(const NpyArray &array);
absl::Status writeNpyFile(const std::string &path, const NpyArray &array);

/// `(7, 300)` as NumPy prints a shape.
std::string formatShape(const std::vector<int64_t> &shape);

} // namespace tpu

#endif // TPU_NPY_NPY_H
