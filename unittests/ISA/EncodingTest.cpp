//===- EncodingTest.cpp - The instruction table and its encoding ----------===//

#include "tpu/ISA/ISA.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace tpu::isa;

namespace {

/// A random, in-range value for every operand of `info`.
Instruction randomInstruction(const InstInfo &info, std::mt19937_64 &rng) {
  Instruction inst;
  inst.opcode = info.opcode;
  for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
    std::uniform_int_distribution<int64_t> dist(
        getOperandMin(info.operands[i]), getOperandMax(info.operands[i]));
    inst.operands[i] = dist(rng);
  }
  return inst;
}

TEST(EncodingTest, OpcodesAndMnemonicsAreUnique) {
  std::set<unsigned> opcodes;
  std::set<std::string> mnemonics;
  for (const InstInfo &info : allInstructions()) {
    EXPECT_TRUE(opcodes.insert(unsigned(info.opcode)).second)
        << "opcode of " << info.mnemonic << " is used twice";
    EXPECT_TRUE(mnemonics.insert(info.mnemonic).second) << info.mnemonic;
    EXPECT_LT(unsigned(info.opcode), 128u) << info.mnemonic;
    EXPECT_EQ(lookupMnemonic(info.mnemonic), &info);
    EXPECT_EQ(lookupOpcode(unsigned(info.opcode)), &info);
  }
}

TEST(EncodingTest, OperandFieldsFitBelowTheOpcode) {
  for (const InstInfo &info : allInstructions()) {
    unsigned bits = 0;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i)
      bits += getOperandBits(info.operands[i]);
    EXPECT_LE(bits, 56u) << info.mnemonic << " needs " << bits << " bits";
    EXPECT_GE(info.latency, 1u) << info.mnemonic;
  }
}

TEST(EncodingTest, EveryInstructionRoundTrips) {
  std::mt19937_64 rng(1);
  for (const InstInfo &info : allInstructions()) {
    for (int trial = 0; trial < 200; ++trial) {
      Instruction inst = randomInstruction(info, rng);
      for (bool endOfBundle : {false, true}) {
        uint64_t word = encode(inst, endOfBundle);
        DecodeResult decoded = decode(word);
        ASSERT_TRUE(decoded.instruction)
            << info.mnemonic << ": " << decoded.error;
        EXPECT_EQ(*decoded.instruction, inst) << formatInstruction(inst);
        EXPECT_EQ(decoded.endOfBundle, endOfBundle);
      }
    }
    // The extremes of every field.
    Instruction low, high;
    low.opcode = high.opcode = info.opcode;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      low.operands[i] = getOperandMin(info.operands[i]);
      high.operands[i] = getOperandMax(info.operands[i]);
    }
    EXPECT_EQ(*decode(encode(low, true)).instruction, low) << info.mnemonic;
    EXPECT_EQ(*decode(encode(high, false)).instruction, high) << info.mnemonic;
  }
}

TEST(EncodingTest, DecodingIsUnambiguous) {
  // Any word either fails to decode or re-encodes to itself: no two words
  // mean the same instruction, and no word means two.
  std::mt19937_64 rng(2);
  unsigned decoded = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    uint64_t word = rng();
    // Bias towards known opcodes with few operand bits set elsewhere.
    if (trial % 2) {
      const auto &rows = allInstructions();
      const InstInfo &info = rows[rng() % rows.size()];
      word = encode(randomInstruction(info, rng), rng() & 1);
      if (trial % 4 == 1)
        word ^= uint64_t(1) << (rng() % 56);
    }
    DecodeResult result = decode(word);
    if (!result.instruction) {
      EXPECT_FALSE(result.error.empty());
      continue;
    }
    ++decoded;
    EXPECT_EQ(encode(*result.instruction, result.endOfBundle), word);
  }
  EXPECT_GT(decoded, 50000u);
}

TEST(EncodingTest, RejectsUnknownOpcodesAndStrayBits) {
  DecodeResult unknown = decode(uint64_t(0x7F) << 56);
  EXPECT_FALSE(unknown.instruction);
  EXPECT_EQ(unknown.error, "unknown opcode 0x7f");
  DecodeResult stray = decode((uint64_t(Opcode::Halt) << 56) | 1);
  EXPECT_FALSE(stray.instruction);
  EXPECT_NE(stray.error.find("non-zero bits outside"), std::string::npos);
}

TEST(EncodingTest, FieldLayout) {
  // s.add s1, s2, s3: opcode 0x02, then three 5-bit fields from bit 55 down.
  Instruction add{Opcode::SAdd, {1, 2, 3}};
  uint64_t expected = (uint64_t(0x02) << 56) | (uint64_t(1) << 51) |
                      (uint64_t(2) << 46) | (uint64_t(3) << 41);
  EXPECT_EQ(encode(add, false), expected);
  EXPECT_EQ(encode(add, true), expected | kEndOfBundleBit);
  // Negative immediates are two's complement in their field.
  Instruction addi{Opcode::SAddi, {1, 2, -1}};
  EXPECT_EQ((encode(addi, false) >> 14) & 0xFFFFFFFFu, 0xFFFFFFFFu);
}

TEST(SyntaxTest, FormatsAndParsesEveryOperandKind) {
  std::mt19937_64 rng(3);
  for (const InstInfo &info : allInstructions()) {
    Instruction inst = randomInstruction(info, rng);
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      std::string text = formatOperand(info.operands[i], inst.operands[i]);
      std::string error;
      std::optional<int64_t> parsed =
          parseOperand(info.operands[i], text, error);
      ASSERT_TRUE(parsed) << text << ": " << error;
      EXPECT_EQ(*parsed, inst.operands[i]) << text;
    }
  }
  EXPECT_EQ(formatInstruction(Instruction{Opcode::VLd, {2, 4, -16, 5, 0xff}}),
            "v.ld v2, s4, -16, s5, 0xff");
  EXPECT_EQ(formatInstruction(Instruction{Opcode::BrLt, {1, 2, 12}}),
            "br.lt s1, s2, b12");
}

TEST(SyntaxTest, RejectsBadOperands) {
  std::string error;
  EXPECT_FALSE(parseOperand(OperandKind::SSrc, "v1", error));
  EXPECT_EQ(error, "expected a scalar register s0..s31, got 'v1'");
  EXPECT_FALSE(parseOperand(OperandKind::VDst, "v32", error));
  EXPECT_EQ(error, "'v32' is out of range: expected a vector register v0..v31 "
                   "in [0, 31]");
  EXPECT_FALSE(parseOperand(OperandKind::Imm16, "40000", error));
  EXPECT_FALSE(parseOperand(OperandKind::Mask, "-1", error));
  EXPECT_FALSE(parseOperand(OperandKind::Target, "b-1", error));
  EXPECT_FALSE(parseOperand(OperandKind::SSrc, "s", error));
  EXPECT_FALSE(parseOperand(OperandKind::Imm32, "12abc", error));
  EXPECT_EQ(parseOperand(OperandKind::Imm32, "-2147483648", error), INT32_MIN);
  EXPECT_EQ(parseOperand(OperandKind::Mask, "0x0F", error), 15);
}

TEST(BundleTest, SlotRules) {
  auto check = [](std::vector<Instruction> insts) {
    return verifyBundle(Bundle{std::move(insts)});
  };
  Instruction vadd{Opcode::VAdd, {1, 2, 3}};
  Instruction vld{Opcode::VLd, {4, 0, 0, 0, 0xff}};
  Instruction sadd{Opcode::SAdd, {1, 2, 3}};
  Instruction nop{Opcode::Nop, {}};
  EXPECT_EQ(check({}), "a bundle needs at least one instruction (use nop)");
  // A full bundle: 2 scalar, 2 vector + 2 vector memory, push, pop, misc.
  EXPECT_EQ(check({Instruction{Opcode::SAdd, {1, 2, 3}},
                   Instruction{Opcode::SAdd, {2, 2, 3}},
                   Instruction{Opcode::VAdd, {1, 2, 3}},
                   Instruction{Opcode::VMul, {2, 2, 3}},
                   Instruction{Opcode::VLd, {3, 0, 0, 0, 0xff}},
                   Instruction{Opcode::VSt, {5, 0, 8, 0, 0xff}},
                   Instruction{Opcode::MxuPush, {0, 6, 0, 0}},
                   Instruction{Opcode::MxuPop, {7, 1, 0}},
                   Instruction{Opcode::DmaWait, {0, 1}}}),
            std::nullopt);
  EXPECT_EQ(check({sadd, Instruction{Opcode::SAdd, {2, 1, 1}},
                   Instruction{Opcode::SAdd, {3, 1, 1}}}),
            "bundle has 3 scalar-slot instructions; the limit is 2");
  EXPECT_EQ(check({vld, Instruction{Opcode::VLd, {5, 0, 0, 0, 1}},
                   Instruction{Opcode::VSt, {6, 0, 0, 0, 1}}}),
            "bundle has 3 vector load/store instructions; the limit is 2");
  EXPECT_EQ(check({vadd, Instruction{Opcode::VAdd, {5, 2, 3}},
                   Instruction{Opcode::VAdd, {6, 2, 3}},
                   Instruction{Opcode::VAdd, {7, 2, 3}},
                   Instruction{Opcode::VLd, {8, 0, 0, 0, 1}}}),
            "bundle has 5 vector-slot instructions; the limit is 4");
  EXPECT_EQ(check({Instruction{Opcode::MxuLdw, {0, 1, 2}},
                   Instruction{Opcode::MxuPush, {1, 1, 2, 0}}}),
            "bundle has 2 matrix-push-slot (mxu.ldw, mxu.push) instructions; "
            "the limit is 1");
  EXPECT_EQ(check({Instruction{Opcode::MxuPop, {1, 0, 0}},
                   Instruction{Opcode::MxuPop, {2, 1, 0}}}),
            "bundle has 2 matrix-pop-slot (mxu.pop) instructions; the limit "
            "is 1");
  EXPECT_EQ(check({nop, Instruction{Opcode::Halt, {}}}),
            "bundle has 2 misc-slot (dma, nop, halt) instructions; the limit "
            "is 1");
  EXPECT_EQ(check({Instruction{Opcode::Jmp, {0}},
                   Instruction{Opcode::BrEq, {0, 0, 0}}}),
            "bundle has 2 control-flow instructions; the limit is 1");
  EXPECT_EQ(check({vadd, Instruction{Opcode::VMul, {1, 2, 3}}}),
            "v1 is written twice in one bundle");
  EXPECT_EQ(check({sadd, Instruction{Opcode::SLi, {1, 5}}}),
            "s1 is written twice in one bundle");
  EXPECT_EQ(check({Instruction{Opcode::VAdd, {40, 2, 3}}}),
            "v.add operand #0 is 40, outside [0, 31]");
}

TEST(BundleTest, StreamsSplitAtTheEndBit) {
  std::vector<Bundle> bundles = {Bundle{{Instruction{Opcode::SLi, {1, 7}},
                                         Instruction{Opcode::VAdd, {1, 2, 3}}}},
                                 Bundle{{Instruction{Opcode::Halt, {}}}}};
  std::vector<uint64_t> words = encodeBundles(bundles);
  ASSERT_EQ(words.size(), 3u);
  std::string error;
  auto decoded = decodeBundles(words, error);
  ASSERT_TRUE(decoded) << error;
  EXPECT_EQ(*decoded, bundles);
  words.back() &= ~kEndOfBundleBit;
  EXPECT_FALSE(decodeBundles(words, error));
  EXPECT_EQ(error, "the code ends inside bundle 1 (its last instruction lacks "
                   "the end-of-bundle bit)");
}

} // namespace
