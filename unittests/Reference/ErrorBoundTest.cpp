//===- ErrorBoundTest.cpp - The CPU check's bound -------------------------===//

#include "tpu/Reference/ErrorBound.h"
#include "tpu/Reference/MatmulReference.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace tpu;
using namespace tpu::reference;

namespace {

TEST(ErrorBoundTest, ProductErrorsFollowTheDerivation) {
  // DEFAULT: (1 + 2^-8)^2 - 1, both operands rounded to 8 significant bits.
  EXPECT_EQ(
      getProductError(MatmulPrecision::Default, BF16Rounding::NearestEven),
      0x1p-7 + 0x1p-16);
  // HIGH: about 3 v^2, HIGHEST about 4 v^3 (v = 2^-8, or 2^-7 truncating).
  double high =
      getProductError(MatmulPrecision::High, BF16Rounding::NearestEven);
  EXPECT_GT(high, 3 * 0x1p-16);
  EXPECT_LT(high, 3.1 * 0x1p-16);
  double highest =
      getProductError(MatmulPrecision::Highest, BF16Rounding::NearestEven);
  EXPECT_GT(highest, 4 * 0x1p-24);
  EXPECT_LT(highest, 4.2 * 0x1p-24);
  EXPECT_GT(getProductError(MatmulPrecision::High, BF16Rounding::Truncate),
            3.9 * high);
}

TEST(ErrorBoundTest, DefaultAllowsTheWorstRounding) {
  // Every input 1 + 2^-8 - 2^-20, K = 128: both operands round down to 1,
  // so the TPU gives 128 where the exact result is 128 (1 + 2^-8 - 2^-20)^2.
  const float x = 1.0f + 0x1p-8f - 0x1p-20f;
  std::vector<float> a(128, x), b(128, x);
  std::vector<float> tpu =
      matmul({1, 1, 1, 128}, a, b, MatmulPrecision::Default);
  ASSERT_EQ(tpu[0], 128.0f);
  double exact = 128.0 * double(x) * double(x);
  double bound =
      getErrorBoundCoefficient(MatmulPrecision::Default,
                               BF16Rounding::NearestEven, 128, false) *
      exact;
  EXPECT_LT(exact - 128.0, bound);
  EXPECT_GT(exact - 128.0, 0.9 * bound); // and the bound is nearly tight
}

TEST(ErrorBoundTest, TheBoundTellsHighFromHighestAtKOne) {
  // 1 + 2^-9 + 2^-18 squared: HIGH drops 3 x 2^-18, more than HIGHEST's
  // bound and less than HIGH's.
  const float x = 1.0f + 0x1p-9f + 0x1p-18f;
  double exact = double(x) * double(x);
  float high = matmul({1, 1, 1, 1}, {x}, {x}, MatmulPrecision::High)[0];
  float highest = matmul({1, 1, 1, 1}, {x}, {x}, MatmulPrecision::Highest)[0];
  auto bound = [&](MatmulPrecision precision) {
    return getErrorBoundCoefficient(precision, BF16Rounding::NearestEven, 1,
                                    false) *
           exact;
  };
  EXPECT_EQ(double(highest), double(1.0f + 0x1p-8f + 3 * 0x1p-18f));
  EXPECT_LT(std::fabs(highest - exact), bound(MatmulPrecision::Highest));
  EXPECT_LT(std::fabs(high - exact), bound(MatmulPrecision::High));
  EXPECT_GT(std::fabs(high - exact), bound(MatmulPrecision::Highest));
}

TEST(ErrorBoundTest, GrowsWithTheContraction) {
  auto coefficient = [](int64_t k, bool acc) {
    return getErrorBoundCoefficient(MatmulPrecision::Highest,
                                    BF16Rounding::NearestEven, k, acc);
  };
  EXPECT_LT(coefficient(1, false), coefficient(128, false));
  EXPECT_LT(coefficient(128, false), coefficient(129, false));
  EXPECT_LT(coefficient(300, false), coefficient(300, true));
}

} // namespace
