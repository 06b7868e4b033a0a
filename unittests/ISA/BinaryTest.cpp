//===- BinaryTest.cpp - The .tpu binary format ----------------------------===//

#include "tpu/ISA/Binary.h"
#include "tpu/ISA/Assembly.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace tpu;
using namespace tpu::isa;

namespace {

Program sampleProgram() {
  Program program;
  program.chip = ChipKind::V3;
  program.usefulMacs = 7 * 300 * 129;
  program.arguments = {{"a", ElementType::F32, {7, 300}, 0},
                       {"b", ElementType::BF16, {300, 129}, 3}};
  program.results = {{"c", ElementType::F32, {7, 129}, 15}};
  program.constants = {{100, {0x3F800000u, 0, 7}}};
  program.bundles = {Bundle{{Instruction{Opcode::SLi, {1, -5}},
                             Instruction{Opcode::VLd, {2, 1, 8, 0, 0xff}},
                             Instruction{Opcode::MxuPush, {1, 3, 4, 1}}}},
                     Bundle{{Instruction{Opcode::BrLt, {1, 2, 0}}}},
                     Bundle{{Instruction{Opcode::Halt, {}}}}};
  return program;
}

/// Recomputes the checksum after a test edits the payload, so the edit
/// reaches the payload checks.
void reseal(std::vector<uint8_t> &bytes) {
  uint32_t checksum = computeBinaryChecksum(bytes);
  std::memcpy(bytes.data() + kBinaryChecksumOffset, &checksum, 4);
}

TEST(BinaryTest, Crc32KnownAnswer) {
  const char *text = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t *>(text), 9), 0xCBF43926u);
}

/// Why `bytes` does not load, or "" if it does.
std::string loadError(const std::vector<uint8_t> &bytes) {
  absl::StatusOr<Program> program = readBinary(bytes);
  return program.ok() ? "" : std::string(program.status().message());
}

TEST(BinaryTest, HeaderLayout) {
  std::vector<uint8_t> bytes = writeBinary(sampleProgram());
  ASSERT_GE(bytes.size(), kBinaryHeaderBytes);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "TPU-BIN\n");
  uint32_t version, chip, checksum;
  uint64_t payload;
  std::memcpy(&version, &bytes[8], 4);
  std::memcpy(&chip, &bytes[12], 4);
  std::memcpy(&payload, &bytes[16], 8);
  std::memcpy(&checksum, &bytes[24], 4);
  EXPECT_EQ(version, kBinaryVersion);
  EXPECT_EQ(chip, uint32_t(ChipKind::V3));
  EXPECT_EQ(payload, bytes.size() - kBinaryHeaderBytes);
  EXPECT_EQ(checksum, computeBinaryChecksum(bytes));
}

TEST(BinaryTest, RoundTripsByteIdentically) {
  Program program = sampleProgram();
  std::vector<uint8_t> bytes = writeBinary(program);
  absl::StatusOr<Program> read = readBinary(bytes);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, program);
  EXPECT_EQ(writeBinary(*read), bytes);
}

TEST(BinaryTest, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = writeBinary(sampleProgram());
  for (size_t size = 0; size < bytes.size(); ++size) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + size);
    EXPECT_FALSE(loadError(cut).empty()) << size;
  }
}

TEST(BinaryTest, EveryFlippedBitIsAnError) {
  std::vector<uint8_t> bytes = writeBinary(sampleProgram());
  for (size_t bit = 0; bit < bytes.size() * 8; ++bit) {
    std::vector<uint8_t> flipped = bytes;
    flipped[bit / 8] ^= uint8_t(1u << (bit % 8));
    EXPECT_FALSE(loadError(flipped).empty()) << "bit " << bit;
  }
}

TEST(BinaryTest, Messages) {
  std::vector<uint8_t> bytes = writeBinary(sampleProgram());
  std::string error;

  std::vector<uint8_t> badMagic = bytes;
  badMagic[0] = 'X';
  error = loadError(badMagic);
  EXPECT_FALSE(error.empty());
  EXPECT_NE(error.find("not a TPU binary"), std::string::npos) << error;

  std::vector<uint8_t> badVersion = bytes;
  badVersion[8] = 9;
  error = loadError(badVersion);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, "unsupported binary format version 9; this tool reads "
                   "version " +
                       std::to_string(kBinaryVersion) +
                       " (rebuild the binary with this tpu-translate)");

  std::vector<uint8_t> corrupt = bytes;
  corrupt.back() ^= 1;
  error = loadError(corrupt);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.rfind("corrupt: checksum mismatch", 0), 0u) << error;

  // The chip is in the header and covered by the checksum too.
  std::vector<uint8_t> otherChip = bytes;
  otherChip[12] = 2;
  error = loadError(otherChip);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error.rfind("corrupt: checksum mismatch", 0), 0u) << error;

  std::vector<uint8_t> truncated(bytes.begin(), bytes.end() - 3);
  error = loadError(truncated);
  EXPECT_FALSE(error.empty());
  EXPECT_NE(error.find("truncated or padded"), std::string::npos) << error;

  std::vector<uint8_t> badChip = bytes;
  badChip[12] = 7;
  reseal(badChip);
  error = loadError(badChip);
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, "corrupt: unknown chip code 7 (this tool knows v2, v3, v4)");

  // The first argument's element type: after the header, the two MAC
  // counts, the entry name ("main"), the argument count and the name "a".
  constexpr size_t kFirstElementType =
      kBinaryHeaderBytes + 8 + 8 + (4 + 4) + 4 + (4 + 1);
  ASSERT_EQ(bytes[kFirstElementType], uint8_t(ElementType::F32));
  std::vector<uint8_t> badType = bytes;
  badType[kFirstElementType] = 9;
  reseal(badType);
  EXPECT_EQ(loadError(badType),
            "corrupt: tensor 'a' has element type code 9 (known: 0 = f32, "
            "1 = i32, 2 = bf16)");
}

TEST(BinaryTest, ProgramChecks) {
  std::string error;
  Program wrongMxu = sampleProgram();
  wrongMxu.chip = ChipKind::V2; // one MXU; the sample pushes to MXU 1
  error = loadError(writeBinary(wrongMxu));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, "invalid program: bundle 0: mxu.push uses MXU 1, but v2 "
                   "has 1 MXU(s) per core (0..0)");

  Program badTarget = sampleProgram();
  badTarget.bundles[1].instructions[0].operands[2] = 9;
  error = loadError(writeBinary(badTarget));
  EXPECT_FALSE(error.empty());
  EXPECT_EQ(error, "invalid program: bundle 1: br.lt targets bundle b9, but "
                   "the program has 3 bundles");

  Program huge = sampleProgram();
  huge.results[0].shape = {1 << 20, 1 << 20};
  error = loadError(writeBinary(huge));
  EXPECT_FALSE(error.empty());
  EXPECT_NE(error.find("past the chip's"), std::string::npos) << error;
}

TEST(AssemblyTest, ListsHeaderAndBundles) {
  std::string text = printAssembly(sampleProgram());
  EXPECT_NE(text.find("; chip v3, entry main, 3 bundles"), std::string::npos);
  EXPECT_NE(text.find("; argument a: f32[7, 300] @hbm 0"), std::string::npos);
  EXPECT_NE(text.find("b0:     s.li s1, -5 ; v.ld v2, s1, 8, s0, 0xff ; "
                      "mxu.push 1, v3, s4, 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("b1:     br.lt s1, s2, b0\n"), std::string::npos);
}

} // namespace
