//===- ReductionReferenceTest.cpp - The model's row reductions ------------===//

#include "tpu/Reference/ReductionReference.h"
#include "tpu/Support/Float.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tpu;
using namespace tpu::reference;

namespace {

TEST(ReductionReferenceTest, SumsByLaneThenAcrossLanes) {
  // 256 columns: lane 0 takes 1e8 then -1e8 (0 exactly), lane 1 takes 1
  // then 1 (2): the total is 2. A left-to-right sum would lose both ones
  // to 1e8's rounding and give 0.
  std::vector<float> row(256, 0.0f);
  row[0] = 1e8f;
  row[1] = 1.0f;
  row[128] = -1e8f;
  row[129] = 1.0f;
  EXPECT_EQ(reduceRows(row, 1, 256, ReductionKind::Sum, 0.0f)[0], 2.0f);
}

TEST(ReductionReferenceTest, InitComesLastAndTheIdentityKeepsMinusZero) {
  std::vector<float> zeros(3, -0.0f);
  EXPECT_TRUE(
      std::signbit(reduceRows(zeros, 1, 3, ReductionKind::Sum, -0.0f)[0]));
  EXPECT_FALSE(
      std::signbit(reduceRows(zeros, 1, 3, ReductionKind::Sum, 0.0f)[0]));
  // The init is combined once, not once per lane.
  std::vector<float> ones(2, 1.0f);
  EXPECT_EQ(reduceRows(ones, 1, 2, ReductionKind::Sum, 5.0f)[0], 7.0f);
}

TEST(ReductionReferenceTest, MaxAndMinFollowTheVpu) {
  std::vector<float> values = {3.0f, -1.0f,  floatOf(0xFF800123u),
                               7.0f, 1e-40f, -2.0f};
  std::vector<float> max =
      reduceRows(values, 2, 3, ReductionKind::Max, -INFINITY);
  EXPECT_EQ(bitsOf(max[0]), 0xFFC00123u); // a NaN wins, quieted
  EXPECT_EQ(max[1], 7.0f);
  std::vector<float> min =
      reduceRows(values, 2, 3, ReductionKind::Min, INFINITY);
  EXPECT_EQ(min[1], -2.0f);
  // A subnormal reads as zero: min(1e-40, 5) = +0.
  EXPECT_EQ(
      bitsOf(reduceRows({1e-40f, 5.0f}, 1, 2, ReductionKind::Min, INFINITY)[0]),
      0u);
  EXPECT_FALSE(parseReductionKind("prod"));
}

} // namespace
