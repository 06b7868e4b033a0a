//===- ProgramFuzzer.cpp - Valid random programs in the simulator ---------===//
//
// Structure-aware: the input is read as decisions (ByteReader) that build a
// program every bundle of which passes the verifier: random instructions of
// every opcode with random registers, immediates (biased to the values
// that matter: 0, 8, 128, the ends of a range), branch targets, MXUs and
// semaphores, random starting registers and VMEM, any chip and any
// --poison-uninitialized mode, run for at most 20000 cycles. The run must end
// in a halt or a trap; a host fault (under ASan and UBSan in the libFuzzer
// build) is a finding.
//
// With TPU_FUZZ_COVERAGE set, the target counts the opcodes that issued and
// the trap kinds that ended runs, and prints both at exit: the checked-in
// corpus must reach all of them (test/fuzz/program.test).
//
//===----------------------------------------------------------------------===//

#include "ByteReader.h"

#include "tpu/ISA/Program.h"
#include "tpu/Sim/Simulator.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

using namespace tpu;
using namespace tpu::isa;

namespace {

/// Operand values worth trying besides random ones: zero, tile and lane
/// boundaries, and the edges of VMEM, SMEM and the result slots.
constexpr int64_t kInterestingValues[] = {
    0, 1, 2, 7, 8, 16, 127, 128, 255, 256, 4095, 4096, 32760, 32767, -1, -8};

int64_t pickOperand(fuzz::ByteReader &in, OperandKind kind, ChipKind chip,
                    size_t numBundles) {
  OperandKindInfo info = getOperandKindInfo(kind);
  switch (kind) {
  case OperandKind::Mxu:
    return in.below(getChipInfo(chip).mxusPerCore);
  case OperandKind::Target:
    return in.below(uint32_t(numBundles));
  default:
    break;
  }
  if (info.isRegister()) {
    int64_t count = (info.max() - info.min()) / info.group + 1;
    return info.min() + int64_t(in.below(uint32_t(count))) * info.group;
  }
  int64_t value = in.byte() % 4 == 0 ? int64_t(in.pick(kInterestingValues))
                                     : int64_t(int32_t(in.word()));
  // Into the field's range, keeping small values as they are.
  int64_t span = info.max() - info.min() + 1;
  if (value < info.min() || value > info.max())
    value = info.min() + ((value - info.min()) % span + span) % span;
  return value;
}

Program generate(fuzz::ByteReader &in) {
  Program program;
  program.chip = ChipKind(in.below(kNumChips));
  size_t numBundles = 1 + in.below(48);
  for (size_t b = 0; b < numBundles; ++b) {
    Bundle bundle;
    unsigned tries = 1 + in.below(4);
    for (unsigned t = 0; t < tries; ++t) {
      Instruction inst;
      // An opcode from a byte: the first opcode at or above it, so that a
      // new row in ISA.def changes the meaning of the bytes just below its
      // opcode only, and the corpus keeps its coverage.
      unsigned code = in.byte() & 0x7F;
      while (!lookupOpcode(code))
        code = (code + 1) & 0x7F;
      inst.opcode = lookupOpcode(code)->opcode;
      const InstInfo &info = inst.info();
      for (unsigned i = 0; i < info.getNumOperands(); ++i)
        inst.operands[i] =
            pickOperand(in, info.operands[i], program.chip, numBundles);
      bundle.instructions.push_back(inst);
      if (!verifyBundleInProgram(bundle, program.chip, numBundles).ok())
        bundle.instructions.pop_back();
    }
    if (bundle.instructions.empty())
      bundle.instructions.push_back(Instruction{Opcode::Nop, {}});
    program.bundles.push_back(bundle);
  }
  // Most programs end; the rest fall off the end or loop.
  if (in.below(4) != 0)
    program.bundles.back() = Bundle{{Instruction{Opcode::Halt, {}}}};
  return program;
}

struct Coverage {
  /// Copied at the start: the ISA's tables may be gone when this reports,
  /// at exit.
  std::vector<std::string> mnemonics;
  std::set<std::string> opcodes;
  std::set<std::string> traps;
  Coverage() {
    for (const InstInfo &info : allInstructions())
      mnemonics.push_back(info.mnemonic);
  }
  ~Coverage() {
    std::printf("opcodes issued: %zu of %zu\n", opcodes.size(),
                mnemonics.size());
    for (const std::string &mnemonic : mnemonics)
      if (!opcodes.count(mnemonic))
        std::printf("  never issued: %s\n", mnemonic.c_str());
    size_t kinds = 0;
#define TPU_COUNT_TRAP_KIND(ENUM, NAME) ++kinds;
    TPU_TRAP_KINDS(TPU_COUNT_TRAP_KIND)
#undef TPU_COUNT_TRAP_KIND
    std::printf("trap kinds reached: %zu of %zu\n", traps.size(), kinds);
#define TPU_PRINT_MISSING_TRAP(ENUM, NAME)                                     \
  if (!traps.count(NAME))                                                      \
    std::printf("  never reached: %s\n", NAME);
    TPU_TRAP_KINDS(TPU_PRINT_MISSING_TRAP)
#undef TPU_PRINT_MISSING_TRAP
  }
};

Coverage *getCoverage() {
  static Coverage *coverage =
      std::getenv("TPU_FUZZ_COVERAGE") ? new Coverage : nullptr;
  return coverage;
}

/// Prints the coverage when the process ends.
struct CoverageReporter {
  ~CoverageReporter() { delete getCoverage(); }
} reporter;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::ByteReader in(data, size);
  sim::SimulatorOptions options;
  options.maxCycles = 20000;
  options.uninitialized = sim::UninitializedReads(in.below(3));
  options.trace = in.below(8) == 0;
  Program program = generate(in);
  if (!verifyProgram(program).ok())
    std::abort(); // every bundle was checked as it was built
  absl::StatusOr<std::unique_ptr<sim::Simulator>> simulator =
      sim::Simulator::create(program, options);
  if (!simulator.ok())
    std::abort();
  // Starting state from the rest of the input: registers, a few VMEM rows
  // and HBM tiles, so values (NaNs, huge addresses) vary too.
  sim::ArchState &state = (*simulator)->getState();
  for (unsigned r = 1; r < kNumScalarRegisters && !in.exhausted(); ++r)
    if (in.below(2))
      state.sregs[r] =
          uint32_t(pickOperand(in, OperandKind::Imm32, program.chip, 1));
  for (unsigned v = 0; v < 4 && !in.exhausted(); ++v)
    state.vregs[v].fill(in.word());
  sim::Memory &memory = (*simulator)->getMemory();
  for (unsigned t = 0; t < 4 && !in.exhausted(); ++t) {
    sim::Tile tile;
    tile.fill(in.word());
    (void)memory.writeHbmTile(in.below(64), tile.data());
  }
  std::optional<sim::Trap> trap = (*simulator)->run();
  if (Coverage *coverage = getCoverage()) {
    for (const auto &[mnemonic, count] :
         (*simulator)->getStats().instructionMix)
      coverage->opcodes.insert(mnemonic);
    if (trap)
      coverage->traps.insert(sim::Trap::getKindName(trap->kind));
  }
  if (trap && trap->reason.empty())
    std::abort(); // a trap must say why
  return 0;
}
