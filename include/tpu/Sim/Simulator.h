//===- Simulator.h - Bit-exact, cycle-timed TPU core simulator --*- C++ -*-===//
//
// Runs a Program on one TensorCore. The step loop issues one bundle per
// cycle, in order; a scoreboard holds a bundle back until its registers are
// ready, its units have passed their issue intervals and the MXUs and the
// DMA engine can take it (the reasons are counted as stall causes). Each
// instruction's latency, unit and operand kinds come from ISA.def, and its
// effect is computed by its handler (lib/Sim/Semantics/) when it issues, so
// the functional result and the timing come from one pass over the same
// instruction stream. docs/Simulator.md is the model in prose.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_SIMULATOR_H
#define TPU_SIM_SIMULATOR_H

#include "tpu/ISA/Program.h"
#include "tpu/Sim/Memory.h"
#include "tpu/Sim/State.h"
#include "tpu/Sim/Stats.h"
#include "tpu/Sim/Trace.h"

#include "absl/status/statusor.h"

#include <memory>
#include <optional>
#include <string>

namespace tpu::sim {

/// Timing the DMA engine adds to its instructions' latencies
/// (docs/Simulator.md, "Timing"); the MXUs' is in tpu/Support/Chip.h.
inline constexpr uint64_t kDmaLatencyCycles = 100;
inline constexpr uint64_t kTakenBranchPenalty = 1;

/// TPU_TRAP_KIND(Enum, name) for every way a run can stop early.
#define TPU_TRAP_KINDS(X)                                                      \
  X(OutOfBounds, "out-of-bounds access")                                       \
  X(Misaligned, "misaligned access")                                           \
  X(UninitializedRead, "uninitialized read")                                   \
  X(DmaRace, "DMA race")                                                       \
  X(WeightLoadRace, "weight-load race")                                        \
  X(DmaDeadlock, "DMA deadlock")                                               \
  X(DmaOutstanding, "DMA outstanding at halt")                                 \
  X(CycleLimit, "cycle limit")                                                 \
  X(PcOutOfRange, "pc out of range")

struct Trap {
  enum class Kind {
#define TPU_TRAP_KIND_ENUM(ENUM, NAME) ENUM,
    TPU_TRAP_KINDS(TPU_TRAP_KIND_ENUM)
#undef TPU_TRAP_KIND_ENUM
  };
  Kind kind;
  uint64_t cycle = 0;
  int64_t pc = 0;
  std::string bundle; // the bundle's text
  std::string reason;

  static const char *getKindName(Kind kind);
  /// "trap at cycle C, pc bN (bundle text): kind: reason"
  std::string describe() const;
};

/// How much of the chip's HBM bandwidth the simulated core gets
/// (docs/Simulator.md, "The machine"): its share with both cores busy,
/// half the chip's (on v2 and v3 each core has its own stacks; v4's two
/// cores share the chip's), or the whole chip's (--hbm-bandwidth=chip).
enum class HbmShare { Core, Chip };
const char *getHbmShareName(HbmShare share);
/// The simulated core's HBM bytes per cycle under `share`.
double getHbmBytesPerCycle(const ChipInfo &chip, HbmShare share);

struct SimulatorOptions {
  uint64_t maxCycles = 1000000000;
  bool trace = false;
  /// What reads of never-written HBM, VMEM and vector registers do
  /// (--poison-uninitialized).
  UninitializedReads uninitialized = UninitializedReads::Zero;
  HbmShare hbmShare = HbmShare::Core;
  /// Host threads the run uses: 1, or 2 to run most of the MXUs' passes
  /// on a second thread (the results and every statistic but the host's
  /// are the same bits; docs/Simulator.md, "Speed").
  unsigned hostThreads = 1;
  /// Fill Stats::profile: cycles, stalls and busy units per source op
  /// (tpu-sim --profile).
  bool profile = false;
};

class Simulator {
public:
  /// A simulator with `program`'s constants in HBM. Fails if the program
  /// does not verify (isa::verifyProgram): the step loop relies on it.
  static absl::StatusOr<std::unique_ptr<Simulator>>
  create(const isa::Program &program, SimulatorOptions options);
  ~Simulator();

  Memory &getMemory() { return memory; }
  ArchState &getState() { return state; }

  /// Runs until halt or a trap. Returns the trap, if any.
  std::optional<Trap> run();

  const Stats &getStats() const { return stats; }
  const Trace *getTrace() const { return trace.get(); }

private:
  Simulator(const isa::Program &program, SimulatorOptions options);

  const isa::Program &program;
  const ChipInfo &chip;
  SimulatorOptions options;
  Memory memory;
  ArchState state;
  Stats stats;
  std::unique_ptr<Trace> trace;
};

} // namespace tpu::sim

#endif // TPU_SIM_SIMULATOR_H
