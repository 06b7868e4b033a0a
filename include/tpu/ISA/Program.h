//===- Program.h - A TPU program in memory ----------------------*- C++ -*-===//
//
// What a .tpu binary holds: the chip it is built for, the entry signature
// (each argument's and result's logical shape, element type and where its
// tiled image lives in HBM), constants to preload into HBM, and the code as
// VLIW bundles. The binary format, the assembly listing, the ISA-level MLIR
// and the simulator all meet here.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_ISA_PROGRAM_H
#define TPU_ISA_PROGRAM_H

#include "tpu/ISA/ISA.h"
#include "tpu/Support/Chip.h"
#include "tpu/Support/TiledLayout.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace tpu::isa {

/// Element types a program's arguments and results may have. Each element
/// takes one 32-bit word of the tiled layout.
enum class ElementType : uint8_t {
#define TPU_ELEMENT_TYPE(ENUM, NAME, CODE) ENUM = CODE,
#include "tpu/ISA/ElementTypes.def"
};
const char *getElementTypeName(ElementType type);
/// The element type with binary code `code`, or nothing.
std::optional<ElementType> lookupElementType(unsigned code);
/// Every code and its name, as "0 = f32, 1 = i32, ...", for messages.
std::string describeElementTypeCodes();

/// One argument or result of the entry function.
struct TensorSignature {
  std::string name;
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> shape;
  /// The HBM tile where its tiled, padded image starts.
  uint32_t hbmTile = 0;

  /// Its tiled image's shape: bf16 packs two elements to a word.
  TiledShape tiled() const {
    return TiledShape::get(shape, elementType == ElementType::BF16 ? 2 : 1);
  }
  bool operator==(const TensorSignature &other) const {
    return name == other.name && elementType == other.elementType &&
           shape == other.shape && hbmTile == other.hbmTile;
  }
};

/// Words preloaded into HBM before the program starts.
struct HbmConstant {
  uint32_t hbmTile = 0;
  std::vector<uint32_t> words;
  bool operator==(const HbmConstant &other) const {
    return hbmTile == other.hbmTile && words == other.words;
  }
};

/// Where instructions came from: a source op's name (the name of its
/// location, which tpu-name-locations sets to the op's, e.g.
/// "linalg.matmul") and its position in the source file. Either part may
/// be empty. The debug section of the binary holds a program's list.
struct SourceLocation {
  std::string opName;
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;

  /// "linalg.matmul examples/mlp.mlir:18:9"; the parts it has.
  std::string describe() const;
  bool operator==(const SourceLocation &other) const {
    return opName == other.opName && file == other.file && line == other.line &&
           column == other.column;
  }
  bool operator<(const SourceLocation &other) const {
    return std::tie(opName, file, line, column) <
           std::tie(other.opName, other.file, other.line, other.column);
  }
};

struct Program {
  ChipKind chip = kDefaultChip;
  std::string entry = "main";
  /// MACs the source program needs (logical M*N*K per matmul, times its
  /// precision's passes), recorded by the compiler; the simulator divides it
  /// by the MACs the MXUs issue to report padding efficiency.
  uint64_t usefulMacs = 0;
  /// The same without the passes: M*N*K per matmul, the f32-equivalent work
  /// (docs/Simulator.md, "Statistics").
  uint64_t usefulF32Macs = 0;
  std::vector<TensorSignature> arguments;
  std::vector<TensorSignature> results;
  std::vector<HbmConstant> constants;
  std::vector<Bundle> bundles;
  /// The source ops instructions name by index (Instruction::source);
  /// empty when the program has no debug information. The binary holds
  /// each once, in the order instructions first name them (writeBinary
  /// renumbers).
  std::vector<SourceLocation> sourceLocations;

  bool operator==(const Program &other) const {
    return chip == other.chip && entry == other.entry &&
           usefulMacs == other.usefulMacs &&
           usefulF32Macs == other.usefulF32Macs &&
           arguments == other.arguments && results == other.results &&
           constants == other.constants && bundles == other.bundles &&
           sourceLocations == other.sourceLocations;
  }
};

/// Checks what the encoding cannot: tensors and constants fit in the chip's
/// HBM, verifyBundleInProgram holds for every bundle, and each
/// instruction's source is one of sourceLocations (verifySources). The one
/// program verifier: the loader, the tools and the tpu_isa dialect all call
/// it (or its parts).
absl::Status verifyProgram(const Program &program);

/// Every instruction's source is kNoSource or an index into
/// sourceLocations (the simulator's profile indexes by it).
absl::Status verifySources(const Program &program);

/// The entry signature and the constants: shapes and ranks the runtime
/// supports, each placed inside the chip's HBM.
absl::Status verifySignature(const Program &program);

/// One bundle of a program for `chip` with `numBundles` bundles: the slot
/// rules (verifyBundle) and verifyInstructionInProgram for each instruction.
absl::Status verifyBundleInProgram(const Bundle &bundle, ChipKind chip,
                                   size_t numBundles);

/// What an instruction needs of its program: MXU indices that the chip has,
/// branch targets that are bundles of the program.
absl::Status verifyInstructionInProgram(const Instruction &inst, ChipKind chip,
                                        size_t numBundles);

} // namespace tpu::isa

#endif // TPU_ISA_PROGRAM_H
