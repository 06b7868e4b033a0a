//===- ISA.cpp - The TPU core's instruction set ---------------------------===//

#include "tpu/ISA/ISA.h"

#include <cassert>
#include <charconv>
#include <cstdio>
#include <limits>

namespace tpu::isa {

namespace {

/// Short names for the operand kinds, visible only where ISA.def is
/// expanded into the table.
namespace operand_kinds {
constexpr OperandKind SDst = OperandKind::SDst, SSrc = OperandKind::SSrc,
                      VDst = OperandKind::VDst, VSrc = OperandKind::VSrc,
                      Mxu = OperandKind::Mxu, Sem = OperandKind::Sem,
                      Imm16 = OperandKind::Imm16, Imm32 = OperandKind::Imm32,
                      Mask = OperandKind::Mask, Target = OperandKind::Target,
                      Flag = OperandKind::Flag;
} // namespace operand_kinds

std::vector<InstInfo> buildTable() {
  using namespace operand_kinds;
  return {
#define TPU_INST(ENUM, MNEMONIC, OPCODE, SLOT, UNIT, LATENCY, ...)             \
  {Opcode::ENUM, MNEMONIC, Slot::SLOT, Unit::UNIT, LATENCY, {__VA_ARGS__}},
#include "tpu/ISA/ISA.def"
  };
}

constexpr unsigned kOpcodeShift = 56;
constexpr uint64_t kOpcodeMask = 0x7F;
constexpr unsigned kNumOpcodes = 128;

struct Tables {
  std::vector<InstInfo> rows = buildTable();
  std::array<int16_t, kNumOpcodes> byOpcode;
  Tables() {
    byOpcode.fill(-1);
    for (size_t i = 0; i < rows.size(); ++i)
      byOpcode[static_cast<unsigned>(rows[i].opcode)] = static_cast<int16_t>(i);
  }
};

const Tables &tables() {
  static const Tables instance;
  return instance;
}

} // namespace

unsigned InstInfo::getNumOperands() const {
  unsigned count = 0;
  while (count < kMaxOperands && operands[count] != OperandKind::None)
    ++count;
  return count;
}

const std::vector<InstInfo> &allInstructions() { return tables().rows; }

const InstInfo *lookupOpcode(unsigned opcode) {
  if (opcode >= kNumOpcodes || tables().byOpcode[opcode] < 0)
    return nullptr;
  return &tables().rows[tables().byOpcode[opcode]];
}

const InstInfo &getInfo(Opcode opcode) {
  const InstInfo *info = lookupOpcode(static_cast<unsigned>(opcode));
  assert(info && "opcode not in the table");
  return *info;
}

const InstInfo *lookupMnemonic(std::string_view mnemonic) {
  for (const InstInfo &info : tables().rows)
    if (mnemonic == info.mnemonic)
      return &info;
  return nullptr;
}

unsigned getOperandBits(OperandKind kind) {
  switch (kind) {
  case OperandKind::None:
    return 0;
  case OperandKind::SDst:
  case OperandKind::SSrc:
  case OperandKind::VDst:
  case OperandKind::VSrc:
    return 5;
  case OperandKind::Mxu:
    return 2;
  case OperandKind::Sem:
    return 3;
  case OperandKind::Imm16:
    return 16;
  case OperandKind::Imm32:
    return 32;
  case OperandKind::Mask:
    return 8;
  case OperandKind::Target:
    return 24;
  case OperandKind::Flag:
    return 1;
  }
  return 0;
}

static bool isSigned(OperandKind kind) {
  return kind == OperandKind::Imm16 || kind == OperandKind::Imm32;
}

int64_t getOperandMin(OperandKind kind) {
  return isSigned(kind) ? -(int64_t(1) << (getOperandBits(kind) - 1)) : 0;
}

int64_t getOperandMax(OperandKind kind) {
  unsigned bits = getOperandBits(kind);
  return isSigned(kind) ? (int64_t(1) << (bits - 1)) - 1
                        : (int64_t(1) << bits) - 1;
}

const char *getSlotName(Slot slot) {
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

const char *getUnitName(Unit unit) {
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

const char *getOperandKindName(OperandKind kind) {
  switch (kind) {
  case OperandKind::None:
    return "None";
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

bool isControlFlow(Opcode opcode) {
  switch (opcode) {
  case Opcode::BrEq:
  case Opcode::BrNe:
  case Opcode::BrLt:
  case Opcode::BrGe:
  case Opcode::Jmp:
    return true;
  default:
    return false;
  }
}

std::optional<std::string> verifyInstruction(const Instruction &inst) {
  const InstInfo *info = lookupOpcode(static_cast<unsigned>(inst.opcode));
  if (!info)
    return "unknown opcode " + std::to_string(unsigned(inst.opcode));
  unsigned numOperands = info->getNumOperands();
  for (unsigned i = 0; i < kMaxOperands; ++i) {
    int64_t value = inst.operands[i];
    if (i >= numOperands) {
      if (value != 0)
        return std::string(info->mnemonic) + " takes " +
               std::to_string(numOperands) + " operands";
      continue;
    }
    OperandKind kind = info->operands[i];
    if (value < getOperandMin(kind) || value > getOperandMax(kind))
      return std::string(info->mnemonic) + " operand #" + std::to_string(i) +
             " is " + std::to_string(value) + ", outside [" +
             std::to_string(getOperandMin(kind)) + ", " +
             std::to_string(getOperandMax(kind)) + "]";
  }
  return std::nullopt;
}

std::optional<std::string> verifyBundle(const Bundle &bundle) {
  if (bundle.instructions.empty())
    return std::string("a bundle needs at least one instruction (use nop)");
  unsigned scalar = 0, vector = 0, vectorMem = 0, push = 0, pop = 0, misc = 0,
           control = 0;
  std::array<int, 32> scalarWriters{}, vectorWriters{};
  for (const Instruction &inst : bundle.instructions) {
    if (std::optional<std::string> error = verifyInstruction(inst))
      return error;
    const InstInfo &info = inst.info();
    switch (info.slot) {
    case Slot::Scalar:
      ++scalar;
      break;
    case Slot::VectorMem:
      ++vectorMem;
      [[fallthrough]];
    case Slot::Vector:
      ++vector;
      break;
    case Slot::MatrixPush:
      ++push;
      break;
    case Slot::MatrixPop:
      ++pop;
      break;
    case Slot::Misc:
      ++misc;
      break;
    }
    control += isControlFlow(inst.opcode);
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      int64_t reg = inst.operands[i];
      if (info.operands[i] == OperandKind::SDst && reg != 0 &&
          ++scalarWriters[reg] > 1)
        return "s" + std::to_string(reg) + " is written twice in one bundle";
      if (info.operands[i] == OperandKind::VDst && ++vectorWriters[reg] > 1)
        return "v" + std::to_string(reg) + " is written twice in one bundle";
    }
  }
  auto tooMany = [](const char *what, unsigned count, unsigned limit) {
    return std::string("bundle has ") + std::to_string(count) + " " + what +
           " instructions; the limit is " + std::to_string(limit);
  };
  if (scalar > 2)
    return tooMany("scalar-slot", scalar, 2);
  if (vector > 4)
    return tooMany("vector-slot", vector, 4);
  if (vectorMem > 2)
    return tooMany("vector load/store", vectorMem, 2);
  if (push > 1)
    return tooMany("matrix-push-slot (mxu.ldw, mxu.push)", push, 1);
  if (pop > 1)
    return tooMany("matrix-pop-slot (mxu.pop)", pop, 1);
  if (misc > 1)
    return tooMany("misc-slot (dma, nop, halt)", misc, 1);
  if (control > 1)
    return tooMany("control-flow", control, 1);
  return std::nullopt;
}

uint64_t encode(const Instruction &inst, bool endOfBundle) {
  const InstInfo &info = inst.info();
  uint64_t word = (uint64_t(inst.opcode) & kOpcodeMask) << kOpcodeShift;
  if (endOfBundle)
    word |= kEndOfBundleBit;
  unsigned position = kOpcodeShift;
  for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
    unsigned bits = getOperandBits(info.operands[i]);
    position -= bits;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    word |= (uint64_t(inst.operands[i]) & mask) << position;
  }
  return word;
}

DecodeResult decode(uint64_t word) {
  DecodeResult result;
  result.endOfBundle = (word & kEndOfBundleBit) != 0;
  unsigned opcode = unsigned((word >> kOpcodeShift) & kOpcodeMask);
  const InstInfo *info = lookupOpcode(opcode);
  char hex[32];
  if (!info) {
    std::snprintf(hex, sizeof(hex), "0x%02x", opcode);
    result.error = std::string("unknown opcode ") + hex;
    return result;
  }
  Instruction inst;
  inst.opcode = info->opcode;
  unsigned position = kOpcodeShift;
  for (unsigned i = 0, e = info->getNumOperands(); i < e; ++i) {
    OperandKind kind = info->operands[i];
    unsigned bits = getOperandBits(kind);
    position -= bits;
    uint64_t field = (word >> position) & ((uint64_t(1) << bits) - 1);
    int64_t value = int64_t(field);
    if (isSigned(kind) && (field >> (bits - 1)) != 0)
      value -= int64_t(1) << bits;
    inst.operands[i] = value;
  }
  uint64_t unusedMask = (uint64_t(1) << position) - 1;
  if ((word & unusedMask) != 0) {
    std::snprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)word);
    result.error = std::string("word ") + hex + " (" + info->mnemonic +
                   ") has non-zero bits outside its operand fields";
    return result;
  }
  result.instruction = inst;
  return result;
}

std::vector<uint64_t> encodeBundles(const std::vector<Bundle> &bundles) {
  std::vector<uint64_t> words;
  for (const Bundle &bundle : bundles)
    for (size_t i = 0, e = bundle.instructions.size(); i < e; ++i)
      words.push_back(encode(bundle.instructions[i], i + 1 == e));
  return words;
}

std::optional<std::vector<Bundle>>
decodeBundles(const std::vector<uint64_t> &words, std::string &error) {
  std::vector<Bundle> bundles;
  Bundle current;
  for (size_t i = 0; i < words.size(); ++i) {
    DecodeResult decoded = decode(words[i]);
    if (!decoded.instruction) {
      error = "instruction word " + std::to_string(i) + " (bundle " +
              std::to_string(bundles.size()) + "): " + decoded.error;
      return std::nullopt;
    }
    current.instructions.push_back(*decoded.instruction);
    if (decoded.endOfBundle) {
      if (std::optional<std::string> bad = verifyBundle(current)) {
        error = "bundle " + std::to_string(bundles.size()) + ": " + *bad;
        return std::nullopt;
      }
      bundles.push_back(std::move(current));
      current = Bundle();
    }
  }
  if (!current.instructions.empty()) {
    error = "the code ends inside bundle " + std::to_string(bundles.size()) +
            " (its last instruction lacks the end-of-bundle bit)";
    return std::nullopt;
  }
  return bundles;
}

std::string formatOperand(OperandKind kind, int64_t value) {
  char text[32];
  switch (kind) {
  case OperandKind::SDst:
  case OperandKind::SSrc:
    return "s" + std::to_string(value);
  case OperandKind::VDst:
  case OperandKind::VSrc:
    return "v" + std::to_string(value);
  case OperandKind::Target:
    return "b" + std::to_string(value);
  case OperandKind::Mask:
    std::snprintf(text, sizeof(text), "0x%02llx", (unsigned long long)value);
    return text;
  default:
    return std::to_string(value);
  }
}

static std::optional<int64_t> parseInteger(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t magnitude = 0;
  auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      magnitude > uint64_t(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return negative ? -int64_t(magnitude) : int64_t(magnitude);
}

namespace {
/// How an operand kind is written: a prefix letter (registers, targets) or
/// none (integers), and how to describe it in an error.
struct OperandSpelling {
  char prefix;
  const char *expected;
};

OperandSpelling getSpelling(OperandKind kind) {
  switch (kind) {
  case OperandKind::SDst:
  case OperandKind::SSrc:
    return {'s', "a scalar register s0..s31"};
  case OperandKind::VDst:
  case OperandKind::VSrc:
    return {'v', "a vector register v0..v31"};
  case OperandKind::Target:
    return {'b', "a bundle target bN"};
  default:
    return {0, "an integer"};
  }
}
} // namespace

std::optional<int64_t> parseOperand(OperandKind kind, std::string_view text,
                                    std::string &error) {
  OperandSpelling spelling = getSpelling(kind);
  std::string_view digits = text;
  bool prefixOk =
      !spelling.prefix || (!text.empty() && text.front() == spelling.prefix);
  if (spelling.prefix && prefixOk)
    digits.remove_prefix(1);
  std::optional<int64_t> value;
  if (prefixOk && !(spelling.prefix && !digits.empty() && digits[0] == '-'))
    value = parseInteger(digits);
  if (!value) {
    error = "expected " + std::string(spelling.expected) + ", got '" +
            std::string(text) + "'";
    return std::nullopt;
  }
  if (*value < getOperandMin(kind) || *value > getOperandMax(kind)) {
    error = "'" + std::string(text) + "' is out of range: expected " +
            spelling.expected + " in [" + std::to_string(getOperandMin(kind)) +
            ", " + std::to_string(getOperandMax(kind)) + "]";
    return std::nullopt;
  }
  return value;
}

std::string formatInstruction(const Instruction &inst) {
  const InstInfo &info = inst.info();
  std::string text = info.mnemonic;
  for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
    text += i == 0 ? " " : ", ";
    text += formatOperand(info.operands[i], inst.operands[i]);
  }
  return text;
}

std::optional<Instruction> parseInstruction(std::string_view text,
                                            std::string &error) {
  auto trim = [](std::string_view piece) {
    while (!piece.empty() && piece.front() == ' ')
      piece.remove_prefix(1);
    while (!piece.empty() && piece.back() == ' ')
      piece.remove_suffix(1);
    return piece;
  };
  text = trim(text);
  size_t space = text.find(' ');
  std::string_view mnemonic = text.substr(0, space);
  const InstInfo *info = lookupMnemonic(mnemonic);
  if (!info) {
    error = "unknown instruction '" + std::string(mnemonic) + "'";
    return std::nullopt;
  }
  Instruction inst;
  inst.opcode = info->opcode;
  std::string_view rest =
      space == std::string_view::npos ? std::string_view() : text.substr(space);
  unsigned count = 0;
  while (!trim(rest).empty()) {
    size_t comma = rest.find(',');
    std::string_view piece = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view()
                                           : rest.substr(comma + 1);
    if (count >= info->getNumOperands()) {
      count = kMaxOperands + 1;
      break;
    }
    std::optional<int64_t> value =
        parseOperand(info->operands[count], piece, error);
    if (!value) {
      error = std::string(info->mnemonic) + " operand #" +
              std::to_string(count) + ": " + error;
      return std::nullopt;
    }
    inst.operands[count++] = *value;
  }
  if (count != info->getNumOperands()) {
    error = std::string(info->mnemonic) + " takes " +
            std::to_string(info->getNumOperands()) + " operand(s)";
    return std::nullopt;
  }
  return inst;
}

} // namespace tpu::isa
