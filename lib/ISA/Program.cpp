//===- Program.cpp - A TPU program in memory ------------------------------===//

#include "tpu/ISA/Program.h"

namespace tpu::isa {

const char *getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::I32:
    return "i32";
  }
  return "?";
}

static std::optional<std::string> verifyTensor(const TensorSignature &tensor,
                                               const char *role,
                                               uint64_t hbmTiles) {
  std::string what = std::string(role) + " '" + tensor.name + "'";
  if (tensor.shape.size() > 8)
    return what + " has rank " + std::to_string(tensor.shape.size()) +
           "; at most 8 is supported";
  int64_t elements = 1;
  for (int64_t dim : tensor.shape) {
    if (dim < 1 || dim > (int64_t(1) << 31))
      return what + " has a dimension of " + std::to_string(dim) +
             "; dimensions must be in [1, 2^31]";
    elements *= dim;
    if (elements > (int64_t(1) << 40))
      return what + " has more than 2^40 elements";
  }
  uint64_t end = uint64_t(tensor.hbmTile) + uint64_t(tensor.tiled().numTiles());
  if (end > hbmTiles)
    return what + " ends at HBM tile " + std::to_string(end) +
           ", past the chip's " + std::to_string(hbmTiles) + " tiles";
  return std::nullopt;
}

std::optional<std::string> verifyProgram(const Program &program) {
  const ChipInfo &chip = getChipInfo(program.chip);
  uint64_t hbmTiles = chip.hbmBytesPerChip / kTileBytes;
  for (const TensorSignature &tensor : program.arguments)
    if (auto error = verifyTensor(tensor, "argument", hbmTiles))
      return error;
  for (const TensorSignature &tensor : program.results)
    if (auto error = verifyTensor(tensor, "result", hbmTiles))
      return error;
  for (const HbmConstant &constant : program.constants) {
    uint64_t tiles =
        (constant.words.size() + kWordsPerTile - 1) / kWordsPerTile;
    if (constant.hbmTile + tiles > hbmTiles)
      return "a constant at HBM tile " + std::to_string(constant.hbmTile) +
             " runs past the chip's HBM";
  }
  for (size_t b = 0; b < program.bundles.size(); ++b) {
    const Bundle &bundle = program.bundles[b];
    if (auto error = verifyBundle(bundle))
      return "bundle " + std::to_string(b) + ": " + *error;
    for (const Instruction &inst : bundle.instructions) {
      const InstInfo &info = inst.info();
      for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
        int64_t value = inst.operands[i];
        if (info.operands[i] == OperandKind::Mxu && value >= chip.mxusPerCore)
          return "bundle " + std::to_string(b) + ": " + info.mnemonic +
                 " uses MXU " + std::to_string(value) + ", but " + chip.name +
                 " has " + std::to_string(chip.mxusPerCore) +
                 " MXU(s) per core (0.." +
                 std::to_string(chip.mxusPerCore - 1) + ")";
        if (info.operands[i] == OperandKind::Target &&
            uint64_t(value) >= program.bundles.size())
          return "bundle " + std::to_string(b) + ": " + info.mnemonic +
                 " targets bundle " + std::to_string(value) +
                 ", but the program has " +
                 std::to_string(program.bundles.size()) + " bundles";
      }
    }
  }
  return std::nullopt;
}

} // namespace tpu::isa
