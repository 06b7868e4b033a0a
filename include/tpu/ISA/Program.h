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
#include <vector>

namespace tpu::isa {

/// Element types a program's arguments and results may have. Each element
/// takes one 32-bit word of the tiled layout.
enum class ElementType : uint8_t { F32 = 0, I32 = 1 };
const char *getElementTypeName(ElementType type);

/// One argument or result of the entry function.
struct TensorSignature {
  std::string name;
  ElementType elementType = ElementType::F32;
  std::vector<int64_t> shape;
  /// The HBM tile where its tiled, padded image starts.
  uint32_t hbmTile = 0;

  TiledShape tiled() const { return TiledShape::get(shape); }
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

struct Program {
  ChipKind chip = kDefaultChip;
  std::string entry = "main";
  /// MACs the source program needs (logical M*N*K per matmul, times its
  /// precision's passes), recorded by the compiler; the simulator divides it
  /// by the MACs the MXUs issue to report padding efficiency.
  uint64_t usefulMacs = 0;
  std::vector<TensorSignature> arguments;
  std::vector<TensorSignature> results;
  std::vector<HbmConstant> constants;
  std::vector<Bundle> bundles;

  bool operator==(const Program &other) const {
    return chip == other.chip && entry == other.entry &&
           usefulMacs == other.usefulMacs && arguments == other.arguments &&
           results == other.results && constants == other.constants &&
           bundles == other.bundles;
  }
};

/// Checks what the encoding cannot: every bundle follows the slot rules,
/// MXU indices exist on the program's chip, branch targets are bundles, and
/// tensors and constants fit in the chip's HBM. Returns an error message.
std::optional<std::string> verifyProgram(const Program &program);

} // namespace tpu::isa

#endif // TPU_ISA_PROGRAM_H
