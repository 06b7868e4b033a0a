//===- Memory.h - HBM, VMEM and SMEM of one TensorCore ----------*- C++ -*-===//
//
// The only path to memory. HBM is addressed in 4 KiB tiles and allocated
// sparsely, a tile at a time on first write, so a 32 GiB address space costs
// only what a program touches. VMEM (16 MiB) is addressed in rows of 128
// words (512 B); 8 rows make a tile. SMEM (16 KiB) is addressed in words.
// Every access a program controls is checked first: a bad address is an
// OutOfRange error, and (under --poison-uninitialized) a read of HBM tiles
// or VMEM rows nothing wrote is a FailedPrecondition error; the caller turns
// either into a trap.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_MEMORY_H
#define TPU_SIM_MEMORY_H

#include "tpu/Support/Chip.h"
#include "tpu/Support/TiledLayout.h"

#include "absl/status/status.h"

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tpu::sim {

inline constexpr int64_t kSmemWords = kSmemBytes / 4;

using Tile = std::array<uint32_t, kWordsPerTile>;

/// What reading memory (or a vector register) nothing has written does
/// (docs/Simulator.md, "Checks").
enum class UninitializedReads {
  /// Reads zeros, as HBM and VMEM start.
  Zero,
  /// Traps, naming the address.
  Trap,
  /// Reads kPoisonWord, a NaN, so that garbage shows in the results.
  NaN,
};

/// What never-written memory holds under UninitializedReads::NaN: a quiet
/// NaN whose payload reads "DEAD" in a hex dump.
inline constexpr uint32_t kPoisonWord = 0xFFC0DEADu;

class Memory {
public:
  explicit Memory(const ChipInfo &chip,
                  UninitializedReads uninitialized = UninitializedReads::Zero);

  UninitializedReads getUninitializedReads() const { return uninitialized; }

  /// HBM tiles. Reading a never-written tile gives zeros (kPoisonWord
  /// under NaN, an error under Trap).
  absl::Status checkHbmTile(int64_t tile) const;
  /// A whole tile, kWordsPerTile words, copied to `out` or from `in`
  /// (a Tile's data() or 8 consecutive VMEM rows).
  absl::Status readHbmTile(int64_t tile, uint32_t *out) const;
  absl::Status writeHbmTile(int64_t tile, const uint32_t *in);
  /// Word access, for the binary's scalar constants.
  absl::Status writeHbmWord(int64_t tile, int64_t word, uint32_t value);
  /// Bytes of HBM actually allocated.
  uint64_t getHbmResidentBytes() const { return hbm.size() * sizeof(Tile); }

  /// VMEM rows: check a range, then address its rows. A reader checks
  /// the rows it reads were written (checkVmemRowsWritten); a writer
  /// records what it wrote (noteVmemWrite).
  absl::Status checkVmemRows(int64_t first, int64_t count) const;
  absl::Status checkVmemRowsWritten(int64_t first, int64_t count) const;
  const uint32_t *vmemRow(int64_t row) const { return &vmem[row * kLanes]; }
  uint32_t *vmemRow(int64_t row) { return &vmem[row * kLanes]; }
  /// The highest VMEM byte written so far, plus one.
  uint64_t getVmemHighWaterBytes() const {
    return vmemHighWaterRows * kLanes * 4;
  }
  /// Rows [first, first + count), checked, have been written.
  void noteVmemWrite(int64_t first, int64_t count);

  /// SMEM words.
  absl::Status readSmem(int64_t word, uint32_t &out) const;
  absl::Status writeSmem(int64_t word, uint32_t value);

private:
  /// The tile, allocated on first write; cleared as a never-written tile
  /// reads unless `whole`, when the caller overwrites every word.
  Tile &hbmTileForWrite(int64_t tile, bool whole);

  absl::Status uninitializedHbmTile(int64_t tile) const;

  int64_t hbmTiles;
  UninitializedReads uninitialized;
  std::unordered_map<int64_t, std::unique_ptr<Tile>> hbm;
  /// 16 MiB of pages mapped for this core (mmap; calloc where there is
  /// none): the OS hands out zeroed pages as they are first touched, so a
  /// run pays only for the VMEM it uses. calloc alone does not promise
  /// it: after a large free, glibc serves the next from its heap and
  /// clears all 16 MiB, on every run of a process that simulates many.
  struct VmemDeleter {
    void operator()(uint32_t *words) const;
  };
  std::unique_ptr<uint32_t[], VmemDeleter> vmem;
  /// Under Trap: one flag per VMEM row.
  std::vector<bool> vmemWritten;
  int64_t vmemHighWaterRows = 0;
  std::vector<uint32_t> smem;
};

} // namespace tpu::sim

#endif // TPU_SIM_MEMORY_H
