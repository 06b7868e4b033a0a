//===- Memory.cpp - HBM, VMEM and SMEM of one TensorCore ------------------===//

#include "tpu/Sim/Memory.h"

#include "absl/strings/str_cat.h"

#include <algorithm>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#define TPU_VMEM_MMAP 1
#endif

namespace tpu::sim {

static uint32_t *mapZeroedVmem() {
#ifdef TPU_VMEM_MMAP
  void *pages = mmap(nullptr, kVmemBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return pages == MAP_FAILED ? nullptr : static_cast<uint32_t *>(pages);
#else
  return static_cast<uint32_t *>(std::calloc(kVmemBytes, 1));
#endif
}

void Memory::VmemDeleter::operator()(uint32_t *words) const {
#ifdef TPU_VMEM_MMAP
  munmap(words, kVmemBytes);
#else
  std::free(words);
#endif
}

Memory::Memory(const ChipInfo &chip, UninitializedReads uninitialized)
    : hbmTiles(int64_t(chip.hbmBytesPerCore / kTileBytes)),
      uninitialized(uninitialized), vmem(mapZeroedVmem()),
      smem(size_t(kSmemWords), 0) {
  if (!vmem)
    std::abort(); // as a vector would, out of memory
  if (uninitialized == UninitializedReads::NaN)
    std::fill_n(vmem.get(), size_t(kVmemRows) * kLanes, kPoisonWord);
  if (uninitialized == UninitializedReads::Trap)
    vmemWritten.assign(size_t(kVmemRows), false);
}

absl::Status Memory::checkHbmTile(int64_t tile) const {
  if (tile >= 0 && tile < hbmTiles)
    return absl::OkStatus();
  return absl::OutOfRangeError(
      absl::StrCat("HBM tile ", tile, " is out of bounds [0, ", hbmTiles, ")"));
}

static absl::Status checkWord(int64_t word) {
  if (word >= 0 && word < int64_t(kWordsPerTile))
    return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat(
      "word ", word, " is out of a tile's bounds [0, ", kWordsPerTile, ")"));
}

Tile &Memory::hbmTileForWrite(int64_t tile, bool whole) {
  std::unique_ptr<Tile> &slot = hbm[tile];
  if (!slot) {
    slot.reset(new Tile); // uninitialized: filled below or by the caller
    if (!whole)
      slot->fill(uninitialized == UninitializedReads::NaN ? kPoisonWord : 0);
  }
  return *slot;
}

absl::Status Memory::uninitializedHbmTile(int64_t tile) const {
  return absl::FailedPreconditionError(absl::StrCat(
      "HBM tile ", tile,
      " is read before anything wrote it (neither an argument, a constant "
      "nor a dma.st)"));
}

absl::Status Memory::readHbmTile(int64_t tile, uint32_t *out) const {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  auto it = hbm.find(tile);
  if (it != hbm.end()) {
    std::copy(it->second->begin(), it->second->end(), out);
    return absl::OkStatus();
  }
  if (uninitialized == UninitializedReads::Trap)
    return uninitializedHbmTile(tile);
  std::fill_n(out, kWordsPerTile,
              uninitialized == UninitializedReads::NaN ? kPoisonWord : 0);
  return absl::OkStatus();
}

absl::Status Memory::writeHbmTile(int64_t tile, const uint32_t *in) {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  Tile &stored = hbmTileForWrite(tile, /*whole=*/true);
  std::copy_n(in, kWordsPerTile, stored.begin());
  return absl::OkStatus();
}

absl::Status Memory::writeHbmWord(int64_t tile, int64_t word, uint32_t value) {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  if (absl::Status status = checkWord(word); !status.ok())
    return status;
  hbmTileForWrite(tile, /*whole=*/false)[word] = value;
  return absl::OkStatus();
}

absl::Status Memory::checkVmemRows(int64_t first, int64_t count) const {
  if (first >= 0 && count >= 0 && count <= kVmemRows &&
      first <= kVmemRows - count)
    return absl::OkStatus();
  return absl::OutOfRangeError(
      absl::StrCat("VMEM rows [", first, ", ", first + count,
                   ") are out of bounds [0, ", kVmemRows, ")"));
}

absl::Status Memory::checkVmemRowsWritten(int64_t first, int64_t count) const {
  if (vmemWritten.empty())
    return absl::OkStatus();
  for (int64_t row = first; row < first + count; ++row)
    if (!vmemWritten[size_t(row)])
      return absl::FailedPreconditionError(
          absl::StrCat("VMEM row ", row, " is read before anything wrote it"));
  return absl::OkStatus();
}

void Memory::noteVmemWrite(int64_t first, int64_t count) {
  if (count <= 0)
    return;
  vmemHighWaterRows = std::max<int64_t>(vmemHighWaterRows, first + count);
  if (!vmemWritten.empty())
    std::fill(vmemWritten.begin() + first, vmemWritten.begin() + first + count,
              true);
}

static absl::Status checkSmemWord(int64_t word) {
  if (word >= 0 && word < kSmemWords)
    return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat(
      "SMEM word ", word, " is out of bounds [0, ", kSmemWords, ")"));
}

absl::Status Memory::readSmem(int64_t word, uint32_t &out) const {
  if (absl::Status status = checkSmemWord(word); !status.ok())
    return status;
  out = smem[word];
  return absl::OkStatus();
}

absl::Status Memory::writeSmem(int64_t word, uint32_t value) {
  if (absl::Status status = checkSmemWord(word); !status.ok())
    return status;
  smem[word] = value;
  return absl::OkStatus();
}

} // namespace tpu::sim
