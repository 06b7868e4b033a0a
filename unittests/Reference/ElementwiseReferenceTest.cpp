//===- ElementwiseReferenceTest.cpp - The model's elementwise ops ---------===//

#include "tpu/Reference/ElementwiseReference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

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

TEST(ElementwiseReferenceTest, MaximumAndMinimumFollowIeee2019) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(apply("maximumf", nan, 1.0f)));
  EXPECT_TRUE(std::isnan(apply("minimumf", 1.0f, nan)));
  EXPECT_FALSE(std::signbit(apply("maximumf", -0.0f, 0.0f)));
  EXPECT_FALSE(std::signbit(apply("maximumf", 0.0f, -0.0f)));
  EXPECT_TRUE(std::signbit(apply("minimumf", 0.0f, -0.0f)));
  EXPECT_TRUE(std::signbit(apply("minimumf", -0.0f, 0.0f)));
  EXPECT_EQ(apply("maximumf", -3.0f, 2.0f), 2.0f);
  EXPECT_EQ(apply("minimumf", -3.0f, 2.0f), -3.0f);
}

TEST(ElementwiseReferenceTest, NamesTheOpsItHas) {
  EXPECT_EQ(lookupElementwiseOp("tanh"), nullptr);
  EXPECT_NE(listElementwiseOps().find("maximumf"), std::string::npos);
}

} // namespace
