//===- TiledLayoutTest.cpp - The device layout of tensors -----------------===//

#include "tpu/Support/TiledLayout.h"

#include "gtest/gtest.h"

using namespace tpu;

TEST(TiledLayoutTest, F32TakesAWordPerElementInEightRowTiles) {
  TiledShape shape = TiledShape::get({2, 9, 130});
  EXPECT_EQ(shape.tileRows(), 8);
  EXPECT_EQ(shape.rowTiles(), 2);
  EXPECT_EQ(shape.colTiles(), 2);
  EXPECT_EQ(shape.numTiles(), 8);
  // Batch 1, row 8 (second row tile), column 129 (second column tile).
  EXPECT_EQ(shape.wordOffset(1, 8, 129), (4 + 3) * 1024 + 0 * 128 + 1);
  EXPECT_EQ(shape.bitOffset(8), 0u);
}

// bf16 packs rows s and s + 8 of a 16-row tile into the low and high
// halves of the word at sublane s: half the tiles of f32.
TEST(TiledLayoutTest, BF16PacksTwoRowsToAWordInSixteenRowTiles) {
  TiledShape shape = TiledShape::get({2, 17, 130}, /*packing=*/2);
  EXPECT_EQ(shape.tileRows(), 16);
  EXPECT_EQ(shape.rowTiles(), 2);
  EXPECT_EQ(shape.paddedRows(), 32);
  EXPECT_EQ(shape.numTiles(), 8);
  EXPECT_EQ(TiledShape::get({16, 128}, 2).numTiles(), 1);
  EXPECT_EQ(shape.wordOffset(0, 3, 5), 3 * 128 + 5);
  EXPECT_EQ(shape.bitOffset(3), 0u);
  EXPECT_EQ(shape.wordOffset(0, 11, 5), 3 * 128 + 5);
  EXPECT_EQ(shape.bitOffset(11), 16u);
  EXPECT_EQ(shape.wordOffset(1, 16, 129), (4 + 3) * 1024 + 1);
  EXPECT_EQ(shape.bitOffset(16), 0u);
}

TEST(TiledLayoutTest, SetElementWritesItsHalfAndKeepsTheOther) {
  TiledShape shape = TiledShape::get({16, 1}, /*packing=*/2);
  std::vector<uint32_t> image(1024, 0);
  shape.setElement(image, 2, 0x3FC0);  // row 2: low half of word 256
  shape.setElement(image, 10, 0xC000); // row 10: high half of the same
  EXPECT_EQ(image[256], 0xC0003FC0u);
  EXPECT_EQ(shape.elementBits(image[256], shape.bitOffset(2)), 0x3FC0u);
  EXPECT_EQ(shape.elementBits(image[256], shape.bitOffset(10)), 0xC000u);
  shape.setElement(image, 2, 0x4000);
  EXPECT_EQ(image[256], 0xC0004000u);
  TiledShape f32 = TiledShape::get({16, 1});
  std::vector<uint32_t> words(2048, 0);
  f32.setElement(words, 10, 0x3F800000);
  EXPECT_EQ(words[1024 + 2 * 128], 0x3F800000u);
}
