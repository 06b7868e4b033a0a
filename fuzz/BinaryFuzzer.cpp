//===- BinaryFuzzer.cpp - Fuzz the .tpu loader and the simulator ----------===//
//
// The first byte picks a mode. Mode 0 hands the rest to the loader as a
// file. Otherwise the rest is a payload that gets a valid header (the mode
// byte picks the chip) and checksum, so mutations reach the payload parser, the
// program verifier and, for programs that load, the simulator (run for a
// bounded number of cycles). Loading must never crash, a loaded program must
// re-encode to the same bytes, and running it must end in a halt or a trap.
//
//===----------------------------------------------------------------------===//

#include "tpu/ISA/Binary.h"
#include "tpu/Sim/Simulator.h"

#include <cstdlib>
#include <cstring>

using namespace tpu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  std::vector<uint8_t> bytes;
  if (data[0] == 0) {
    bytes.assign(data + 1, data + size);
  } else {
    // The mode byte doubles as the chip: 1 = v2, 2 = v3, anything else v4.
    bytes.assign(isa::kBinaryMagic, isa::kBinaryMagic + 8);
    uint32_t version = isa::kBinaryVersion;
    uint32_t chip = data[0] == 1 ? 0 : data[0] == 2 ? 1 : 2;
    uint64_t payloadBytes = size - 1;
    bytes.resize(isa::kBinaryHeaderBytes);
    std::memcpy(&bytes[8], &version, 4);
    std::memcpy(&bytes[12], &chip, 4);
    std::memcpy(&bytes[16], &payloadBytes, 8);
    bytes.insert(bytes.end(), data + 1, data + size);
    uint32_t checksum = isa::computeBinaryChecksum(bytes);
    std::memcpy(&bytes[isa::kBinaryChecksumOffset], &checksum, 4);
  }
  absl::StatusOr<isa::Program> program = isa::readBinary(bytes);
  if (!program.ok()) {
    if (program.status().message().empty())
      std::abort(); // a failure must say why
    return 0;
  }
  // Loading is exact: what loads re-encodes to itself.
  if (isa::writeBinary(*program) != bytes)
    std::abort();
  sim::SimulatorOptions options;
  options.maxCycles = 20000;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> simulator =
      sim::Simulator::create(*program, options);
  if (!simulator.ok())
    std::abort(); // what loads verifies, and so can run
  (*simulator)->run();
  return 0;
}
