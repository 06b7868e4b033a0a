//===- ElementwiseReferenceTest.cpp - The model's elementwise ops ---------===//

#include "tpu/Reference/ElementwiseReference.h"
#include "tpu/Support/Float.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace tpu;
using namespace tpu::reference;

namespace {

float apply(const char *name, float a, float b = 0) {
  const ElementwiseOp *op = lookupElementwiseOp(name);
  EXPECT_NE(op, nullptr) << name;
  return op ? op->apply(a, b) : 0;
}

TEST(ElementwiseReferenceTest, ArithmeticIsIeeeF32) {
  EXPECT_EQ(apply("addf", 1.0f, 0x1p-24f), 1.0f); // a tie rounds to even
  EXPECT_EQ(apply("addf", 1.0f, 0x1.8p-24f), 1.0f + 0x1p-23f);
  EXPECT_EQ(apply("subf", 3.0f, 5.0f), -2.0f);
  EXPECT_EQ(apply("mulf", 3.0f, -0.5f), -1.5f);
}

TEST(ElementwiseReferenceTest, ArithmeticMakesTheOneNaN) {
  // Whatever NaN the host makes or is given (x86: 0xFFC00000 for inf - inf,
  // the first NaN operand otherwise), the result is 0x7FC00000.
  float inf = std::numeric_limits<float>::infinity();
  float payloadNaN = floatOf(0xFFC01234u), signalingNaN = floatOf(0x7F800001u);
  EXPECT_EQ(bitsOf(apply("addf", inf, -inf)), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(apply("subf", payloadNaN, 1.0f)), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(apply("mulf", 0.0f, inf)), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(apply("divf", signalingNaN, 2.0f)), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(apply("divf", -0.0f, 0.0f)), kCanonicalNaNBits);
}

TEST(ElementwiseReferenceTest, MaximumAndMinimumFollowIeee2019) {
  // A NaN operand comes out quieted, sign and payload kept.
  float nan = floatOf(0xFF800123u);
  EXPECT_EQ(bitsOf(apply("maximumf", nan, 1.0f)), 0xFFC00123u);
  EXPECT_EQ(bitsOf(apply("minimumf", 1.0f, nan)), 0xFFC00123u);
  EXPECT_FALSE(std::signbit(apply("maximumf", -0.0f, 0.0f)));
  EXPECT_FALSE(std::signbit(apply("maximumf", 0.0f, -0.0f)));
  EXPECT_TRUE(std::signbit(apply("minimumf", 0.0f, -0.0f)));
  EXPECT_TRUE(std::signbit(apply("minimumf", -0.0f, 0.0f)));
  EXPECT_EQ(apply("maximumf", -3.0f, 2.0f), 2.0f);
  EXPECT_EQ(apply("minimumf", -3.0f, 2.0f), -3.0f);
}

TEST(ElementwiseReferenceTest, NamesTheOpsItHas) {
  EXPECT_EQ(lookupElementwiseOp("erfc"), nullptr);
  EXPECT_NE(lookupElementwiseOp("erf"), nullptr);
  EXPECT_NE(listElementwiseOps().find("maximumf"), std::string::npos);
}

} // namespace
