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
  program.bundles = {Bundle{{Instruction{Opcode::SLi, {1, -5}, 0},
                             Instruction{Opcode::VLd, {2, 1, 8, 0, 0xff}, 1},
                             Instruction{Opcode::MxuPush, {1, 3, 4, 1}, 1}}},
                     Bundle{{Instruction{Opcode::BrLt, {1, 2, 0}, 0}}},
                     Bundle{{Instruction{Opcode::Halt, {}}}}};
  program.sourceLocations = {{"func.func", "model.mlir", 1, 1},
                             {"linalg.matmul", "model.mlir", 3, 8}};
  return program;
}

/// The sample without debug information.
Program withoutSources() {
  Program program = sampleProgram();
  program.sourceLocations.clear();
  for (Bundle &bundle : program.bundles)
    for (Instruction &inst : bundle.instructions)
      inst.source = kNoSource;
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
                   "version 5 (rebuild the binary from its MLIR with this "
                   "tpu-translate)");

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

/// Sets the header's payload length to the file's and recomputes the
/// checksum, after a test adds or removes payload bytes.
void resize(std::vector<uint8_t> &bytes) {
  uint64_t payload = bytes.size() - kBinaryHeaderBytes;
  std::memcpy(&bytes[16], &payload, 8);
  reseal(bytes);
}

/// The sample's binary (whatever its sources) with a debug section made
/// of `locations` and the instruction sources `sources` (count first), as
/// given: the form may be one the reader refuses.
std::vector<uint8_t>
withDebugSection(const std::vector<SourceLocation> &locations,
                 const std::vector<uint32_t> &sources) {
  std::vector<uint8_t> bytes = writeBinary(withoutSources());
  bytes.resize(bytes.size() - 8); // the two zero counts
  auto put = [&](uint32_t word) {
    uint8_t raw[4];
    std::memcpy(raw, &word, 4);
    bytes.insert(bytes.end(), raw, raw + 4);
  };
  auto putString = [&](const std::string &text) {
    put(uint32_t(text.size()));
    bytes.insert(bytes.end(), text.begin(), text.end());
  };
  put(uint32_t(locations.size()));
  for (const SourceLocation &location : locations) {
    putString(location.opName);
    putString(location.file);
    put(location.line);
    put(location.column);
  }
  put(uint32_t(sources.size()));
  for (uint32_t source : sources)
    put(source);
  resize(bytes);
  return bytes;
}

TEST(BinaryTest, DebugSection) {
  // Five instructions; the sample's sources are 0 1 1 0 none.
  std::vector<uint32_t> sample = {0, 1, 1, 0, kNoSource};
  SourceLocation op{"op", "f", 1, 0}, other{"other", "f", 1, 1};
  absl::StatusOr<Program> read =
      readBinary(withDebugSection({op, other}, sample));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->bundles[0].instructions[1].source, 1u);
  EXPECT_EQ(read->sourceLocations[1].describe(), "other f:1:1");

  EXPECT_EQ(loadError(withDebugSection({op, other}, {1, 0, 1, 0, 0})),
            "corrupt debug section: instruction 0 names source location 1 "
            "before any names 0 (the list is in the order instructions first "
            "name them)");
  EXPECT_EQ(loadError(withDebugSection({op, other}, {0, 1, 2, 0, 0})),
            "corrupt debug section: instruction 2 names source location 2, "
            "but the section lists 2");
  EXPECT_EQ(loadError(withDebugSection({op, other}, {0, 0, 0, 0, kNoSource})),
            "corrupt debug section: no instruction names source location 1 "
            "of 2");
  EXPECT_EQ(loadError(withDebugSection({op, other}, {0, 1, 1, 0})),
            "corrupt debug section: 4 instruction sources for 5 instructions "
            "and 2 source locations (want one per instruction, or none and "
            "no locations)");
  EXPECT_EQ(loadError(withDebugSection({op}, {})),
            "corrupt debug section: 0 instruction sources for 5 "
            "instructions and 1 source locations (want one per instruction, "
            "or none and no locations)");
  EXPECT_EQ(loadError(withDebugSection({op, op}, sample)),
            "corrupt debug section: source location 1 (op f:1:0) is listed "
            "twice");
  EXPECT_EQ(loadError(withDebugSection({op, {"", "f", 1, 1}}, sample)),
            "corrupt debug section: source location 1 names no op");
  EXPECT_EQ(loadError(withDebugSection({op, {"other", "", 3, 4}}, sample)),
            "corrupt debug section: source location 1 has a line and column "
            "but no file");
  std::vector<uint8_t> padded = writeBinary(sampleProgram());
  padded.insert(padded.end(), 4, 0);
  resize(padded);
  EXPECT_EQ(loadError(padded), "corrupt: 4 bytes follow the debug section");
}

TEST(BinaryTest, WritingRenumbersSources) {
  // Listed out of first-use order, with one no instruction names: the
  // binary lists those named, in first-use order.
  Program program = sampleProgram();
  program.sourceLocations.insert(program.sourceLocations.begin(),
                                 {"unused", "", 0, 0});
  std::swap(program.sourceLocations[1], program.sourceLocations[2]);
  for (Bundle &bundle : program.bundles)
    for (Instruction &inst : bundle.instructions)
      if (inst.source != kNoSource)
        inst.source = inst.source == 0 ? 2 : 1;
  absl::StatusOr<Program> read = readBinary(writeBinary(program));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, sampleProgram());

  // What the reader refuses is not written: a location that names no op
  // is none, and one without a file has no line or column.
  Program odd = sampleProgram();
  odd.sourceLocations = {{"", "f", 1, 1}, {"op", "", 5, 6}};
  read = readBinary(writeBinary(odd));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->sourceLocations.size(), 1u);
  EXPECT_EQ(read->sourceLocations[0], (SourceLocation{"op", "", 0, 0}));
  EXPECT_EQ(read->bundles[0].instructions[0].source, kNoSource);
  EXPECT_EQ(read->bundles[0].instructions[1].source, 0u);
}

TEST(BinaryTest, VersionsBeforeTheLatchAreRefused) {
  // In versions 3 and 4 an mxu.ldw latched its weights: their code would
  // load and mean something else, so they get an error that says why.
  std::vector<uint8_t> bytes = writeBinary(withoutSources());
  for (uint32_t version : {3u, 4u}) {
    std::memcpy(&bytes[8], &version, 4);
    reseal(bytes);
    EXPECT_EQ(loadError(bytes),
              "unsupported binary format version " + std::to_string(version) +
                  " (its mxu.ldw latched the weights by itself; since "
                  "version 5 an mxu.latch does); this tool reads version 5 "
                  "(rebuild the binary from its MLIR with this "
                  "tpu-translate)");
  }
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

  Program badSource = sampleProgram();
  badSource.bundles[1].instructions[0].source = 2;
  EXPECT_EQ(verifyProgram(badSource).message(),
            "bundle 1: br.lt names source 2, but the program has 2 source "
            "locations");

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
