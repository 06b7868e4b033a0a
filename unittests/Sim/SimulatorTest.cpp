//===- SimulatorTest.cpp - Instruction semantics --------------------------===//

#include "SimTestUtils.h"

#include "tpu/Sim/VpuArithmetic.h"

#include "tpu/Reference/MatmulReference.h"
#include "tpu/Support/BF16.h"

#include <cmath>
#include <limits>
#include <random>

using namespace tpu;
using namespace tpu::sim;
using namespace tpu::sim::testing;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(ScalarTest, ArithmeticWrapsAndS0IsZero) {
  Machine m({"s.li s1, 2147483647 ; s.li s2, -3",
             "s.addi s3, s1, 1 ; s.mul s4, s2, s2",
             "s.sub s5, s0, s2 ; s.slt s6, s2, s0",
             "s.shl s7, s5, s5 ; s.shr s8, s2, s5", "s.li s9, 33 ; s.li s0, 99",
             "s.shl s10, s5, s9 ; s.xor s11, s1, s2",
             "s.and s12, s2, s1 ; s.or s13, s2, s0",
             "s.min s14, s2, s5 ; s.min s15, s1, s2", "halt"});
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.sreg(3), 0x80000000u); // wraps
  EXPECT_EQ(m.sreg(4), 9u);
  EXPECT_EQ(m.sreg(5), 3u);
  EXPECT_EQ(m.sreg(6), 1u);               // signed compare: -3 < 0
  EXPECT_EQ(m.sreg(7), 24u);              // 3 << 3
  EXPECT_EQ(m.sreg(8), 0xFFFFFFFDu >> 3); // logical shift
  EXPECT_EQ(m.sreg(10), 6u);              // shift amounts are taken mod 32
  EXPECT_EQ(m.sreg(11), 0x7FFFFFFFu ^ 0xFFFFFFFDu);
  EXPECT_EQ(m.sreg(12), 0x7FFFFFFDu);
  EXPECT_EQ(m.sreg(13), 0xFFFFFFFDu);
  EXPECT_EQ(int32_t(m.sreg(14)), -3); // signed: min(-3, 3)
  EXPECT_EQ(int32_t(m.sreg(15)), -3); // min(INT32_MAX, -3)
  EXPECT_EQ(m.sreg(0), 0u); // writes to s0 are dropped
}

TEST(ScalarTest, SmemLoadStore) {
  Machine m({"s.li s1, 100 ; s.li s2, -42", "s.st s2, s1, 5",
             "s.ld s3, s0, 105", "halt"});
  ASSERT_FALSE(m.run());
  EXPECT_EQ(int32_t(m.sreg(3)), -42);
}

TEST(ScalarTest, LoopsWithBranches) {
  // sum = 1 + 2 + ... + 10
  Machine m({"s.li s1, 0 ; s.li s2, 1", "s.li s3, 11",
             "s.add s1, s1, s2 ; s.addi s2, s2, 1", "br.lt s2, s3, b2",
             "br.eq s0, s0, b6", "s.li s1, -1", "br.ne s1, s0, b8",
             "s.li s1, -2", "br.ge s1, s0, b10", "s.li s1, -3", "halt"});
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.sreg(1), 55u);
}

TEST(BundleTest, ReadsSeeRegistersAsBeforeTheBundle) {
  Machine m(
      {"v.mov v0, v1 ; v.mov v1, v0 ; s.li s1, 5 ; s.addi s2, s1, 1", "halt"});
  m.setVf(0, 0, 0, 1.0f);
  m.setVf(1, 0, 0, 2.0f);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vf(0, 0, 0), 2.0f);
  EXPECT_EQ(m.vf(1, 0, 0), 1.0f);
  EXPECT_EQ(m.sreg(2), 1u); // s1 was still 0 when the bundle read it
}

TEST(VectorTest, ArithmeticIsIeeeF32) {
  Machine m({"v.add v3, v1, v2 ; v.sub v4, v1, v2 ; v.mul v5, v1, v2 ; "
             "v.max v6, v1, v2",
             "v.min v7, v1, v2", "halt"});
  // A NaN with a payload: arithmetic replaces it, max and min keep it.
  const float payloadNaN = floatOf(0xFFC01234u);
  float a[] = {1.0f, 0.1f, kInf, -0.0f, payloadNaN, 3e38f};
  float b[] = {2.0f, 0.2f, -kInf, 0.0f, 1.0f, 3e38f};
  for (int i = 0; i < 6; ++i) {
    m.setVf(1, 0, i, a[i]);
    m.setVf(2, 0, i, b[i]);
  }
  ASSERT_FALSE(m.run());
  // The host's result, except that every NaN is the canonical one (x86
  // makes 0xFFC00000 for inf + -inf).
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(bitsOf(m.vf(3, 0, i)), canonicalBitsOf(a[i] + b[i])) << i;
    EXPECT_EQ(bitsOf(m.vf(4, 0, i)), canonicalBitsOf(a[i] - b[i])) << i;
    EXPECT_EQ(bitsOf(m.vf(5, 0, i)), canonicalBitsOf(a[i] * b[i])) << i;
  }
  EXPECT_EQ(bitsOf(m.vf(3, 0, 2)), kCanonicalNaNBits); // inf + -inf
  EXPECT_EQ(bitsOf(m.vf(4, 0, 4)), kCanonicalNaNBits); // NaN - 1
  EXPECT_EQ(m.vf(3, 0, 5), kInf);                      // overflow
  EXPECT_EQ(m.vf(6, 0, 0), 2.0f);
  EXPECT_EQ(bitsOf(m.vf(6, 0, 3)), 0u);          // max(-0, +0) = +0
  EXPECT_EQ(bitsOf(m.vf(7, 0, 3)), 0x80000000u); // min(-0, +0) = -0
  EXPECT_EQ(bitsOf(m.vf(6, 0, 4)), 0xFFC01234u); // NaN propagates
  EXPECT_EQ(bitsOf(m.vf(7, 0, 4)), 0xFFC01234u);
}

TEST(VectorTest, DivisionIsIeeeF32WithOneNaN) {
  Machine m({"v.div v3, v1, v2", "halt"});
  // Rounded to nearest even; by zero to a signed inf; overflow; a
  // subnormal quotient flushed to a zero of its sign; every NaN quotient is
  // 0x7FC00000.
  float a[] = {1.0f, 1.0f, -1.0f, 3e38f, -1e-38f, 0.0f, kInf, kNaN, -kNaN};
  float b[] = {3.0f, 0.0f, 0.0f, 1e-3f, 1e3f, 0.0f, kInf, 2.0f, 2.0f};
  for (int i = 0; i < 9; ++i) {
    m.setVf(1, 0, i, a[i]);
    m.setVf(2, 0, i, b[i]);
  }
  ASSERT_FALSE(m.run());
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(bitsOf(m.vf(3, 0, i)), bitsOf(a[i] / b[i])) << i;
  EXPECT_EQ(bitsOf(m.vf(3, 0, 0)), 0x3EAAAAABu); // 1/3, rounded up
  EXPECT_EQ(m.vf(3, 0, 1), kInf);
  EXPECT_EQ(m.vf(3, 0, 2), -kInf);
  EXPECT_EQ(m.vf(3, 0, 3), kInf);
  EXPECT_EQ(bitsOf(m.vf(3, 0, 4)), 0x80000000u); // -1e-41 flushed to -0
  for (int i = 5; i < 9; ++i)
    EXPECT_EQ(bitsOf(m.vf(3, 0, i)), 0x7FC00000u) << i;
}

TEST(VectorTest, SubnormalsFlushToZero) {
  Machine m({"v.add v3, v1, v2 ; v.mul v4, v1, v2 ; v.max v5, v1, v2 ; "
             "v.cmp.lt v6, v2, v1",
             "v.neg v7, v1 ; v.abs v8, v2", "halt"});
  // Lane 0: a subnormal operand reads as zero (-0 + 1e-40 = -0); lane 1: a
  // normal product whose result is subnormal flushes (1e-20 * 1e-20);
  // lane 2: 2^-126 stays (the smallest normal); lane 3: max(+sub, -0) sees
  // +0 and -0 and gives +0; lane 4: -1e-40 < 1e-40 is false (both zero).
  float a[] = {-0.0f, 1e-20f, 0x1p-126f, 1e-40f, 1e-40f};
  float b[] = {-1e-40f, 1e-20f, 1.0f, -0.0f, -1e-40f};
  for (int i = 0; i < 5; ++i) {
    m.setVf(1, 0, i, a[i]);
    m.setVf(2, 0, i, b[i]);
  }
  ASSERT_FALSE(m.run());
  EXPECT_EQ(bitsOf(m.vf(3, 0, 0)), 0x80000000u);
  EXPECT_EQ(bitsOf(m.vf(4, 0, 1)), 0u);
  EXPECT_EQ(m.vf(4, 0, 2), 0x1p-126f);
  EXPECT_EQ(bitsOf(m.vf(5, 0, 3)), 0u);
  EXPECT_EQ(m.vreg(6)[4], 0u);
  // Negation and absolute value are sign-bit operations: the subnormal
  // keeps its bits.
  EXPECT_EQ(bitsOf(m.vf(7, 0, 3)), bitsOf(-1e-40f));
  EXPECT_EQ(bitsOf(m.vf(8, 0, 4)), bitsOf(1e-40f));
}

TEST(VectorTest, CompareAndSelect) {
  Machine m({"v.cmp.eq v3, v1, v2 ; v.cmp.ne v4, v1, v1 ; v.cmp.lt v5, v1, v2 "
             "; v.cmp.le v6, v1, v2",
             "v.sel v7, v4, v2, v1", "halt"});
  m.setVf(1, 0, 0, 1.0f);
  m.setVf(2, 0, 0, 1.0f);
  m.setVf(1, 0, 1, kNaN);
  m.setVf(2, 0, 1, 5.0f);
  m.setVf(1, 0, 2, -1.0f);
  m.setVf(2, 0, 2, 2.0f);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vreg(3)[0], 0xFFFFFFFFu);
  EXPECT_EQ(m.vreg(3)[1], 0u); // NaN == x is false
  EXPECT_EQ(m.vreg(4)[0], 0u);
  EXPECT_EQ(m.vreg(4)[1], 0xFFFFFFFFu); // NaN != NaN: the NaN test
  EXPECT_EQ(m.vreg(5)[2], 0xFFFFFFFFu);
  EXPECT_EQ(m.vreg(5)[0], 0u);
  EXPECT_EQ(m.vreg(6)[0], 0xFFFFFFFFu);
  EXPECT_EQ(m.vf(7, 0, 1), 5.0f); // NaN replaced: FixNaN's building block
  EXPECT_EQ(m.vf(7, 0, 2), -1.0f);
}

TEST(VectorTest, Bf16Conversions) {
  Machine m({"v.rne.bf16 v2, v1 ; v.trunc.bf16 v3, v1 ; v.pack.bf16 v4, v1, "
             "v5",
             "v.unpack.lo v6, v4 ; v.unpack.hi v7, v4", "halt"});
  uint32_t inputs[] = {0x3F808000, 0x3F818000, 0x7F7FFFFF, 0x7F800001,
                       0x00400000, 0x80000001, 0xFF800000, 0x3F80FFFF};
  for (int i = 0; i < 8; ++i) {
    m.vreg(1)[i] = inputs[i];
    m.setVf(5, 0, i, float(i));
  }
  ASSERT_FALSE(m.run());
  for (int i = 0; i < 8; ++i) {
    float in = floatOf(inputs[i]);
    EXPECT_EQ(m.vreg(2)[i], bitsOf(roundToBF16(in))) << i;
    EXPECT_EQ(m.vreg(3)[i], bitsOf(roundToBF16(in, BF16Rounding::Truncate)))
        << i;
    EXPECT_EQ(m.vreg(6)[i], m.vreg(2)[i]) << i; // unpack(pack(x)) = rne(x)
    EXPECT_EQ(m.vf(7, 0, i), float(i));
  }
  EXPECT_EQ(m.vreg(2)[0], 0x3F800000u); // tie to even, down
  EXPECT_EQ(m.vreg(2)[1], 0x3F820000u); // tie to even, up
  EXPECT_EQ(m.vreg(2)[2], 0x7F800000u); // overflow to inf
  EXPECT_EQ(m.vreg(2)[3], 0x7FC00000u); // NaN quieted
  EXPECT_EQ(m.vreg(2)[4], 0u);          // subnormal flushed
  EXPECT_EQ(m.vreg(2)[5], 0x80000000u); // keeps its sign
  EXPECT_EQ(m.vreg(3)[7], 0x3F800000u); // truncation
}

TEST(VectorTest, ExpFollowsTheDocumentedAlgorithm) {
  Machine m({"v.exp v2, v1", "halt"});
  float inputs[] = {0.0f,        1.0f,         -1.0f,        88.0f,
                    89.0f,       -100.0f,      kNaN,         -kInf,
                    88.7228317f, -87.3365479f, -87.3365402f, 1e-40f};
  for (int i = 0; i < 12; ++i)
    m.setVf(1, 0, i, inputs[i]);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vf(2, 0, 0), 1.0f);
  EXPECT_EQ(bitsOf(m.vf(2, 0, 1)), 0x402DF854u); // e, correctly rounded
  EXPECT_EQ(bitsOf(m.vf(2, 0, 2)), 0x3EBC5AB2u); // 1/e
  EXPECT_EQ(bitsOf(m.vf(2, 0, 3)), 0x7EF882B7u);
  EXPECT_EQ(m.vf(2, 0, 4), kInf);       // exp(89) overflows f32
  EXPECT_EQ(bitsOf(m.vf(2, 0, 5)), 0u); // a subnormal, flushed
  EXPECT_EQ(bitsOf(m.vf(2, 0, 6)), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(m.vf(2, 0, 7)), 0u);
  EXPECT_EQ(bitsOf(m.vf(2, 0, 8)), 0x7F7FFF84u); // just below FLT_MAX
  // Either side of the smallest normal, 2^-126: e^-87.3365479 is a
  // subnormal and flushes; e^-87.3365402 is normal.
  EXPECT_EQ(bitsOf(m.vf(2, 0, 9)), 0u);
  EXPECT_EQ(bitsOf(m.vf(2, 0, 10)), 0x00800026u);
  EXPECT_EQ(m.vf(2, 0, 11), 1.0f); // the subnormal operand reads as 0
  // Every value is the function tpu/Sim/VpuArithmetic.h defines, whatever
  // the host's libm makes of exp (VpuExhaustiveTest holds that to the
  // reference model and to the correctly rounded result on every input).
  for (int i = 0; i < 12; ++i)
    EXPECT_EQ(m.vreg(2)[i], vpuExp(bitsOf(inputs[i]))) << i;
}

TEST(VectorTest, ReductionsRunInLaneOrder) {
  Machine m({"v.rsum v2, v1 ; v.rmax v3, v1", "halt"});
  // 1e8 + 1 + ... in lane order loses the ones; a tree would not.
  m.setVf(1, 0, 0, 1e8f);
  for (int l = 1; l < 127; ++l)
    m.setVf(1, 0, l, 1.0f);
  m.setVf(1, 0, 127, -1e8f);
  for (int l = 0; l < 128; ++l)
    m.setVf(1, 1, l, float(l % 7) - 3.0f);
  ASSERT_FALSE(m.run());
  float expected = 1e8f;
  for (int l = 1; l < 127; ++l)
    expected += 1.0f;
  expected += -1e8f;
  EXPECT_EQ(m.vf(2, 0, 0), expected);
  EXPECT_EQ(m.vf(2, 0, 77), expected); // broadcast across the sublane
  EXPECT_EQ(m.vf(3, 0, 5), 1e8f);
  EXPECT_EQ(m.vf(3, 1, 0), 3.0f);
}

TEST(VectorTest, LaneMasksMinimaAndLaneBroadcasts) {
  Machine m(
      {"s.li s1, 3 ; s.li s2, -1", "s.li s3, 500",
       "v.lmask v2, s1 ; v.lmask v3, s2 ; v.rmin v5, v1 ; v.lbcast v6, v1",
       "v.lmask v4, s3", "halt"});
  for (int l = 0; l < 128; ++l)
    m.setVf(1, 0, l, float(100 - l));
  m.vreg(1)[1 * 128] = 0x00000001; // a subnormal in lane 0 of sublane 1
  m.setVf(1, 1, 7, -0.0f);
  ASSERT_FALSE(m.run());
  for (int l = 0; l < 128; ++l) {
    EXPECT_EQ(m.vreg(2)[l], l < 3 ? 0xFFFFFFFFu : 0u) << l;
    EXPECT_EQ(m.vreg(2)[7 * 128 + l], m.vreg(2)[l]) << l; // every sublane
    EXPECT_EQ(m.vreg(3)[l], 0u) << l;                     // a negative count
    EXPECT_EQ(m.vreg(4)[l], 0xFFFFFFFFu) << l;            // past the lanes
    EXPECT_EQ(m.vf(5, 0, l), -27.0f) << l;                // 100 - 127
    EXPECT_EQ(m.vreg(6)[128 + l], 0x00000001u) << l;      // lane 0, bits kept
    EXPECT_EQ(m.vf(6, 0, l), 100.0f) << l;
  }
  // Sublane 1: lanes 1.. are 0, lane 0 a subnormal (read as +0) and lane
  // 7 -0: the minimum is -0 (IEEE: -0 < +0).
  EXPECT_EQ(m.vreg(5)[128], 0x80000000u);
}

TEST(VectorTest, TransposeOf128x128) {
  Machine m({"v.xpose v16, v0", "halt"});
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 128; ++c)
      m.setVf(r / 8, r % 8, c, float(r * 1000 + c));
  ASSERT_FALSE(m.run());
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 128; ++c)
      ASSERT_EQ(m.vf(16 + r / 8, r % 8, c), float(c * 1000 + r));
}

TEST(VectorTest, MaskedStridedLoadsAndStores) {
  Machine m({"s.li s1, 3 ; s.li s2, 10",
             "v.ld v1, s2, 4, s1, 0x05 ; v.bcast v2, s1",
             "v.st v2, s2, 100, s1, 0x82", "halt"});
  for (int row = 0; row < 64; ++row)
    m.vmem(row)[0] = 1000 + row;
  m.vreg(1).fill(7);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vreg(1)[0 * kLanes], 1014u);     // sublane 0: row 14
  EXPECT_EQ(m.vreg(1)[1 * kLanes], 7u);        // masked off: unchanged
  EXPECT_EQ(m.vreg(1)[2 * kLanes], 1014u + 6); // sublane 2: row 14 + 2*3
  EXPECT_EQ(m.vmem(110 + 3)[5], 3u);           // sublane 1 -> row 113
  EXPECT_EQ(m.vmem(110 + 21)[0], 3u);          // sublane 7 -> row 131
  EXPECT_EQ(m.vmem(110)[0], 0u);               // sublane 0 masked off
}

/// Runs one weight tile and `pushes` LHS vregs through MXU `mxu`, the first
/// overwriting and the rest accumulating into slot 5, and compares with the
/// reference model of the same sum.
void checkMxuAgainstReference(std::vector<float> lhs, std::vector<float> rhs,
                              int pushes) {
  std::vector<std::string> program = {"s.li s1, 64 ; s.li s2, 8", "s.li s3, 5",
                                      "mxu.ldw 2, s1, s2", "mxu.latch 2"};
  for (int p = 0; p < pushes; ++p)
    program.push_back("mxu.push 2, v" + std::to_string(p) + ", s3, " +
                      (p ? "1" : "0"));
  program.push_back("mxu.pop v31, 2, s3");
  program.push_back("halt");
  Machine m(program);
  for (int k = 0; k < 128; ++k)
    for (int n = 0; n < 128; ++n)
      m.vmem(64 + k)[n] = bitsOf(rhs[k * 128 + n]);
  for (int p = 0; p < pushes; ++p)
    for (int r = 0; r < 8; ++r)
      for (int k = 0; k < 128; ++k)
        m.setVf(p, r, k, lhs[(p * 8 + r) * 128 + k]);
  ASSERT_FALSE(m.run());
  // The same rows summed by the reference: each push is one pass over the
  // same K tile, accumulated in push order.
  std::vector<float> expected(8 * 128, 0.0f);
  for (int p = 0; p < pushes; ++p) {
    std::vector<float> rows(lhs.begin() + p * 1024,
                            lhs.begin() + (p + 1) * 1024);
    std::vector<float> pass = reference::matmul({1, 8, 128, 128}, rows, rhs,
                                                MatmulPrecision::Default);
    for (int i = 0; i < 1024; ++i)
      expected[i] = p ? expected[i] + pass[i] : pass[i];
  }
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(bitsOf(m.vf(31, i / 128, i % 128)), bitsOf(expected[i]))
        << "row " << i / 128 << " column " << i % 128;
}

TEST(MxuTest, PushMatchesReferenceOnRandomData) {
  std::mt19937 rng(5);
  std::normal_distribution<float> dist;
  std::vector<float> lhs(3 * 1024), rhs(128 * 128);
  for (float &v : lhs)
    v = dist(rng);
  for (float &v : rhs)
    v = dist(rng);
  checkMxuAgainstReference(lhs, rhs, 3);
}

TEST(MxuTest, SumsInAscendingKWhereOrderMatters) {
  // Products 2^24, 1, 1, ..., -2^24 along k: in ascending order the ones
  // vanish against 2^24 (ties to even), any other order would keep some.
  std::vector<float> lhs(1024, 0.0f), rhs(128 * 128, 0.0f);
  for (int k = 0; k < 128; ++k)
    lhs[k] = 1.0f;
  rhs[0 * 128] = 16777216.0f;
  for (int k = 1; k < 127; ++k)
    rhs[k * 128] = 1.0f;
  rhs[127 * 128] = -16777216.0f;
  checkMxuAgainstReference(lhs, rhs, 1);
  // And the value itself: every +1 is absorbed.
  Machine m({"s.li s1, 64 ; s.li s2, 8", "mxu.ldw 0, s1, s2", "mxu.latch 0",
             "mxu.push 0, v0, s0, 0", "mxu.pop v1, 0, s0", "halt"});
  for (int k = 0; k < 128; ++k)
    m.vmem(64 + k)[0] = bitsOf(rhs[k * 128]);
  for (int k = 0; k < 128; ++k)
    m.setVf(0, 0, k, 1.0f);
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vf(1, 0, 0), 0.0f);
}

TEST(MxuTest, OperandsRoundToBf16AndSpecialValuesPropagate) {
  std::vector<float> lhs(1024, 0.0f), rhs(128 * 128, 0.0f);
  lhs[0] = 1.00390625f; // 1 + 2^-8: a tie, rounds to 1
  rhs[0] = 3.0f;
  lhs[128 + 1] = kInf;
  rhs[1 * 128 + 1] = 2.0f;
  lhs[256 + 2] = floatOf(0xFFC01234u); // a NaN with a payload
  rhs[2 * 128 + 2] = 1.0f;
  lhs[384 + 3] = floatOf(0x00400000); // subnormal: flushed to 0
  rhs[3 * 128 + 3] = kInf;            // 0 x inf = NaN
  checkMxuAgainstReference(lhs, rhs, 1);
  std::vector<float> out =
      reference::matmul({1, 8, 128, 128}, lhs, rhs, MatmulPrecision::Default);
  EXPECT_EQ(out[0], 3.0f);
  EXPECT_EQ(out[128 + 1], kInf);
  // NaNs leave the MXU canonical (checkMxuAgainstReference compared the
  // simulator's bits with these).
  EXPECT_EQ(bitsOf(out[256 + 2]), kCanonicalNaNBits);
  EXPECT_EQ(bitsOf(out[384 + 3]), kCanonicalNaNBits);
}

// The simulator fuses a pass's multiply-adds only where every product is
// exact (MxuKernelTest): these products underflow (row 0: 2^-150 rounds to
// 0 alone, but would make a tie round up fused) and overflow (row 1: 2^128
// is inf alone, but fused with -2^127 would give 2^127).
TEST(MxuTest, InexactProductsAreNotFused) {
  std::vector<float> lhs(1024, 0.0f), rhs(128 * 128, 0.0f);
  lhs[0] = std::ldexp(1.0f, -74);
  rhs[0] = std::ldexp(1.5f, -74);
  lhs[1] = std::ldexp(1.0f, -75);
  rhs[128] = std::ldexp(1.0f, -75);
  lhs[128] = 1.0f;
  rhs[1] = -std::ldexp(1.0f, 127);
  lhs[128 + 1] = std::ldexp(1.0f, 64);
  rhs[128 + 1] = std::ldexp(1.0f, 64);
  checkMxuAgainstReference(lhs, rhs, 1);
}

// Runs `program` on one host thread and on two, with VMEM rows 64 to 383
// and v0 to v3 filled from `seed`, and expects v29 to v31 to be the same
// bits.
void expectSameBitsOnTwoThreads(const std::vector<std::string> &program,
                                ChipKind chip, unsigned seed) {
  std::normal_distribution<float> dist;
  auto fill = [&](Machine &m) {
    std::mt19937 local(seed);
    for (int row = 64; row < 384; ++row)
      for (int n = 0; n < 128; ++n)
        m.vmem(row)[n] = bitsOf(dist(local));
    for (int v = 0; v < 4; ++v)
      for (int i = 0; i < 1024; ++i)
        m.setVf(v, i / 128, i % 128, dist(local));
  };
  SimulatorOptions two;
  two.hostThreads = 2;
  Machine one(program, chip), split(program, chip, two);
  fill(one);
  fill(split);
  ASSERT_FALSE(one.run());
  ASSERT_FALSE(split.run());
  EXPECT_EQ(split.stats().hostThreads, 2u);
  for (int v : {29, 30, 31})
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(split.vreg(v)[i], one.vreg(v)[i])
          << "v" << v << "[" << i << "]";
}

// With two host threads, MXU 3 of a v4 computes on the helper (all its
// slots) and MXU 0 on the step loop's thread. Many
// pushes are still queued when a weight load and pops reach the MXU: each
// must wait for them (a load would otherwise change the weights under the
// queued passes, and a pop read a slot before its pass ran). MXU 3 loads
// and latches A, stages B, pushes 40 times through A, latches B and loads
// C: C goes into A's tile, which the queued passes read. Both runs must
// give the same bits.
TEST(MxuTest, OffloadedPassesRunBeforeLoadsAndPops) {
  std::vector<std::string> program = {"s.li s1, 64 ; s.li s2, 8",
                                      "s.li s3, 1 ; s.li s4, 256",
                                      "s.li s5, 128",
                                      "mxu.ldw 3, s1, s2",
                                      "mxu.ldw 0, s4, s2",
                                      "mxu.latch 3",
                                      "mxu.latch 0",
                                      "mxu.ldw 3, s4, s2"};
  for (int p = 0; p < 40; ++p)
    for (int mxu : {3, 0})
      program.push_back("mxu.push " + std::to_string(mxu) + ", v" +
                        std::to_string(p % 4) + ", s0, " + (p ? "1" : "0"));
  program.insert(program.end(),
                 {"mxu.latch 3", "mxu.ldw 3, s5, s2", "mxu.latch 3",
                  "mxu.push 3, v0, s3, 0", "mxu.pop v30, 3, s0",
                  "mxu.pop v31, 3, s3", "mxu.pop v29, 0, s0", "halt"});
  expectSameBitsOnTwoThreads(program, ChipKind::V4, 13);
}

// On v2's one MXU the helper takes the passes into some slots (3 to 7 of
// every 8) and the step loop the rest (0 to 2), so one MXU's weights are
// read on both threads. 40 passes into slot 7 (the helper's) through
// tile A, each after one into slot 0 (the step loop's); then A's tile is
// reloaded with C while those passes may still be queued, and slot 7 is
// popped first, before slot 3, whose one pass through C was queued last.
// A weight load must wait for the helper's passes through the tile it
// rewrites, and a pop for its own slot's passes; the bits must be one
// thread's.
TEST(MxuTest, OneMxuSplitBetweenThreadsKeepsItsOrder) {
  std::vector<std::string> program = {"s.li s1, 64 ; s.li s2, 8",
                                      "s.li s3, 3 ; s.li s4, 256",
                                      "s.li s5, 128 ; s.li s7, 7",
                                      "mxu.ldw 0, s1, s2",
                                      "mxu.latch 0",
                                      "mxu.ldw 0, s4, s2"};
  for (int p = 0; p < 40; ++p) {
    std::string accumulate = p ? "1" : "0";
    program.push_back("mxu.push 0, v" + std::to_string(p % 4) + ", s7, " +
                      accumulate);
    program.push_back("mxu.push 0, v" + std::to_string((p + 1) % 4) + ", s0, " +
                      accumulate);
  }
  program.insert(program.end(),
                 {"mxu.latch 0", "mxu.ldw 0, s5, s2", "mxu.latch 0",
                  "mxu.push 0, v0, s3, 0", "mxu.pop v30, 0, s7",
                  "mxu.pop v31, 0, s3", "mxu.pop v29, 0, s0", "halt"});
  expectSameBitsOnTwoThreads(program, ChipKind::V2, 17);
}

// mxu.ldw stages a tile: pushes before the next mxu.latch multiply by the
// tile latched before, pushes after it by the staged one, and a latch with
// no load since latches the same tile again.
TEST(MxuTest, PushesBeforeTheLatchKeepTheLatchedWeights) {
  Machine m({"s.li s1, 8 ; s.li s2, 128", "s.li s3, 1 ; s.li s4, 2",
             "mxu.ldw 0, s0, s1", "mxu.latch 0", "mxu.ldw 0, s2, s1",
             "mxu.push 0, v0, s0, 0", "mxu.latch 0", "mxu.push 0, v0, s3, 0",
             "mxu.latch 0", "mxu.push 0, v0, s4, 0", "mxu.pop v1, 0, s0",
             "mxu.pop v2, 0, s3", "mxu.pop v3, 0, s4", "halt"});
  // Column 0: 1 in every row of the first tile, 2 in the second's.
  for (int k = 0; k < 128; ++k) {
    m.vmem(k)[0] = bitsOf(1.0f);
    m.vmem(128 + k)[0] = bitsOf(2.0f);
    m.setVf(0, 0, k, 1.0f);
  }
  ASSERT_FALSE(m.run());
  EXPECT_EQ(m.vf(1, 0, 0), 128.0f);
  EXPECT_EQ(m.vf(2, 0, 0), 256.0f);
  EXPECT_EQ(m.vf(3, 0, 0), 256.0f);
}

// A packed bf16 weight tile (8 rows of words, rows k and k + 8 of each
// 16 in the low and high halves) latches the same weights as the 128 rows
// of f32 words mxu.ldw reads; a subnormal flushes either way.
TEST(MxuTest, PackedWeightsLatchAsTheirF32Words) {
  std::mt19937 rng(11);
  std::normal_distribution<float> dist;
  std::vector<uint16_t> weights(128 * 128);
  for (uint16_t &w : weights)
    w = toBF16(dist(rng));
  // Column 7: a bf16 subnormal (2^-133) in row 5, zeros elsewhere.
  for (int k = 0; k < 128; ++k)
    weights[k * 128 + 7] = k == 5 ? 0x0001 : 0;
  Machine m({"s.li s1, 8 ; s.li s2, 256", "mxu.ldw 0, s0, s1",
             "mxu.ldw.bf16 1, s2, s1", "mxu.latch 0", "mxu.latch 1",
             "mxu.push 0, v0, s0, 0 ; v.mov v3, v0", "mxu.push 1, v3, s0, 0",
             "mxu.pop v1, 0, s0", "mxu.pop v2, 1, s0", "halt"});
  for (int k = 0; k < 128; ++k)
    for (int n = 0; n < 128; ++n) {
      uint32_t bits = weights[k * 128 + n];
      m.vmem(k)[n] = bits << 16;
      int64_t row = 256 + (k / 16) * 8 + k % 8;
      m.vmem(row)[n] |= k % 16 < 8 ? bits : bits << 16;
    }
  for (int i = 0; i < 1024; ++i)
    m.setVf(0, i / 128, i % 128, dist(rng));
  m.setVf(0, 0, 5, 0x1p126f); // times the subnormal: 2^-7 unless flushed
  ASSERT_FALSE(m.run());
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(m.vreg(2)[i], m.vreg(1)[i]) << "element " << i;
  EXPECT_NE(m.vf(1, 0, 0), 0.0f);
  EXPECT_EQ(m.vf(2, 0, 7), 0.0f);
}

TEST(TrapTest, ReportsPcBundleAndReason) {
  Machine slot({"s.li s1, 128", "mxu.push 0, v0, s1, 0", "halt"});
  std::optional<Trap> trap = slot.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::OutOfBounds);
  EXPECT_EQ(trap->pc, 1);
  EXPECT_EQ(trap->describe(),
            "trap at cycle 1, pc b1 (mxu.push 0, v0, s1, 0): out-of-bounds "
            "access: mxu.push: result slot 128 is out of bounds [0, 128)");

  // A register group that does not start at a multiple of its size is not
  // an instruction at all: the loader rejects it before anything runs.
  EXPECT_FALSE(isa::parseInstruction("v.xpose v8, v0").ok());

  Machine ldw({"s.li s1, 4 ; s.li s2, 8", "mxu.ldw 0, s1, s2", "halt"});
  trap = ldw.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::Misaligned);
  Machine packed({"s.li s1, 8 ; s.li s2, 12", "mxu.ldw.bf16 0, s1, s2",
                  "halt"});
  trap = packed.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::Misaligned);
  EXPECT_EQ(trap->reason, "mxu.ldw.bf16: base row 8 and stride 12 must be "
                          "multiples of 8 (whole tiles)");

  // Writing VMEM that a store-DMA is still reading.
  Machine war({"s.li s1, 1", "dma.st 0, s0, s0, s1, s1",
               "v.st v0, s0, 3, s1, 0x01", "halt"});
  trap = war.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->kind, Trap::Kind::DmaRace);
  EXPECT_EQ(trap->reason,
            "v.st writes VMEM row 3, which the dma.st issued at b1 (dma.st 0, "
            "s0, s0, s1, s1) is still reading (done at cycle 109); wait on "
            "its semaphore (dma.wait 0, ...) first");

  Machine smem({"s.li s1, 4096", "s.ld s2, s1, 0", "halt"});
  trap = smem.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->reason, "s.ld: SMEM word 4096 is out of bounds [0, 4096)");

  Machine hbm({"s.li s1, 1 ; s.li s2, -1", "dma.ld 0, s0, s2, s1, s1", "halt"});
  trap = hbm.run();
  ASSERT_TRUE(trap);
  EXPECT_EQ(trap->reason, "dma.ld: HBM tile -1 is out of bounds [0, 8388608)");
}

} // namespace
