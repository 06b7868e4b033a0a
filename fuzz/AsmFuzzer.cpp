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
  std::string error;
  std::optional<Instruction> inst = parseInstruction(text, error);
  if (!inst)
    return 0;
  if (verifyInstruction(*inst))
    std::abort();
  std::optional<Instruction> again =
      parseInstruction(formatInstruction(*inst), error);
  if (!again || !(*again == *inst))
    std::abort();
  DecodeResult decoded = decode(encode(*inst, true));
  if (!decoded.instruction || !(*decoded.instruction == *inst))
    std::abort();
  return 0;
}
