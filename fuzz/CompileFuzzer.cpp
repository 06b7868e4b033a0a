//===- CompileFuzzer.cpp - MLIR text through tpu-compile ------------------===//
//
// Any text either fails to parse, or fails to compile with diagnostics, or
// compiles to a program that verifies, encodes to a binary and loads back
// unchanged. A crash, or a failure without a diagnostic, is a finding. The
// chip and precision come from the input's last byte, so mutations explore
// them too.
//
//===----------------------------------------------------------------------===//

#include "CompileSupport.h"

#include "tpu/ISA/Binary.h"

#include <cstdlib>
#include <string>

using namespace tpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  CompileOptions options;
  uint8_t knobs = size ? data[size - 1] : 0;
  options.chip = ChipKind(knobs % kNumChips);
  options.defaultPrecision = Precision((knobs / 4) % 3);
  options.split = (knobs & 0x80) ? Rounding::Truncate : Rounding::NearestEven;
  std::string diagnostics;
  std::optional<isa::Program> program =
      fuzz::compile(text, options, diagnostics);
  if (!program) {
    if (diagnostics.empty())
      std::abort(); // a failure must say why
    return 0;
  }
  std::vector<uint8_t> bytes = isa::writeBinary(*program);
  absl::StatusOr<isa::Program> loaded = isa::readBinary(bytes);
  if (!loaded.ok() || !(*loaded == *program))
    std::abort(); // what compiles loads back as itself
  return 0;
}
