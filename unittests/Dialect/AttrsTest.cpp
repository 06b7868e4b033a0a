//===- AttrsTest.cpp - tpu attribute helpers ------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace tpu;

namespace {

TEST(PrecisionTest, ParsesNamesAliasesAndPresets) {
  EXPECT_EQ(parsePrecisionName("default"), Precision::Default);
  EXPECT_EQ(parsePrecisionName("DEFAULT"), Precision::Default);
  EXPECT_EQ(parsePrecisionName("bfloat16"), Precision::Default);
  EXPECT_EQ(parsePrecisionName("BF16_BF16_F32"), Precision::Default);
  EXPECT_EQ(parsePrecisionName("high"), Precision::High);
  EXPECT_EQ(parsePrecisionName("bfloat16_3x"), Precision::High);
  EXPECT_EQ(parsePrecisionName("tensorfloat32"), Precision::High);
  EXPECT_EQ(parsePrecisionName("BF16_BF16_F32_X3"), Precision::High);
  EXPECT_EQ(parsePrecisionName("highest"), Precision::Highest);
  EXPECT_EQ(parsePrecisionName("float32"), Precision::Highest);
  EXPECT_EQ(parsePrecisionName("BF16_BF16_F32_X6"), Precision::Highest);
  EXPECT_EQ(parsePrecisionName("fastest"), std::nullopt);
  EXPECT_EQ(parsePrecisionName("bf16_bf16_f32_x9"), std::nullopt);
}

TEST(TiledLayoutTest, NativeTilesFollowElementWidth) {
  MLIRContext context;
  context.loadDialect<TPUDialect>();
  Builder b(&context);
  EXPECT_EQ(TiledLayoutAttr::getNative(b.getF32Type()).getTile(),
            ArrayRef<int64_t>({8, 128}));
  EXPECT_EQ(TiledLayoutAttr::getNative(b.getBF16Type()).getTile(),
            ArrayRef<int64_t>({16, 128}));
  EXPECT_EQ(TiledLayoutAttr::getNative(b.getI8Type()).getTile(),
            ArrayRef<int64_t>({32, 128}));
}

TEST(TiledLayoutTest, PadsTheTwoMinorDims) {
  MLIRContext context;
  context.loadDialect<TPUDialect>();
  auto layout = TiledLayoutAttr::get(&context, {8, 128});
  EXPECT_EQ(layout.getPaddedShape({7, 300}), SmallVector<int64_t>({8, 384}));
  EXPECT_EQ(layout.getPaddedShape({3, 1, 1}),
            SmallVector<int64_t>({3, 8, 128}));
  EXPECT_EQ(layout.getPaddedShape({16, 256}), SmallVector<int64_t>({16, 256}));
}

TEST(ChipAttrTest, ReadsTheSharedTable) {
  MLIRContext context;
  context.loadDialect<TPUDialect>();
  auto chip = ChipAttr::get(&context, ChipKind::V3);
  EXPECT_EQ(chip.getInfo().mxusPerCore, 2u);
  EXPECT_STREQ(chip.getInfo().name, "v3");
}

} // namespace
