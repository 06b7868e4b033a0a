//===- Memory.cpp - HBM, VMEM and SMEM of one TensorCore ------------------===//

#include "tpu/Sim/Memory.h"

namespace tpu::sim {

Memory::Memory(const ChipInfo &chip)
    : hbmTiles(int64_t(chip.hbmBytesPerChip / kTileBytes)),
      vmem(size_t(kVmemRows) * kLanes, 0), smem(size_t(kSmemWords), 0) {}

bool Memory::checkHbmTile(int64_t tile, std::string &error) const {
  if (tile >= 0 && tile < hbmTiles)
    return true;
  error = "HBM tile " + std::to_string(tile) + " is out of bounds [0, " +
          std::to_string(hbmTiles) + ")";
  return false;
}

bool Memory::readHbmTile(int64_t tile, Tile &out, std::string &error) const {
  if (!checkHbmTile(tile, error))
    return false;
  auto it = hbm.find(tile);
  if (it == hbm.end())
    out.fill(0);
  else
    out = *it->second;
  return true;
}

bool Memory::writeHbmTile(int64_t tile, const Tile &in, std::string &error) {
  if (!checkHbmTile(tile, error))
    return false;
  std::unique_ptr<Tile> &slot = hbm[tile];
  if (!slot)
    slot = std::make_unique<Tile>();
  *slot = in;
  return true;
}

bool Memory::writeHbmWord(int64_t tile, int64_t word, uint32_t value,
                          std::string &error) {
  if (!checkHbmTile(tile, error))
    return false;
  std::unique_ptr<Tile> &slot = hbm[tile];
  if (!slot) {
    slot = std::make_unique<Tile>();
    slot->fill(0);
  }
  (*slot)[word] = value;
  return true;
}

uint32_t Memory::readHbmWord(int64_t tile, int64_t word) const {
  auto it = hbm.find(tile);
  return it == hbm.end() ? 0 : (*it->second)[word];
}

bool Memory::checkVmemRows(int64_t first, int64_t count,
                           std::string &error) const {
  if (first >= 0 && count >= 0 && first + count <= kVmemRows)
    return true;
  error = "VMEM rows [" + std::to_string(first) + ", " +
          std::to_string(first + count) + ") are out of bounds [0, " +
          std::to_string(kVmemRows) + ")";
  return false;
}

bool Memory::readSmem(int64_t word, uint32_t &out, std::string &error) const {
  if (word < 0 || word >= kSmemWords) {
    error = "SMEM word " + std::to_string(word) + " is out of bounds [0, " +
            std::to_string(kSmemWords) + ")";
    return false;
  }
  out = smem[word];
  return true;
}

bool Memory::writeSmem(int64_t word, uint32_t value, std::string &error) {
  if (word < 0 || word >= kSmemWords) {
    error = "SMEM word " + std::to_string(word) + " is out of bounds [0, " +
            std::to_string(kSmemWords) + ")";
    return false;
  }
  smem[word] = value;
  return true;
}

} // namespace tpu::sim
