//===- DocsTest.cpp - docs/ISA.md describes the ISA tables ----------------===//
//
// Every row of ISA.def's instruction, operand-kind, slot and unit tables has
// its row in docs/ISA.md, so a change to the ISA that is not written down
// fails here.
//
//===----------------------------------------------------------------------===//

#include "tpu/ISA/ISA.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tpu::isa;

namespace {

std::string readDoc() {
  std::ifstream file(TPU_SOURCE_DIR "/docs/ISA.md");
  std::stringstream buffer;
  buffer << file.rdbuf();
  return buffer.str();
}

void expectRow(const std::string &doc, const std::string &row) {
  EXPECT_NE(doc.find(row), std::string::npos)
      << "docs/ISA.md has no row starting\n  " << row
      << "\nfor this ISA.def entry; update the table";
}

TEST(DocsTest, InstructionTableMatchesIsaDef) {
  std::string doc = readDoc();
  ASSERT_FALSE(doc.empty()) << "cannot read docs/ISA.md";
  for (const InstInfo &info : allInstructions()) {
    char opcode[8];
    std::snprintf(opcode, sizeof(opcode), "0x%02X", unsigned(info.opcode));
    std::string operands;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i)
      operands +=
          std::string(i ? ", " : "") + getOperandKindName(info.operands[i]);
    if (operands.empty())
      operands = "-";
    expectRow(doc, std::string("| `") + info.mnemonic + "` | " + opcode +
                       " | " + getSlotName(info.slot) + " | " +
                       getUnitName(info.unit) + " | " +
                       std::to_string(info.latency) + " | " +
                       std::to_string(info.issueInterval) + " | " + operands +
                       " | ");
  }
}

TEST(DocsTest, OperandKindTableMatchesIsaDef) {
  std::string doc = readDoc();
  for (unsigned k = 1; k < kNumOperandKinds; ++k) {
    OperandKindInfo info = getOperandKindInfo(OperandKind(k));
    auto name = [](RegisterFile file) -> std::string {
      return file == RegisterFile::Scalar   ? "Scalar"
             : file == RegisterFile::Vector ? "Vector"
                                            : "-";
    };
    std::string access = info.access == Access::Read    ? "Read"
                         : info.access == Access::Write ? "Write"
                                                        : "-";
    expectRow(doc, std::string("| ") + getOperandKindName(OperandKind(k)) +
                       " | " + std::to_string(info.bits) + " | " +
                       (info.isSigned ? "yes" : "no") + " | " +
                       name(info.file) + " | " + access + " | " +
                       std::to_string(info.group) + " | ");
  }
}

TEST(DocsTest, SlotAndUnitTablesMatchIsaDef) {
  std::string doc = readDoc();
  for (unsigned s = 0; s < kNumSlots; ++s) {
    SlotInfo info = getSlotInfo(Slot(s));
    std::string countsAs =
        info.countsAs == Slot(s) ? "-" : getSlotName(info.countsAs);
    expectRow(doc, std::string("| ") + getSlotName(Slot(s)) + " | " +
                       std::to_string(info.limit) + " | " + countsAs + " | ");
  }
  for (unsigned u = 0; u < kNumUnits; ++u)
    expectRow(doc, std::string("| ") + getUnitName(Unit(u)) + " | ");
}

} // namespace
