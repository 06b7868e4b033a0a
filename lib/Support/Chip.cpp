//===- Chip.cpp - TPU chip description ------------------------------------===//

#include "tpu/Support/Chip.h"

#include <cassert>

namespace tpu {

namespace {
constexpr uint64_t kGiB = 1ull << 30;

constexpr std::array<ChipInfo, kNumChips> kChips = {{
#define TPU_CHIP(ENUM, NAME, CORES, MXUS, CLOCK_MHZ, HBM_GIB, HBM_GIB_PER_CORE, \
                 HBM_GBPS, PEAK_TFLOPS, RESULT_SLOTS)                          \
  {ChipKind::ENUM,                                                             \
   NAME,                                                                       \
   CORES,                                                                      \
   MXUS,                                                                       \
   uint64_t(CLOCK_MHZ) * 1000000,                                              \
   uint64_t(HBM_GIB) * kGiB,                                                   \
   uint64_t(HBM_GIB_PER_CORE) * kGiB,                                          \
   uint64_t(HBM_GBPS) * 1000000000,                                            \
   double(PEAK_TFLOPS) * 1e12,                                                 \
   RESULT_SLOTS},
#include "tpu/Support/Chip.def"
}};
} // namespace

double ChipInfo::derivedPeakBF16FlopsPerCore() const {
  return 2.0 * kMxuDim * kMxuDim * mxusPerCore * double(clockHz);
}

const std::array<ChipInfo, kNumChips> &allChips() { return kChips; }

const ChipInfo &getChipInfo(ChipKind kind) {
  const ChipInfo &info = kChips[static_cast<size_t>(kind)];
  assert(info.kind == kind && "chip table out of order");
  return info;
}

std::optional<ChipKind> lookupChip(std::string_view name) {
  for (const ChipInfo &info : kChips)
    if (name == info.name)
      return info.kind;
  return std::nullopt;
}

std::string listChipNames() {
  std::string names;
  for (const ChipInfo &info : kChips) {
    if (!names.empty())
      names += ", ";
    names += info.name;
  }
  return names;
}

} // namespace tpu
