//===- Dispatch.cpp - Opcode and unit tables from ISA.def -----------------===//

#include "Semantics.h"

#include <array>

namespace tpu::sim {

namespace {
constexpr unsigned kOpcodeSpace = 128;

constexpr std::array<ExecuteFn, kOpcodeSpace> kExecute = [] {
  std::array<ExecuteFn, kOpcodeSpace> table{};
#define TPU_INST(ENUM, MNEMONIC, OPCODE, ...) table[OPCODE] = &execute##ENUM;
#include "tpu/ISA/ISA.def"
  return table;
}();

constexpr std::array<IssueRuleFn, isa::kNumUnits> kIssueRule = {
#define TPU_UNIT(ENUM, ...) &issueRule##ENUM,
#include "tpu/ISA/ISA.def"
};
} // namespace

ExecuteFn getExecuteFn(isa::Opcode opcode) {
  return kExecute[unsigned(opcode)];
}

IssueRuleFn getIssueRuleFn(isa::Unit unit) {
  return kIssueRule[unsigned(unit)];
}

} // namespace tpu::sim
