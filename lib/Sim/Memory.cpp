//===- Memory.cpp - HBM, VMEM and SMEM of one TensorCore ------------------===//

#include "tpu/Sim/Memory.h"

#include "absl/strings/str_cat.h"

namespace tpu::sim {

Memory::Memory(const ChipInfo &chip)
    : hbmTiles(int64_t(chip.hbmBytesPerChip / kTileBytes)),
      vmem(size_t(kVmemRows) * kLanes, 0), smem(size_t(kSmemWords), 0) {}

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

Tile &Memory::hbmTileForWrite(int64_t tile) {
  std::unique_ptr<Tile> &slot = hbm[tile];
  if (!slot)
    slot = std::make_unique<Tile>(Tile{});
  return *slot;
}

absl::Status Memory::readHbmTile(int64_t tile, Tile &out) const {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  auto it = hbm.find(tile);
  if (it == hbm.end())
    out.fill(0);
  else
    out = *it->second;
  return absl::OkStatus();
}

absl::Status Memory::writeHbmTile(int64_t tile, const Tile &in) {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  hbmTileForWrite(tile) = in;
  return absl::OkStatus();
}

absl::Status Memory::writeHbmWord(int64_t tile, int64_t word, uint32_t value) {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  if (absl::Status status = checkWord(word); !status.ok())
    return status;
  hbmTileForWrite(tile)[word] = value;
  return absl::OkStatus();
}

absl::Status Memory::readHbmWord(int64_t tile, int64_t word,
                                 uint32_t &out) const {
  if (absl::Status status = checkHbmTile(tile); !status.ok())
    return status;
  if (absl::Status status = checkWord(word); !status.ok())
    return status;
  auto it = hbm.find(tile);
  out = it == hbm.end() ? 0 : (*it->second)[word];
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
