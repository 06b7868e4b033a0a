//===- DocsTest.cpp - docs/ISA.md describes the ISA table -----------------===//

#include "tpu/ISA/ISA.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tpu::isa;

namespace {

const char *getSlotColumn(Slot slot) {
  switch (slot) {
  case Slot::Scalar:
    return "Scalar";
  case Slot::Vector:
    return "Vector";
  case Slot::VectorMem:
    return "VectorMem";
  case Slot::MatrixPush:
    return "MatrixPush";
  case Slot::MatrixPop:
    return "MatrixPop";
  case Slot::Misc:
    return "Misc";
  }
  return "?";
}

const char *getUnitColumn(Unit unit) {
  switch (unit) {
  case Unit::Scalar:
    return "Scalar";
  case Unit::VectorLoad:
    return "VectorLoad";
  case Unit::VectorStore:
    return "VectorStore";
  case Unit::Vpu:
    return "Vpu";
  case Unit::Xlu:
    return "Xlu";
  case Unit::Mxu:
    return "Mxu";
  case Unit::Dma:
    return "Dma";
  case Unit::Sync:
    return "Sync";
  }
  return "?";
}

const char *getKindColumn(OperandKind kind) {
  switch (kind) {
  case OperandKind::None:
    return "";
  case OperandKind::SDst:
    return "SDst";
  case OperandKind::SSrc:
    return "SSrc";
  case OperandKind::VDst:
    return "VDst";
  case OperandKind::VSrc:
    return "VSrc";
  case OperandKind::Mxu:
    return "Mxu";
  case OperandKind::Sem:
    return "Sem";
  case OperandKind::Imm16:
    return "Imm16";
  case OperandKind::Imm32:
    return "Imm32";
  case OperandKind::Mask:
    return "Mask";
  case OperandKind::Target:
    return "Target";
  case OperandKind::Flag:
    return "Flag";
  }
  return "?";
}

TEST(DocsTest, IsaTableMatchesIsaDef) {
  std::ifstream file(TPU_SOURCE_DIR "/docs/ISA.md");
  ASSERT_TRUE(file) << "cannot read docs/ISA.md";
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string doc = buffer.str();
  for (const InstInfo &info : allInstructions()) {
    char opcode[8];
    std::snprintf(opcode, sizeof(opcode), "0x%02X", unsigned(info.opcode));
    std::string operands;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i)
      operands += std::string(i ? ", " : "") + getKindColumn(info.operands[i]);
    if (operands.empty())
      operands = "-";
    std::string row = std::string("| `") + info.mnemonic + "` | " + opcode +
                      " | " + getSlotColumn(info.slot) + " | " +
                      getUnitColumn(info.unit) + " | " +
                      std::to_string(info.latency) + " | " + operands + " | ";
    EXPECT_NE(doc.find(row), std::string::npos)
        << "docs/ISA.md has no row starting\n  " << row
        << "\nfor this ISA.def entry; update the table";
  }
}

} // namespace
