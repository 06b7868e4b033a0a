//===- ISA.h - The TPU core's instruction set -------------------*- C++ -*-===//
//
// Instruction descriptions generated from ISA.def, their 64-bit encoding, the
// VLIW bundle rules and the textual operand syntax shared by the assembler
// listing and the ISA-level MLIR. Depends only on the C++ standard library.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_ISA_ISA_H
#define TPU_ISA_ISA_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tpu::isa {

enum class Opcode : uint8_t {
#define TPU_INST(ENUM, MNEMONIC, OPCODE, ...) ENUM = OPCODE,
#include "tpu/ISA/ISA.def"
};

/// The VLIW slot class an instruction issues in. DESIGN.md 3: 2 scalar slots,
/// 4 vector slots of which 2 may be loads/stores, a push and a pop slot for
/// the MXUs, and one misc slot (DMA, sync).
enum class Slot : uint8_t {
  Scalar,
  Vector,
  VectorMem,
  MatrixPush,
  MatrixPop,
  Misc
};

/// The functional unit an instruction occupies, for timing and statistics.
enum class Unit : uint8_t {
  Scalar,
  VectorLoad,
  VectorStore,
  Vpu,
  Xlu,
  Mxu,
  Dma,
  Sync
};

enum class OperandKind : uint8_t {
  None = 0,
  SDst,
  SSrc,
  VDst,
  VSrc,
  Mxu,
  Sem,
  Imm16,
  Imm32,
  Mask,
  Target,
  Flag,
};

inline constexpr unsigned kMaxOperands = 5;
inline constexpr unsigned kNumSemaphores = 8;
/// Result-buffer slots per MXU, each 8 x 128 f32 (4 KiB).
inline constexpr unsigned kMxuResultSlots = 128;

/// One row of ISA.def.
struct InstInfo {
  Opcode opcode;
  const char *mnemonic;
  Slot slot;
  Unit unit;
  unsigned latency;
  std::array<OperandKind, kMaxOperands> operands;

  unsigned getNumOperands() const;
};

/// Every instruction, in table order.
const std::vector<InstInfo> &allInstructions();
/// The row for `opcode`, or null if the value is not an opcode.
const InstInfo *lookupOpcode(unsigned opcode);
const InstInfo &getInfo(Opcode opcode);
/// The row whose mnemonic is `mnemonic`, or null.
const InstInfo *lookupMnemonic(std::string_view mnemonic);

/// Bits an operand kind takes in the encoding.
unsigned getOperandBits(OperandKind kind);
/// The range of values an operand of this kind may hold.
int64_t getOperandMin(OperandKind kind);
int64_t getOperandMax(OperandKind kind);
/// Names as ISA.def (and docs/ISA.md) spell them: "VectorMem", "Vpu", "SDst".
const char *getSlotName(Slot slot);
const char *getUnitName(Unit unit);
const char *getOperandKindName(OperandKind kind);

/// A decoded instruction: an opcode and its operand values (register
/// numbers, immediates) in table order.
struct Instruction {
  Opcode opcode = Opcode::Nop;
  std::array<int64_t, kMaxOperands> operands = {};

  const InstInfo &info() const { return getInfo(opcode); }
  bool operator==(const Instruction &other) const {
    return opcode == other.opcode && operands == other.operands;
  }
};

/// Instructions that issue together in one cycle.
struct Bundle {
  std::vector<Instruction> instructions;
  bool operator==(const Bundle &other) const {
    return instructions == other.instructions;
  }
};

/// Checks operand count and ranges against the table. Returns an error
/// message, or nothing when the instruction is well formed.
std::optional<std::string> verifyInstruction(const Instruction &inst);

/// Checks a bundle against the slot rules (and that it is not empty, and has
/// at most one control-flow instruction). Returns an error message or
/// nothing.
std::optional<std::string> verifyBundle(const Bundle &bundle);

/// True for branches and jumps.
bool isControlFlow(Opcode opcode);

/// The 64-bit encoding. Bit 63 marks the last instruction of a bundle.
inline constexpr uint64_t kEndOfBundleBit = 1ull << 63;
uint64_t encode(const Instruction &inst, bool endOfBundle);

/// Decodes one word. Fails (with a message) on an unknown opcode or non-zero
/// bits outside the instruction's fields.
struct DecodeResult {
  std::optional<Instruction> instruction;
  bool endOfBundle = false;
  std::string error;
};
DecodeResult decode(uint64_t word);

/// Encodes bundles to words, and back. decodeBundles fails on a bad word, a
/// stream that ends mid-bundle or a bundle that breaks the slot rules.
std::vector<uint64_t> encodeBundles(const std::vector<Bundle> &bundles);
std::optional<std::vector<Bundle>>
decodeBundles(const std::vector<uint64_t> &words, std::string &error);

//===----------------------------------------------------------------------===//
// Text syntax, shared by the assembly listing and the tpu_isa MLIR ops:
//   s.addi s3, s1, -8      v.ld v2, s4, 16, s5, 0xff      br.lt s1, s2, @12
// Scalar registers sN, vector registers vN, bundle targets @N, everything
// else an integer (masks print in hex).
//===----------------------------------------------------------------------===//

std::string formatOperand(OperandKind kind, int64_t value);
/// Parses one operand of `kind`; returns nothing (with `error` set) if the
/// text is not of that kind or out of range.
std::optional<int64_t> parseOperand(OperandKind kind, std::string_view text,
                                    std::string &error);
/// `mnemonic op, op, ...`
std::string formatInstruction(const Instruction &inst);
/// The inverse of formatInstruction; nothing (with `error` set) on bad text.
std::optional<Instruction> parseInstruction(std::string_view text,
                                            std::string &error);

} // namespace tpu::isa

#endif // TPU_ISA_ISA_H
