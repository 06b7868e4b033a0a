//===- Program.cpp - A TPU program in memory ------------------------------===//

#include "tpu/ISA/Program.h"

#include "absl/strings/str_cat.h"

namespace tpu::isa {

const char *getElementTypeName(ElementType type) {
  switch (type) {
#define TPU_ELEMENT_TYPE(ENUM, NAME, CODE)                                     \
  case ElementType::ENUM:                                                      \
    return NAME;
#include "tpu/ISA/ElementTypes.def"
  }
  return "?";
}

std::optional<ElementType> lookupElementType(unsigned code) {
  switch (code) {
#define TPU_ELEMENT_TYPE(ENUM, NAME, CODE)                                     \
  case CODE:                                                                   \
    return ElementType::ENUM;
#include "tpu/ISA/ElementTypes.def"
  }
  return std::nullopt;
}

std::string describeElementTypeCodes() {
  std::string text;
#define TPU_ELEMENT_TYPE(ENUM, NAME, CODE)                                     \
  absl::StrAppend(&text, text.empty() ? "" : ", ", CODE, " = ", NAME);
#include "tpu/ISA/ElementTypes.def"
  return text;
}

static absl::Status verifyTensor(const TensorSignature &tensor,
                                 const char *role, uint64_t hbmTiles) {
  std::string what = absl::StrCat(role, " '", tensor.name, "'");
  if (tensor.shape.size() > 8)
    return absl::InvalidArgumentError(absl::StrCat(
        what, " has rank ", tensor.shape.size(), "; at most 8 is supported"));
  int64_t elements = 1;
  for (int64_t dim : tensor.shape) {
    if (dim < 1 || dim > (int64_t(1) << 31))
      return absl::InvalidArgumentError(
          absl::StrCat(what, " has a dimension of ", dim,
                       "; dimensions must be in [1, 2^31]"));
    elements *= dim;
    if (elements > (int64_t(1) << 40))
      return absl::InvalidArgumentError(
          absl::StrCat(what, " has more than 2^40 elements"));
  }
  uint64_t end = uint64_t(tensor.hbmTile) + uint64_t(tensor.tiled().numTiles());
  if (end > hbmTiles)
    return absl::InvalidArgumentError(absl::StrCat(what, " ends at HBM tile ",
                                                   end, ", past the chip's ",
                                                   hbmTiles, " tiles"));
  return absl::OkStatus();
}

absl::Status verifySignature(const Program &program) {
  uint64_t hbmTiles = getChipInfo(program.chip).hbmBytesPerCore / kTileBytes;
  for (const TensorSignature &tensor : program.arguments)
    if (absl::Status status = verifyTensor(tensor, "argument", hbmTiles);
        !status.ok())
      return status;
  for (const TensorSignature &tensor : program.results)
    if (absl::Status status = verifyTensor(tensor, "result", hbmTiles);
        !status.ok())
      return status;
  for (const HbmConstant &constant : program.constants) {
    uint64_t tiles =
        (constant.words.size() + kWordsPerTile - 1) / kWordsPerTile;
    if (constant.hbmTile + tiles > hbmTiles)
      return absl::InvalidArgumentError(
          absl::StrCat("a constant at HBM tile ", constant.hbmTile,
                       " runs past the chip's HBM"));
  }
  return absl::OkStatus();
}

absl::Status verifyInstructionInProgram(const Instruction &inst, ChipKind chip,
                                        size_t numBundles) {
  const ChipInfo &info = getChipInfo(chip);
  const InstInfo &row = inst.info();
  for (unsigned i = 0, e = row.getNumOperands(); i < e; ++i) {
    int64_t value = inst.operands[i];
    if (row.operands[i] == OperandKind::Mxu && value >= info.mxusPerCore)
      return absl::InvalidArgumentError(
          absl::StrCat(row.mnemonic, " uses MXU ", value, ", but ", info.name,
                       " has ", info.mxusPerCore, " MXU(s) per core (0..",
                       info.mxusPerCore - 1, ")"));
    if (row.operands[i] == OperandKind::Target && uint64_t(value) >= numBundles)
      return absl::InvalidArgumentError(
          absl::StrCat(row.mnemonic, " targets bundle b", value,
                       ", but the program has ", numBundles, " bundles"));
  }
  return absl::OkStatus();
}

absl::Status verifyBundleInProgram(const Bundle &bundle, ChipKind chip,
                                   size_t numBundles) {
  if (absl::Status status = verifyBundle(bundle); !status.ok())
    return status;
  for (const Instruction &inst : bundle.instructions)
    if (absl::Status status =
            verifyInstructionInProgram(inst, chip, numBundles);
        !status.ok())
      return status;
  return absl::OkStatus();
}

std::string SourceLocation::describe() const {
  std::string text = opName;
  if (!file.empty())
    absl::StrAppend(&text, text.empty() ? "" : " ", file, ":", line, ":",
                    column);
  return text.empty() ? "(unknown)" : text;
}

absl::Status verifySources(const Program &program) {
  size_t numSources = program.sourceLocations.size();
  for (size_t b = 0; b < program.bundles.size(); ++b)
    for (const Instruction &inst : program.bundles[b].instructions)
      if (inst.source != kNoSource && inst.source >= numSources)
        return absl::InvalidArgumentError(absl::StrCat(
            "bundle ", b, ": ", inst.info().mnemonic, " names source ",
            inst.source, ", but the program has ", numSources,
            " source locations"));
  return absl::OkStatus();
}

absl::Status verifyProgram(const Program &program) {
  if (absl::Status status = verifySignature(program); !status.ok())
    return status;
  if (absl::Status status = verifySources(program); !status.ok())
    return status;
  for (size_t b = 0; b < program.bundles.size(); ++b)
    if (absl::Status status = verifyBundleInProgram(
            program.bundles[b], program.chip, program.bundles.size());
        !status.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("bundle ", b, ": ", status.message()));
  return absl::OkStatus();
}

} // namespace tpu::isa
