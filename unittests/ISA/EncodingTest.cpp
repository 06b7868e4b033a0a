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
    OperandKindInfo kind = getOperandKindInfo(info.operands[i]);
    std::uniform_int_distribution<int64_t> dist(kind.min(), kind.max());
    int64_t value = dist(rng);
    inst.operands[i] = value - value % int64_t(kind.group);
  }
  return inst;
}

/// The message of `status`, or "" for OK.
std::string messageOf(const absl::Status &status) {
  return std::string(status.message());
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
      bits += getOperandKindInfo(info.operands[i]).bits;
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
        absl::StatusOr<DecodedWord> decoded = decode(word);
        ASSERT_TRUE(decoded.ok()) << info.mnemonic << ": " << decoded.status();
        EXPECT_EQ(decoded->instruction, inst) << formatInstruction(inst);
        EXPECT_EQ(decoded->endOfBundle, endOfBundle);
      }
    }
    // The extremes of every field.
    Instruction low, high;
    low.opcode = high.opcode = info.opcode;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      low.operands[i] = getOperandKindInfo(info.operands[i]).min();
      high.operands[i] = getOperandKindInfo(info.operands[i]).max();
    }
    EXPECT_EQ(decode(encode(low, true))->instruction, low) << info.mnemonic;
    EXPECT_EQ(decode(encode(high, false))->instruction, high) << info.mnemonic;
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
    absl::StatusOr<DecodedWord> result = decode(word);
    if (!result.ok()) {
      EXPECT_FALSE(result.status().message().empty());
      continue;
    }
    ++decoded;
    EXPECT_EQ(encode(result->instruction, result->endOfBundle), word);
  }
  EXPECT_GT(decoded, 50000u);
}

TEST(EncodingTest, RejectsUnknownOpcodesAndStrayBits) {
  EXPECT_EQ(messageOf(decode(uint64_t(0x7F) << 56).status()),
            "unknown opcode 0x7f");
  std::string stray =
      messageOf(decode((uint64_t(Opcode::Halt) << 56) | 1).status());
  EXPECT_NE(stray.find("non-zero bits outside"), std::string::npos) << stray;
  // A register group must start at a multiple of its size.
  std::string group = messageOf(
      decode(encode(Instruction{Opcode::VXpose, {8, 0}}, true)).status());
  EXPECT_NE(group.find("v.xpose operand #0 is 8; expected a vector register "
                       "group of 16"),
            std::string::npos)
      << group;
}

TEST(EncodingTest, TableDerivedConstants) {
  // What the rest of the project takes from ISA.def rather than restating.
  EXPECT_EQ(kNumSemaphores, 8u);
  EXPECT_EQ(kMaxMxus, 4u);
  EXPECT_EQ(kNumScalarRegisters, 32u);
  EXPECT_EQ(kNumVectorRegisters, 32u);
  EXPECT_EQ(getOperandKindInfo(OperandKind::VSrc16).group, 16u);
  EXPECT_EQ(getOperandKindInfo(OperandKind::VSrc16).max(), 16);
  // The bundle: 2 scalar, 4 vector (2 of them memory), push, pop, misc.
  unsigned slots = 0;
  for (unsigned s = 0; s < kNumSlots; ++s)
    if (getSlotInfo(Slot(s)).countsAs == Slot(s))
      slots += getSlotInfo(Slot(s)).limit;
  EXPECT_EQ(slots, 9u);
  for (const InstInfo &info : allInstructions())
    EXPECT_GE(info.issueInterval, 1u) << info.mnemonic;
}

TEST(EncodingTest, RegisterAccessFollowsOperandKinds) {
  RegisterAccess add = getRegisterAccess(Instruction{Opcode::VAdd, {1, 2, 3}});
  EXPECT_EQ(add.reads, (std::vector<unsigned>{34, 35}));
  EXPECT_EQ(add.writes, (std::vector<unsigned>{33}));
  // Writes to s0 are dropped.
  EXPECT_TRUE(
      getRegisterAccess(Instruction{Opcode::SLi, {0, 5}}).writes.empty());
  RegisterAccess xpose =
      getRegisterAccess(Instruction{Opcode::VXpose, {16, 0}});
  ASSERT_EQ(xpose.reads.size(), 16u);
  ASSERT_EQ(xpose.writes.size(), 16u);
  EXPECT_EQ(xpose.reads.front(), 32u);
  EXPECT_EQ(xpose.writes.back(), 63u);
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
      absl::StatusOr<int64_t> parsed = parseOperand(info.operands[i], text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
      EXPECT_EQ(*parsed, inst.operands[i]) << text;
    }
  }
  EXPECT_EQ(formatInstruction(Instruction{Opcode::VLd, {2, 4, -16, 5, 0xff}}),
            "v.ld v2, s4, -16, s5, 0xff");
  EXPECT_EQ(formatInstruction(Instruction{Opcode::BrLt, {1, 2, 12}}),
            "br.lt s1, s2, b12");
}

TEST(SyntaxTest, RejectsBadOperands) {
  auto error = [](OperandKind kind, const char *text) {
    return messageOf(parseOperand(kind, text).status());
  };
  EXPECT_EQ(error(OperandKind::SSrc, "v1"),
            "expected a scalar register s0..s31, got 'v1'");
  EXPECT_EQ(error(OperandKind::VDst, "v32"),
            "'v32' is out of range: expected a vector register v0..v31");
  EXPECT_EQ(error(OperandKind::VDst16, "v8"),
            "'v8' is out of range: expected a vector register group of 16 "
            "(vN with N a multiple of 16 up to 16)");
  EXPECT_EQ(error(OperandKind::Imm16, "40000"),
            "'40000' is out of range: expected an integer in [-32768, 32767]");
  EXPECT_FALSE(parseOperand(OperandKind::Mask, "-1").ok());
  EXPECT_FALSE(parseOperand(OperandKind::Target, "b-1").ok());
  EXPECT_FALSE(parseOperand(OperandKind::SSrc, "s").ok());
  EXPECT_FALSE(parseOperand(OperandKind::Imm32, "12abc").ok());
  EXPECT_EQ(*parseOperand(OperandKind::Imm32, "-2147483648"), INT32_MIN);
  EXPECT_EQ(*parseOperand(OperandKind::Mask, "0x0F"), 15);
}

TEST(BundleTest, SlotRules) {
  auto check = [](std::vector<Instruction> insts) {
    return messageOf(verifyBundle(Bundle{std::move(insts)}));
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
            "");
  EXPECT_EQ(check({sadd, Instruction{Opcode::SAdd, {2, 1, 1}},
                   Instruction{Opcode::SAdd, {3, 1, 1}}}),
            "bundle has 3 Scalar-slot instructions; the limit is 2 (the "
            "Scalar slots take s.li, s.add, s.addi, s.sub, s.mul, s.and, s.or, "
            "s.xor, s.shl, s.shr, s.slt, s.min, s.ld, s.st, br.eq, br.ne, "
            "br.lt, br.ge, jmp)");
  EXPECT_EQ(check({vld, Instruction{Opcode::VLd, {5, 0, 0, 0, 1}},
                   Instruction{Opcode::VSt, {6, 0, 0, 0, 1}}}),
            "bundle has 3 VectorMem-slot instructions; the limit is 2 (the "
            "VectorMem slots take v.ld, v.st)");
  // The list of a slot's instructions comes from the table: check its
  // start and that it holds the memory ones too, not every mnemonic.
  std::string vector = check({vadd, Instruction{Opcode::VAdd, {5, 2, 3}},
                              Instruction{Opcode::VAdd, {6, 2, 3}},
                              Instruction{Opcode::VAdd, {7, 2, 3}},
                              Instruction{Opcode::VLd, {8, 0, 0, 0, 1}}});
  EXPECT_EQ(vector.rfind("bundle has 5 Vector-slot instructions; the limit is "
                         "4 (the Vector slots take v.ld, v.st, v.add, ",
                         0),
            0u)
      << vector;
  EXPECT_NE(vector.find("v.xpose"), std::string::npos) << vector;
  EXPECT_EQ(
      check({Instruction{Opcode::MxuLdw, {0, 1, 2}},
             Instruction{Opcode::MxuPush, {1, 1, 2, 0}}}),
      "bundle has 2 MatrixPush-slot instructions; the limit is 1 (the "
      "MatrixPush slots take mxu.ldw, mxu.ldw.bf16, mxu.latch, mxu.push)");
  EXPECT_EQ(check({Instruction{Opcode::MxuPop, {1, 0, 0}},
                   Instruction{Opcode::MxuPop, {2, 1, 0}}}),
            "bundle has 2 MatrixPop-slot instructions; the limit is 1 (the "
            "MatrixPop slots take mxu.pop)");
  EXPECT_EQ(check({nop, Instruction{Opcode::Halt, {}}}),
            "bundle has 2 Misc-slot instructions; the limit is 1 (the Misc "
            "slots take dma.ld, dma.st, dma.wait, nop, halt)");
  EXPECT_EQ(check({Instruction{Opcode::Jmp, {0}},
                   Instruction{Opcode::BrEq, {0, 0, 0}}}),
            "bundle has 2 control-flow instructions; the limit is 1");
  EXPECT_EQ(check({vadd, Instruction{Opcode::VMul, {1, 2, 3}}}),
            "v1 is written twice in one bundle");
  // A v.xpose holds the transpose unit for 16 cycles: nothing else of the
  // Xlu shares its bundle; other units' instructions may.
  Instruction xpose{Opcode::VXpose, {16, 0}};
  EXPECT_EQ(check({xpose, Instruction{Opcode::VRsum, {1, 2}}}),
            "v.xpose occupies the Xlu unit for 16 cycles, so v.rsum cannot "
            "share its bundle; put it in another");
  EXPECT_EQ(check({Instruction{Opcode::VXpose, {0, 16}}, xpose}).rfind(
                "v.xpose occupies the Xlu unit for 16 cycles, so v.xpose", 0),
            0u);
  EXPECT_EQ(check({xpose, Instruction{Opcode::VAdd, {1, 2, 3}}}), "");
  EXPECT_EQ(check({sadd, Instruction{Opcode::SLi, {1, 5}}}),
            "s1 is written twice in one bundle");
  EXPECT_EQ(check({Instruction{Opcode::VAdd, {40, 2, 3}}}),
            "v.add operand #0 is 40; expected a vector register v0..v31");
}

TEST(BundleTest, StreamsSplitAtTheEndBit) {
  std::vector<Bundle> bundles = {Bundle{{Instruction{Opcode::SLi, {1, 7}},
                                         Instruction{Opcode::VAdd, {1, 2, 3}}}},
                                 Bundle{{Instruction{Opcode::Halt, {}}}}};
  std::vector<uint64_t> words = encodeBundles(bundles);
  ASSERT_EQ(words.size(), 3u);
  absl::StatusOr<std::vector<Bundle>> decoded = decodeBundles(words);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, bundles);
  words.back() &= ~kEndOfBundleBit;
  EXPECT_EQ(messageOf(decodeBundles(words).status()),
            "the code ends inside bundle 1 (its last instruction lacks the "
            "end-of-bundle bit)");
}

} // namespace
