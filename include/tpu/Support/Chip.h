//===- Chip.h - TPU chip description ----------------------------*- C++ -*-===//
//
// What the compiler and the simulator both need to know about a chip. The
// per-chip rows live in Chip.def; what all generations share per TensorCore is
// below as constants. Depends only on the C++ standard library.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_CHIP_H
#define TPU_SUPPORT_CHIP_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tpu {

/// A chip generation.
enum class ChipKind : uint8_t {
#define TPU_CHIP(ENUM, ...) ENUM,
#include "tpu/Support/Chip.def"
};

/// How many chips the table has.
inline constexpr size_t kNumChips = 0
#define TPU_CHIP(...) +1
#include "tpu/Support/Chip.def"
    ;

/// One row of the chip table.
struct ChipInfo {
  ChipKind kind;
  /// The name users write: `chip=v4`, `#tpu.chip<v4>`.
  const char *name;
  unsigned tensorCoresPerChip;
  unsigned mxusPerCore;
  uint64_t clockHz;
  uint64_t hbmBytesPerChip;
  /// What one TensorCore addresses (Chip.def): a program's limit.
  uint64_t hbmBytesPerCore;
  uint64_t hbmBytesPerSecond;
  /// The published peak, kept to cross-check the derived one.
  double peakBF16FlopsPerChip;
  /// Result-buffer slots per MXU, each 8 x 128 f32 (4 KiB): an assumption
  /// (Chip.def).
  unsigned mxuResultSlots;

  /// Peak bf16 FLOP/s of one TensorCore derived from the machine model: each
  /// MXU does kMxuDim^2 multiply-adds (2 FLOPs) per cycle.
  double derivedPeakBF16FlopsPerCore() const;
};

/// The default chip when none is named.
inline constexpr ChipKind kDefaultChip = ChipKind::V4;

/// Every chip, in table order.
const std::array<ChipInfo, kNumChips> &allChips();

/// The row for `kind`.
const ChipInfo &getChipInfo(ChipKind kind);

/// The chip called `name` (`v2`, `v3`, `v4`), or nothing.
std::optional<ChipKind> lookupChip(std::string_view name);

/// The valid names, comma-separated, for error messages.
std::string listChipNames();

//===----------------------------------------------------------------------===//
// Per-TensorCore geometry, the same on every generation in the table.
//===----------------------------------------------------------------------===//

/// A vector register holds kSublanes x kLanes 32-bit words.
inline constexpr unsigned kSublanes = 8;
inline constexpr unsigned kLanes = 128;
/// One (8,128) tile of 32-bit words: a vreg, and the VMEM addressing unit.
inline constexpr uint64_t kTileBytes = kSublanes * kLanes * 4;
inline constexpr uint64_t kVmemBytes = 16ull << 20;
/// VMEM is addressed in rows of kLanes 32-bit words.
inline constexpr int64_t kVmemRows = int64_t(kVmemBytes / (kLanes * 4));
inline constexpr uint64_t kSmemBytes = 16ull << 10;
/// The MXU is a kMxuDim x kMxuDim systolic array.
inline constexpr unsigned kMxuDim = 128;
/// Its timing (docs/Simulator.md, "Timing"): a weight load shifts a tile
/// in one row a cycle, a push streams its rows in one a cycle, and a
/// push's result is ready after the array's fill and drain, R + C - 2,
/// once its last row is in. The simulator runs by these; the bundler
/// spaces pushes by them.
inline constexpr uint64_t kMxuWeightLoadCycles = kMxuDim;
inline constexpr uint64_t kMxuPushCycles = kSublanes;
inline constexpr uint64_t kMxuPipelineCycles = 2 * kMxuDim - 2;
/// The DMA engine's queue: a DMA issued with this many in flight waits
/// at issue for the oldest (docs/Simulator.md, "Timing"). The simulator
/// runs by it; the matmul kernel keeps the stores it issues beside its
/// pushes under it.
inline constexpr unsigned kMaxOutstandingDmas = 32;

// Registers and VLIW slots are the instruction set's: tpu/ISA/ISA.def.

} // namespace tpu

#endif // TPU_SUPPORT_CHIP_H
