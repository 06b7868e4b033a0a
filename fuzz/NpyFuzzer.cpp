//===- NpyFuzzer.cpp - Fuzz the .npy reader -------------------------------===//
//
// Parsing must never crash; what parses must serialize and parse back to
// the same array.
//
//===----------------------------------------------------------------------===//

#include "tpu/Npy/Npy.h"

#include <cstdlib>

using namespace tpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  absl::StatusOr<NpyArray> array = parseNpy(bytes, "fuzz.npy");
  if (!array.ok())
    return 0;
  absl::StatusOr<NpyArray> again = parseNpy(serializeNpy(*array), "again.npy");
  if (!again.ok() || again->shape != array->shape ||
      again->words != array->words || again->elementType != array->elementType)
    std::abort();
  return 0;
}
