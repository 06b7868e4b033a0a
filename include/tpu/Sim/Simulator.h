//===- Simulator.h - Bit-exact, cycle-timed TPU core simulator --*- C++ -*-===//
//
// Runs a Program on one TensorCore. The step loop issues one bundle per
// cycle, in order; a scoreboard holds a bundle back until its operands are
// ready and its units are free (the reasons are counted as stall causes).
// Every instruction's latency and unit come from ISA.def, and its effect is
// computed when it issues, so the functional result and the timing come
// from one pass over the same instruction stream. docs/Simulator.md is the
// model in prose.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_SIMULATOR_H
#define TPU_SIM_SIMULATOR_H

#include "tpu/ISA/Program.h"
#include "tpu/Sim/Memory.h"
#include "tpu/Sim/State.h"
#include "tpu/Sim/Stats.h"
#include "tpu/Sim/Trace.h"

#include <memory>
#include <optional>
#include <string>

namespace tpu::sim {

/// Latencies that are not an instruction's own.
inline constexpr uint64_t kMxuWeightLoadCycles = kMxuDim; // one row per cycle
inline constexpr uint64_t kMxuPushCycles = kSublanes;     // one row per cycle
/// Fill and drain of the systolic array after the last row enters: R + C - 2.
inline constexpr uint64_t kMxuPipelineCycles = 2 * kMxuDim - 2;
inline constexpr uint64_t kDmaLatencyCycles = 100;
inline constexpr unsigned kMaxOutstandingDmas = 32;
inline constexpr uint64_t kTakenBranchPenalty = 1;

struct Trap {
  enum class Kind {
    OutOfBounds,
    Misaligned,
    DmaRace,
    DmaDeadlock,
    CycleLimit,
    PcOutOfRange,
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

struct SimulatorOptions {
  uint64_t maxCycles = 1000000000;
  bool trace = false;
};

class Simulator {
public:
  Simulator(const isa::Program &program, SimulatorOptions options);
  ~Simulator();

  Memory &getMemory() { return memory; }
  ArchState &getState() { return state; }

  /// Runs until halt or a trap. Returns the trap, if any.
  std::optional<Trap> run();

  const Stats &getStats() const { return stats; }
  const Trace *getTrace() const { return trace.get(); }

private:
  class Impl;
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
