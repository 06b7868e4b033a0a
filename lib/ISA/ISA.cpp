//===- ISA.cpp - The TPU core's instruction set ---------------------------===//

#include "tpu/ISA/ISA.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

#include <cassert>
#include <charconv>
#include <limits>
#include <optional>

namespace tpu::isa {

namespace {

/// Short names for the operand kinds, visible only where ISA.def is
/// expanded into the table.
namespace operand_kinds {
#define TPU_OPERAND(ENUM, ...) constexpr OperandKind ENUM = OperandKind::ENUM;
#include "tpu/ISA/ISA.def"
} // namespace operand_kinds

std::vector<InstInfo> buildTable() {
  using namespace operand_kinds;
  return {
#define TPU_INST(ENUM, MNEMONIC, OPCODE, SLOT, UNIT, LATENCY, INTERVAL, ...)   \
  {Opcode::ENUM,   MNEMONIC, Slot::SLOT,   Unit::UNIT,                         \
   LATENCY,        INTERVAL, {__VA_ARGS__}},
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

const char *getSlotName(Slot slot) {
  switch (slot) {
#define TPU_SLOT(ENUM, ...)                                                    \
  case Slot::ENUM:                                                             \
    return #ENUM;
#include "tpu/ISA/ISA.def"
  }
  return "?";
}

const char *getUnitName(Unit unit) {
  switch (unit) {
#define TPU_UNIT(ENUM, ...)                                                    \
  case Unit::ENUM:                                                             \
    return #ENUM;
#include "tpu/ISA/ISA.def"
  }
  return "?";
}

const char *getOperandKindName(OperandKind kind) {
  switch (kind) {
  case OperandKind::None:
    return "None";
#define TPU_OPERAND(ENUM, ...)                                                 \
  case OperandKind::ENUM:                                                      \
    return #ENUM;
#include "tpu/ISA/ISA.def"
  }
  return "?";
}

unsigned InstInfo::getNumOperands() const {
  unsigned count = 0;
  while (count < kMaxOperands && operands[count] != OperandKind::None)
    ++count;
  return count;
}

bool InstInfo::isControlFlow() const {
  for (OperandKind kind : operands)
    if (kind == OperandKind::Target)
      return true;
  return false;
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

RegisterAccess getRegisterAccess(const Instruction &inst) {
  RegisterAccess access;
  const InstInfo &info = inst.info();
  for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
    OperandKindInfo kind = getOperandKindInfo(info.operands[i]);
    if (!kind.isRegister())
      continue;
    unsigned base = kind.file == RegisterFile::Vector ? kNumScalarRegisters : 0;
    unsigned count = getRegisterFileInfo(kind.file).count;
    for (unsigned g = 0; g < kind.group; ++g) {
      auto reg = unsigned(inst.operands[i]) + g;
      if (reg >= count)
        break;
      if (kind.access == Access::Read)
        access.reads.push_back(base + reg);
      else if (kind.file != RegisterFile::Scalar || reg != 0)
        access.writes.push_back(base + reg); // writes to s0 are dropped
    }
  }
  return access;
}

/// What an operand of `kind` may be, for error messages.
static std::string describeOperand(OperandKind kind) {
  OperandKindInfo info = getOperandKindInfo(kind);
  if (!info.isRegister())
    return absl::StrCat(kind == OperandKind::Target ? "a bundle target in ["
                                                    : "an integer in [",
                        info.min(), ", ", info.max(), "]");
  std::string prefix(1, getRegisterFileInfo(info.file).prefix);
  std::string what = info.file == RegisterFile::Scalar ? "a scalar register"
                                                       : "a vector register";
  if (info.group > 1)
    return absl::StrCat(what, " group of ", info.group, " (", prefix,
                        "N with N a multiple of ", info.group, " up to ",
                        info.max(), ")");
  return absl::StrCat(what, " ", prefix, "0..", prefix, info.max());
}

absl::Status verifyInstruction(const Instruction &inst) {
  const InstInfo *info = lookupOpcode(static_cast<unsigned>(inst.opcode));
  if (!info)
    return absl::InvalidArgumentError(
        absl::StrCat("unknown opcode ", unsigned(inst.opcode)));
  unsigned numOperands = info->getNumOperands();
  for (unsigned i = 0; i < kMaxOperands; ++i) {
    int64_t value = inst.operands[i];
    if (i >= numOperands) {
      if (value != 0)
        return absl::InvalidArgumentError(
            absl::StrCat(info->mnemonic, " takes ", numOperands, " operands"));
      continue;
    }
    OperandKind kind = info->operands[i];
    if (!isValidOperand(kind, value))
      return absl::InvalidArgumentError(
          absl::StrCat(info->mnemonic, " operand #", i, " is ", value,
                       "; expected ", describeOperand(kind)));
  }
  return absl::OkStatus();
}

absl::Status verifyBundle(const Bundle &bundle) {
  if (bundle.instructions.empty())
    return absl::InvalidArgumentError(
        "a bundle needs at least one instruction (use nop)");
  std::array<unsigned, kNumSlots> used{};
  unsigned control = 0;
  std::vector<bool> written(kNumScalarRegisters + kNumVectorRegisters);
  for (const Instruction &inst : bundle.instructions) {
    if (absl::Status status = verifyInstruction(inst); !status.ok())
      return status;
    const InstInfo &info = inst.info();
    ++used[unsigned(info.slot)];
    Slot countsAs = getSlotInfo(info.slot).countsAs;
    if (countsAs != info.slot)
      ++used[unsigned(countsAs)];
    control += info.isControlFlow();
    for (unsigned reg : getRegisterAccess(inst).writes) {
      if (written[reg]) {
        bool vector = reg >= kNumScalarRegisters;
        return absl::InvalidArgumentError(absl::StrCat(
            vector ? "v" : "s", vector ? reg - kNumScalarRegisters : reg,
            " is written twice in one bundle"));
      }
      written[reg] = true;
    }
  }
  // An instruction that occupies its unit for more than a cycle shares it
  // with nothing else in its bundle (the unit takes one at a time).
  for (const Instruction &inst : bundle.instructions) {
    const InstInfo &info = inst.info();
    if (info.issueInterval <= 1)
      continue;
    for (const Instruction &other : bundle.instructions)
      if (&other != &inst && other.info().unit == info.unit)
        return absl::InvalidArgumentError(
            absl::StrCat(info.mnemonic, " occupies the ",
                         getUnitName(info.unit), " unit for ",
                         info.issueInterval, " cycles, so ",
                         other.info().mnemonic,
                         " cannot share its bundle; put it in another"));
  }
  for (unsigned s = 0; s < kNumSlots; ++s) {
    unsigned limit = getSlotInfo(Slot(s)).limit;
    if (used[s] <= limit)
      continue;
    std::vector<std::string> members;
    for (const InstInfo &info : allInstructions())
      if (info.slot == Slot(s) || getSlotInfo(info.slot).countsAs == Slot(s))
        members.push_back(info.mnemonic);
    return absl::InvalidArgumentError(
        absl::StrCat("bundle has ", used[s], " ", getSlotName(Slot(s)),
                     "-slot instructions; the limit is ", limit, " (the ",
                     getSlotName(Slot(s)), " slots take ",
                     absl::StrJoin(members, ", "), ")"));
  }
  if (control > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "bundle has ", control, " control-flow instructions; the limit is 1"));
  return absl::OkStatus();
}

uint64_t encode(const Instruction &inst, bool endOfBundle) {
  const InstInfo &info = inst.info();
  uint64_t word = (uint64_t(inst.opcode) & kOpcodeMask) << kOpcodeShift;
  if (endOfBundle)
    word |= kEndOfBundleBit;
  unsigned position = kOpcodeShift;
  for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
    unsigned bits = getOperandKindInfo(info.operands[i]).bits;
    position -= bits;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    word |= (uint64_t(inst.operands[i]) & mask) << position;
  }
  return word;
}

absl::StatusOr<DecodedWord> decode(uint64_t word) {
  DecodedWord result;
  result.endOfBundle = (word & kEndOfBundleBit) != 0;
  unsigned opcode = unsigned((word >> kOpcodeShift) & kOpcodeMask);
  const InstInfo *info = lookupOpcode(opcode);
  if (!info)
    return absl::InvalidArgumentError(
        absl::StrFormat("unknown opcode 0x%02x", opcode));
  Instruction &inst = result.instruction;
  inst.opcode = info->opcode;
  unsigned position = kOpcodeShift;
  for (unsigned i = 0, e = info->getNumOperands(); i < e; ++i) {
    OperandKindInfo kind = getOperandKindInfo(info->operands[i]);
    position -= kind.bits;
    uint64_t field = (word >> position) & ((uint64_t(1) << kind.bits) - 1);
    int64_t value = int64_t(field);
    if (kind.isSigned && (field >> (kind.bits - 1)) != 0)
      value -= int64_t(1) << kind.bits;
    inst.operands[i] = value;
  }
  uint64_t unusedMask = (uint64_t(1) << position) - 1;
  if ((word & unusedMask) != 0)
    return absl::InvalidArgumentError(absl::StrFormat(
        "word 0x%016x (%s) has non-zero bits outside its operand fields", word,
        info->mnemonic));
  if (absl::Status status = verifyInstruction(inst); !status.ok())
    return absl::InvalidArgumentError(
        absl::StrFormat("word 0x%016x: %s", word, status.message()));
  return result;
}

std::vector<uint64_t> encodeBundles(const std::vector<Bundle> &bundles) {
  std::vector<uint64_t> words;
  for (const Bundle &bundle : bundles)
    for (size_t i = 0, e = bundle.instructions.size(); i < e; ++i)
      words.push_back(encode(bundle.instructions[i], i + 1 == e));
  return words;
}

absl::StatusOr<std::vector<Bundle>>
decodeBundles(const std::vector<uint64_t> &words) {
  std::vector<Bundle> bundles;
  Bundle current;
  for (size_t i = 0; i < words.size(); ++i) {
    absl::StatusOr<DecodedWord> decoded = decode(words[i]);
    if (!decoded.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("instruction word ", i, " (bundle ", bundles.size(),
                       "): ", decoded.status().message()));
    current.instructions.push_back(decoded->instruction);
    if (decoded->endOfBundle) {
      if (absl::Status status = verifyBundle(current); !status.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("bundle ", bundles.size(), ": ", status.message()));
      bundles.push_back(std::move(current));
      current = Bundle();
    }
  }
  if (!current.instructions.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("the code ends inside bundle ", bundles.size(),
                     " (its last instruction lacks the end-of-bundle bit)"));
  return bundles;
}

std::string formatOperand(OperandKind kind, int64_t value) {
  OperandKindInfo info = getOperandKindInfo(kind);
  if (info.isRegister())
    return std::string(1, getRegisterFileInfo(info.file).prefix) +
           std::to_string(value);
  if (kind == OperandKind::Target)
    return "b" + std::to_string(value);
  if (kind == OperandKind::Mask)
    return absl::StrFormat("0x%02x", value);
  return std::to_string(value);
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

/// The letter an operand of `kind` is written with (registers, targets),
/// or 0 for plain integers.
static char getPrefix(OperandKind kind) {
  OperandKindInfo info = getOperandKindInfo(kind);
  if (info.isRegister())
    return getRegisterFileInfo(info.file).prefix;
  return kind == OperandKind::Target ? 'b' : 0;
}

absl::StatusOr<int64_t> parseOperand(OperandKind kind, std::string_view text) {
  char prefix = getPrefix(kind);
  std::string_view digits = text;
  bool prefixOk = !prefix || (!text.empty() && text.front() == prefix);
  if (prefix && prefixOk)
    digits.remove_prefix(1);
  std::optional<int64_t> value;
  if (prefixOk && !(prefix && !digits.empty() && digits[0] == '-'))
    value = parseInteger(digits);
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(
        "expected ", describeOperand(kind), ", got '", std::string(text), "'"));
  if (!isValidOperand(kind, *value))
    return absl::InvalidArgumentError(
        absl::StrCat("'", std::string(text), "' is out of range: expected ",
                     describeOperand(kind)));
  return *value;
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

absl::StatusOr<Instruction> parseInstruction(std::string_view text) {
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
  if (!info)
    return absl::InvalidArgumentError(
        absl::StrCat("unknown instruction '", std::string(mnemonic), "'"));
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
    absl::StatusOr<int64_t> value = parseOperand(info->operands[count], piece);
    if (!value.ok())
      return absl::InvalidArgumentError(absl::StrCat(
          info->mnemonic, " operand #", count, ": ", value.status().message()));
    inst.operands[count++] = *value;
  }
  if (count != info->getNumOperands())
    return absl::InvalidArgumentError(absl::StrCat(
        info->mnemonic, " takes ", info->getNumOperands(), " operand(s)"));
  return inst;
}

} // namespace tpu::isa
