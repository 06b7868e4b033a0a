//===- AsmFuzzer.cpp - Fuzz the instruction syntax ------------------------===//
//
// Any text either fails to parse as an instruction or parses to one that
// prints back to text which parses to the same instruction and encodes and
// decodes unchanged.
//
//===----------------------------------------------------------------------===//

#include "tpu/ISA/ISA.h"

#include <cstdlib>
#include <string>

using namespace tpu::isa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<Instruction> inst = parseInstruction(text);
  if (!inst.ok())
    return 0;
  if (!verifyInstruction(*inst).ok())
    std::abort();
  absl::StatusOr<Instruction> again =
      parseInstruction(formatInstruction(*inst));
  if (!again.ok() || !(*again == *inst))
    std::abort();
  absl::StatusOr<DecodedWord> decoded = decode(encode(*inst, true));
  if (!decoded.ok() || !(decoded->instruction == *inst))
    std::abort();
  return 0;
}
