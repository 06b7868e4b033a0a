//===- VpuArithmeticTest.cpp - The simulator's VPU lanes vs the model -----===//
//
// The simulator (tpu/Sim/VpuArithmetic.h) and the reference model
// (lib/Reference) each implement docs/Numerics.md's VPU rules in their own
// code; on operands drawn to hit the rules' edges (subnormals, zeros of
// both signs, infinities, NaNs with payloads, overflow and underflow) they
// must give the same bits.
//
//===----------------------------------------------------------------------===//

#include "tpu/Sim/VpuArithmetic.h"
#include "tpu/Reference/ElementwiseReference.h"
#include "tpu/Support/Float.h"

#include "gtest/gtest.h"

#include <random>

using namespace tpu;

namespace {

/// A third of the time an edge value, a third a value in [-10, 10] (where
/// the functions' polynomials work), else any bit pattern.
uint32_t drawOperand(std::mt19937 &random) {
  static const uint32_t kEdges[] = {
      0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000,
      0x80800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF,
      0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC01234, 0x7F800001,
      0x1F800000, 0x20000000, 0x5F800000, 0x42B17218, 0xC2AEAC50};
  uint32_t bits = random();
  switch (bits % 3) {
  case 0:
    return kEdges[(bits >> 2) % std::size(kEdges)];
  case 1:
    return bitsOf(std::uniform_real_distribution<float>(-10.0f, 10.0f)(random));
  default:
    return random();
  }
}

TEST(VpuArithmeticTest, SimulatorAndModelAgree) {
  struct Pair {
    const char *name;
    uint32_t (*sim)(uint32_t, uint32_t);
  };
  const Pair kBinary[] = {{"addf", sim::vpuAdd},     {"subf", sim::vpuSub},
                          {"mulf", sim::vpuMul},     {"divf", sim::vpuDiv},
                          {"maximumf", sim::vpuMax}, {"minimumf", sim::vpuMin},
                          {"maxnumf", sim::vpuMaxNum},
                          {"minnumf", sim::vpuMinNum}};
  std::mt19937 random(7);
  for (const Pair &pair : kBinary) {
    const reference::ElementwiseOp *model =
        reference::lookupElementwiseOp(pair.name);
    ASSERT_NE(model, nullptr) << pair.name;
    for (int i = 0; i < 200000; ++i) {
      uint32_t a = drawOperand(random), b = drawOperand(random);
      ASSERT_EQ(pair.sim(a, b), bitsOf(model->apply(floatOf(a), floatOf(b))))
          << pair.name << "(0x" << std::hex << a << ", 0x" << b << ")";
    }
  }
  struct Unary {
    const char *name;
    uint32_t (*sim)(uint32_t);
  };
  const Unary kUnary[] = {{"exp", sim::vpuExp},
                          {"tanh", sim::vpuTanh},
                          {"log", sim::vpuLog},
                          {"erf", sim::vpuErf},
                          {"sqrt", sim::vpuSqrt},
                          {"rsqrt", sim::vpuRsqrt}};
  for (const Unary &unary : kUnary) {
    const reference::ElementwiseOp *model =
        reference::lookupElementwiseOp(unary.name);
    ASSERT_NE(model, nullptr) << unary.name;
    for (int i = 0; i < 200000; ++i) {
      uint32_t a = drawOperand(random);
      ASSERT_EQ(unary.sim(a), bitsOf(model->apply(floatOf(a), 0)))
          << unary.name << "(0x" << std::hex << a << ")";
    }
  }
}

TEST(VpuArithmeticTest, ComparisonsReadSubnormalsAsZero) {
  EXPECT_TRUE(sim::vpuEqual(0x00000001, 0x80000000));
  EXPECT_FALSE(sim::vpuLess(0x80000001, 0x00000001));
  EXPECT_TRUE(sim::vpuLessEqual(0x80000001, 0x00000001));
  EXPECT_FALSE(sim::vpuEqual(0x7FC00000, 0x7FC00000)); // NaN is unordered
  EXPECT_FALSE(sim::vpuLessEqual(0x7FC00000, 0x3F800000));
}

TEST(VpuArithmeticTest, TanhKeepsTheSignOfZero) {
  const reference::ElementwiseOp *model = reference::lookupElementwiseOp("tanh");
  // -0, a negative subnormal (read as -0), +0 and a positive subnormal.
  for (uint32_t bits : {0x80000000u, 0x80000001u, 0x00000000u, 0x007FFFFFu}) {
    uint32_t zero = bits & 0x80000000u;
    EXPECT_EQ(sim::vpuTanh(bits), zero) << std::hex << bits;
    EXPECT_EQ(bitsOf(model->apply(floatOf(bits), 0)), zero) << std::hex << bits;
  }
}

} // namespace
