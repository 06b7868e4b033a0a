//===- ChipTest.cpp - The shared chip table -------------------------------===//

#include "tpu/Support/Chip.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tpu;

namespace {

TEST(ChipTest, LooksUpEveryChipByName) {
  for (const ChipInfo &info : allChips()) {
    std::optional<ChipKind> kind = lookupChip(info.name);
    ASSERT_TRUE(kind.has_value()) << info.name;
    EXPECT_EQ(*kind, info.kind);
    EXPECT_EQ(&getChipInfo(*kind), &info);
  }
  EXPECT_FALSE(lookupChip("v5e").has_value());
  EXPECT_FALSE(lookupChip("V4").has_value());
  EXPECT_EQ(listChipNames(), "v2, v3, v4");
}

TEST(ChipTest, DefaultIsV4) {
  EXPECT_STREQ(getChipInfo(kDefaultChip).name, "v4");
}

TEST(ChipTest, PublishedFigures) {
  const ChipInfo &v2 = getChipInfo(ChipKind::V2);
  const ChipInfo &v3 = getChipInfo(ChipKind::V3);
  const ChipInfo &v4 = getChipInfo(ChipKind::V4);
  EXPECT_EQ(v2.mxusPerCore, 1u);
  EXPECT_EQ(v3.mxusPerCore, 2u);
  EXPECT_EQ(v4.mxusPerCore, 4u);
  EXPECT_EQ(v2.clockHz, 700000000u);
  EXPECT_EQ(v4.clockHz, 1050000000u);
  EXPECT_EQ(v2.hbmBytesPerChip, 16ull << 30);
  EXPECT_EQ(v3.hbmBytesPerChip, 32ull << 30);
  EXPECT_EQ(v2.hbmBytesPerCore, 8ull << 30);
  EXPECT_EQ(v3.hbmBytesPerCore, 16ull << 30);
  EXPECT_EQ(v4.hbmBytesPerCore, 32ull << 30);
  EXPECT_EQ(v4.hbmBytesPerSecond, 1200000000000u);
}

TEST(ChipTest, PublishedPeakMatchesTheMachineModel) {
  // cores x MXUs x 128^2 MACs x 2 FLOPs x clock must reproduce the published
  // peak to within rounding of the published figure.
  for (const ChipInfo &info : allChips()) {
    double derived =
        info.derivedPeakBF16FlopsPerCore() * info.tensorCoresPerChip;
    EXPECT_NEAR(derived / info.peakBF16FlopsPerChip, 1.0, 0.01) << info.name;
  }
}

// The assumed result buffer (Chip.def, docs/Simulator.md): every measured
// figure in docs/ depends on it, so a change must re-measure them.
TEST(ChipTest, AssumedResultSlots) {
  for (const ChipInfo &info : allChips())
    EXPECT_EQ(info.mxuResultSlots, 128u) << info.name;
}

TEST(ChipTest, CoreGeometry) {
  EXPECT_EQ(kTileBytes, 4096u);
  EXPECT_EQ(kVmemBytes / kTileBytes, 4096u);
}

} // namespace
