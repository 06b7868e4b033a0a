//===- ISA.h - The TPU core's instruction set -------------------*- C++ -*-===//
//
// Everything ISA.def defines, as C++: the enums and their names, each
// instruction's row, the 64-bit encoding, the VLIW bundle rules and the
// textual operand syntax shared by the assembly listing and the ISA-level
// MLIR. Depends on the C++ standard library and Abseil's Status only.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_ISA_ISA_H
#define TPU_ISA_ISA_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpu::isa {

//===----------------------------------------------------------------------===//
// The tables of ISA.def
//===----------------------------------------------------------------------===//

enum class Opcode : uint8_t {
#define TPU_INST(ENUM, MNEMONIC, OPCODE, ...) ENUM = OPCODE,
#include "tpu/ISA/ISA.def"
};

enum class RegisterFile : uint8_t {
  None,
#define TPU_REGISTER_FILE(ENUM, ...) ENUM,
#include "tpu/ISA/ISA.def"
};

enum class Access : uint8_t { None, Read, Write };

enum class OperandKind : uint8_t {
  None = 0,
#define TPU_OPERAND(ENUM, ...) ENUM,
#include "tpu/ISA/ISA.def"
};

/// The VLIW slot class an instruction issues in.
enum class Slot : uint8_t {
#define TPU_SLOT(ENUM, ...) ENUM,
#include "tpu/ISA/ISA.def"
};

/// The functional unit an instruction occupies, for timing and statistics.
enum class Unit : uint8_t {
#define TPU_UNIT(ENUM, ...) ENUM,
#include "tpu/ISA/ISA.def"
};

/// How many of each the table has.
inline constexpr unsigned kNumOperandKinds = 1
#define TPU_OPERAND(...) +1
#include "tpu/ISA/ISA.def"
    ;
inline constexpr unsigned kNumSlots = 0
#define TPU_SLOT(...) +1
#include "tpu/ISA/ISA.def"
    ;
inline constexpr unsigned kNumUnits = 0
#define TPU_UNIT(...) +1
#include "tpu/ISA/ISA.def"
    ;
inline constexpr unsigned kNumInstructions = 0
#define TPU_INST(...) +1
#include "tpu/ISA/ISA.def"
    ;

struct RegisterFileInfo {
  char prefix;
  unsigned count;
};

inline constexpr RegisterFileInfo getRegisterFileInfo(RegisterFile file) {
  switch (file) {
#define TPU_REGISTER_FILE(ENUM, PREFIX, COUNT)                                 \
  case RegisterFile::ENUM:                                                     \
    return {PREFIX, COUNT};
#include "tpu/ISA/ISA.def"
  case RegisterFile::None:
    break;
  }
  return {0, 0};
}

inline constexpr unsigned kNumScalarRegisters =
    getRegisterFileInfo(RegisterFile::Scalar).count;
inline constexpr unsigned kNumVectorRegisters =
    getRegisterFileInfo(RegisterFile::Vector).count;

/// One row of the operand-kind table.
struct OperandKindInfo {
  unsigned bits = 0;
  bool isSigned = false;
  RegisterFile file = RegisterFile::None;
  Access access = Access::None;
  /// Registers a register operand names, from a multiple of `group`.
  unsigned group = 1;

  /// The range of values the field may hold: for registers the first
  /// register of a group that fits the file.
  constexpr int64_t min() const {
    return isSigned ? -(int64_t(1) << (bits - 1)) : 0;
  }
  constexpr int64_t max() const {
    if (file != RegisterFile::None)
      return int64_t(getRegisterFileInfo(file).count) - group;
    return isSigned ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  }
  bool isRegister() const { return file != RegisterFile::None; }
};

inline constexpr OperandKindInfo getOperandKindInfo(OperandKind kind) {
  switch (kind) {
#define TPU_OPERAND(ENUM, BITS, SIGNED, FILE, ACCESS, GROUP)                   \
  case OperandKind::ENUM:                                                      \
    return {BITS, SIGNED != 0, RegisterFile::FILE, Access::ACCESS, GROUP};
#include "tpu/ISA/ISA.def"
  case OperandKind::None:
    break;
  }
  return {};
}

/// Whether `value` is a value an operand of `kind` may hold: in range and,
/// for a register group, its first register.
constexpr bool isValidOperand(OperandKind kind, int64_t value) {
  OperandKindInfo info = getOperandKindInfo(kind);
  return value >= info.min() && value <= info.max() &&
         value % int64_t(info.group) == 0;
}

/// DMA semaphores and MXUs a program can name.
inline constexpr unsigned kNumSemaphores =
    1u << getOperandKindInfo(OperandKind::Sem).bits;
inline constexpr unsigned kMaxMxus =
    1u << getOperandKindInfo(OperandKind::Mxu).bits;

struct SlotInfo {
  unsigned limit;
  Slot countsAs;
};

inline constexpr SlotInfo getSlotInfo(Slot slot) {
  switch (slot) {
#define TPU_SLOT(ENUM, LIMIT, COUNTS_AS)                                       \
  case Slot::ENUM:                                                             \
    return {LIMIT, Slot::COUNTS_AS};
#include "tpu/ISA/ISA.def"
  }
  return {0, slot};
}

/// Names as ISA.def (and docs/ISA.md) spell them: "VectorMem", "Vpu", "SDst".
const char *getSlotName(Slot slot);
const char *getUnitName(Unit unit);
const char *getOperandKindName(OperandKind kind);

inline constexpr unsigned kMaxOperands = 5;

/// One row of the instruction table.
struct InstInfo {
  Opcode opcode;
  const char *mnemonic;
  Slot slot;
  Unit unit;
  unsigned latency;
  /// Cycles the instruction occupies its unit (1: pipelined).
  unsigned issueInterval;
  std::array<OperandKind, kMaxOperands> operands;

  unsigned getNumOperands() const;
  /// Branches and jumps: instructions with a bundle target.
  bool isControlFlow() const;
};

/// Every instruction, in table order.
const std::vector<InstInfo> &allInstructions();
/// The row for `opcode`, or null if the value is not an opcode.
const InstInfo *lookupOpcode(unsigned opcode);
const InstInfo &getInfo(Opcode opcode);
/// The row whose mnemonic is `mnemonic`, or null.
const InstInfo *lookupMnemonic(std::string_view mnemonic);

/// An instruction's source when it has none.
inline constexpr uint32_t kNoSource = 0xFFFFFFFFu;

/// A decoded instruction: an opcode and its operand values (register
/// numbers, immediates) in table order.
struct Instruction {
  Opcode opcode = Opcode::Nop;
  std::array<int64_t, kMaxOperands> operands = {};
  /// The source op it was compiled from: an index into its program's
  /// sourceLocations, or kNoSource. Debug information, as an LLVM
  /// MachineInstr's DebugLoc: not encoded in the instruction word, and
  /// carried along when the bundler moves the instruction.
  uint32_t source = kNoSource;

  const InstInfo &info() const { return getInfo(opcode); }
  bool operator==(const Instruction &other) const {
    return opcode == other.opcode && operands == other.operands &&
           source == other.source;
  }
};

/// The registers an instruction reads and writes, group members included,
/// numbered in one space: scalar register r is r, vector register r is
/// kNumScalarRegisters + r. Writes to s0 are left out (they are dropped).
struct RegisterAccess {
  std::vector<unsigned> reads, writes;
};
RegisterAccess getRegisterAccess(const Instruction &inst);

/// Instructions that issue together in one cycle.
struct Bundle {
  std::vector<Instruction> instructions;
  bool operator==(const Bundle &other) const {
    return instructions == other.instructions;
  }
};

/// Checks operand count and ranges against the table.
absl::Status verifyInstruction(const Instruction &inst);

/// Checks a bundle against the slot rules: not empty, within each slot
/// class's limit, at most one control-flow instruction, no register written
/// twice.
absl::Status verifyBundle(const Bundle &bundle);

/// The 64-bit encoding. Bit 63 marks the last instruction of a bundle.
inline constexpr uint64_t kEndOfBundleBit = 1ull << 63;
uint64_t encode(const Instruction &inst, bool endOfBundle);

/// One decoded word.
struct DecodedWord {
  Instruction instruction;
  bool endOfBundle = false;
};
/// Decodes one word. Fails on an unknown opcode, an operand out of range or
/// non-zero bits outside the instruction's fields.
absl::StatusOr<DecodedWord> decode(uint64_t word);

/// Encodes bundles to words, and back. decodeBundles fails on a bad word, a
/// stream that ends mid-bundle or a bundle that breaks the slot rules.
std::vector<uint64_t> encodeBundles(const std::vector<Bundle> &bundles);
absl::StatusOr<std::vector<Bundle>>
decodeBundles(const std::vector<uint64_t> &words);

//===----------------------------------------------------------------------===//
// Text syntax, shared by the assembly listing and the tpu_isa MLIR ops:
//   s.addi s3, s1, -8      v.ld v2, s4, 16, s5, 0xff      br.lt s1, s2, b12
// Registers take their file's prefix (sN, vN), bundle targets bN, masks
// print in hex, everything else as a decimal integer.
//===----------------------------------------------------------------------===//

std::string formatOperand(OperandKind kind, int64_t value);
/// Parses one operand of `kind`; fails if the text is not of that kind or
/// out of range.
absl::StatusOr<int64_t> parseOperand(OperandKind kind, std::string_view text);
/// `mnemonic op, op, ...`
std::string formatInstruction(const Instruction &inst);
/// The inverse of formatInstruction.
absl::StatusOr<Instruction> parseInstruction(std::string_view text);

} // namespace tpu::isa

#endif // TPU_ISA_ISA_H
