//===- DocsTest.cpp - docs/ISA.md describes the ISA table -----------------===//

#include "tpu/ISA/ISA.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tpu::isa;

namespace {

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
      operands +=
          std::string(i ? ", " : "") + getOperandKindName(info.operands[i]);
    if (operands.empty())
      operands = "-";
    std::string row = std::string("| `") + info.mnemonic + "` | " + opcode +
                      " | " + getSlotName(info.slot) + " | " +
                      getUnitName(info.unit) + " | " +
                      std::to_string(info.latency) + " | " + operands + " | ";
    EXPECT_NE(doc.find(row), std::string::npos)
        << "docs/ISA.md has no row starting\n  " << row
        << "\nfor this ISA.def entry; update the table";
  }
}

} // namespace
