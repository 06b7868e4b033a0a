//===- Runtime.cpp - Host <-> device transfers ----------------------------===//

#include "tpu/Sim/Runtime.h"

#include "tpu/Support/BF16.h"

#include "absl/strings/str_cat.h"

namespace tpu::sim {

using isa::TensorSignature;

/// The .npy element type that holds an argument or result of `type`:
/// bf16 travels as f32 (.npy has no bf16).
static isa::ElementType getHostElementType(isa::ElementType type) {
  return type == isa::ElementType::BF16 ? isa::ElementType::F32 : type;
}

absl::Status checkArgument(const TensorSignature &argument,
                           isa::ElementType elementType,
                           const std::vector<int64_t> &shape,
                           const std::string &source) {
  isa::ElementType hostType = getHostElementType(argument.elementType);
  if (elementType != hostType)
    return absl::InvalidArgumentError(absl::StrCat(
        source, ": argument '", argument.name, "' is ",
        isa::getElementTypeName(argument.elementType), " but the file holds ",
        isa::getElementTypeName(elementType),
        "; convert it with a.astype(numpy.",
        hostType == isa::ElementType::F32 ? "float32" : "int32", ")"));
  if (shape != argument.shape)
    return absl::InvalidArgumentError(
        absl::StrCat(source, ": argument '", argument.name, "' has shape ",
                     formatShape(argument.shape), " but the file holds shape ",
                     formatShape(shape)));
  return absl::OkStatus();
}

absl::StatusOr<int64_t> transferToDevice(Memory &memory,
                                         const TensorSignature &argument,
                                         const NpyArray &array,
                                         const std::string &source) {
  if (absl::Status status =
          checkArgument(argument, array.elementType, array.shape, source);
      !status.ok())
    return status;
  TiledShape tiled = argument.tiled();
  auto placed = [&](absl::Status status) {
    return absl::InvalidArgumentError(
        absl::StrCat("argument '", argument.name,
                     "' does not fit in HBM: ", status.message()));
  };
  // A bf16 argument's f32 values round as the machine rounds (to nearest
  // even, subnormals to zero, NaNs quiet), and pack two to a word.
  bool bf16 = argument.elementType == isa::ElementType::BF16;
  int64_t rounded = 0;
  // A tile at a time, padding included, so padding reads as zero even
  // where HBM held something before.
  Tile tile;
  for (int64_t t = 0; t < tiled.numTiles(); ++t) {
    tile.fill(0);
    tiled.forEachElementInTile(t, [&](int64_t index, int64_t word,
                                      unsigned shift) {
      uint32_t bits = array.words[size_t(index)];
      if (bf16) {
        uint16_t value = toBF16(floatOf(bits));
        rounded += uint32_t(value) << 16 != bits;
        bits = value;
      }
      tile[size_t(word)] |= bits << shift;
    });
    if (absl::Status status =
            memory.writeHbmTile(argument.hbmTile + t, tile.data());
        !status.ok())
      return placed(status);
  }
  return rounded;
}

absl::StatusOr<NpyArray> transferToHost(const Memory &memory,
                                        const TensorSignature &result) {
  NpyArray array;
  array.elementType = getHostElementType(result.elementType);
  array.shape = result.shape;
  TiledShape tiled = result.tiled();
  array.words.resize(size_t(tiled.numElements()));
  Tile tile;
  for (int64_t t = 0; t < tiled.numTiles(); ++t) {
    if (absl::Status status =
            memory.readHbmTile(result.hbmTile + t, tile.data());
        !status.ok()) {
      if (absl::IsFailedPrecondition(status))
        return absl::FailedPreconditionError(
            absl::StrCat("result '", result.name,
                         "' was never written in full: ", status.message()));
      return absl::InvalidArgumentError(absl::StrCat(
          "result '", result.name, "' is not in HBM: ", status.message()));
    }
    tiled.forEachElementInTile(t, [&](int64_t index, int64_t word,
                                      unsigned shift) {
      uint32_t bits = tiled.elementBits(tile[size_t(word)], shift);
      array.words[size_t(index)] = tiled.packing == 1 ? bits : bits << 16;
    });
  }
  return array;
}

} // namespace tpu::sim
