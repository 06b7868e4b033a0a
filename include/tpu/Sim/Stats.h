//===- Stats.h - What a simulation reports ----------------------*- C++ -*-===//

#ifndef TPU_SIM_STATS_H
#define TPU_SIM_STATS_H

#include "tpu/Support/Chip.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tpu::sim {

/// X(Enum, name) for every reason a bundle can wait; docs/Simulator.md
/// defines each. All are reported, even at zero.
#define TPU_STALL_CAUSES(X)                                                    \
  X(ScalarDependency, "scalar-dependency")                                     \
  X(VectorDependency, "vector-dependency")                                     \
  X(UnitBusy, "unit-busy")                                                     \
  X(MxuBusy, "mxu-busy")                                                       \
  X(MxuWeights, "mxu-weights")                                                 \
  X(MxuResult, "mxu-result")                                                   \
  X(DmaWait, "dma-wait")                                                       \
  X(DmaQueue, "dma-queue")                                                     \
  X(Branch, "branch")

enum class StallCause : uint8_t {
#define TPU_STALL_CAUSE_ENUM(ENUM, NAME) ENUM,
  TPU_STALL_CAUSES(TPU_STALL_CAUSE_ENUM)
#undef TPU_STALL_CAUSE_ENUM
};
inline constexpr unsigned kNumStallCauses = 0
#define TPU_STALL_CAUSE_COUNT(ENUM, NAME) +1
    TPU_STALL_CAUSES(TPU_STALL_CAUSE_COUNT)
#undef TPU_STALL_CAUSE_COUNT
    ;
const char *getStallCauseName(StallCause cause);

/// The profile's name for instructions that have no source op.
inline constexpr const char *kNoSourceOp = "(no source op)";

/// What the instructions of one source op cost in a run (tpu-sim
/// --profile; docs/Simulator.md, "Profile"). Its cycles are those of the
/// bundles whose first instruction it owns, the stalls its instructions
/// waited and the taken-branch penalties of its branches: over every
/// source op they add up to the run's cycles.
struct SourceProfile {
  /// The op's name and file position (isa::SourceLocation::describe), or
  /// kNoSourceOp.
  std::string source;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  std::array<uint64_t, kNumStallCauses> stallCycles{};
  /// Busy cycles its instructions gave the MXUs (their arrays), the VPU
  /// and the DMA engine, as Stats::unitBusyCycles counts them.
  uint64_t mxuBusy = 0, vpuBusy = 0, dmaBusy = 0;

  uint64_t totalStallCycles() const;
};

/// Counters of one run. docs/Simulator.md defines each.
struct Stats {
  std::string chip;
  uint64_t clockHz = 0;
  unsigned numMxus = 0;

  uint64_t cycles = 0;
  uint64_t bundles = 0;      // bundles issued (dynamic)
  uint64_t instructions = 0; // instructions issued (dynamic)
  /// Instructions issued by mnemonic (only those that issued).
  std::map<std::string, uint64_t> instructionMix;
  uint64_t staticBundles = 0;
  /// The binary's claims (the compiler's counts): MXU MACs the program's
  /// matmuls need, with and without their precision's passes.
  uint64_t mxuMacsUseful = 0;
  uint64_t mxuF32MacsUseful = 0;
  uint64_t mxuMacsIssued = 0;
  uint64_t hbmBytesRead = 0;
  uint64_t hbmBytesWritten = 0;
  /// The core's HBM bandwidth, and whose it is: "core" (its share, half
  /// the chip's) or "chip" (all of it).
  std::string hbmShare;
  double hbmPeakBytesPerSecond = 0;
  uint64_t vmemPeakBytes = 0;
  uint64_t hbmResidentBytes = 0;
  double hostSeconds = 0;
  unsigned hostThreads = 1;
  /// Stall cycles by cause; every cause is listed, zero or not.
  std::map<std::string, uint64_t> stallCycles;
  /// Busy cycles by unit: scalar, vpu, mxuN, mxuN_weight_load, dma.
  std::map<std::string, uint64_t> unitBusyCycles;

  /// Per source op, most cycles first; empty unless asked for
  /// (SimulatorOptions::profile).
  std::vector<SourceProfile> profile;

  double timeMicroseconds() const { return double(cycles) * 1e6 / clockHz; }
  /// Why the binary's useful-MAC claims cannot be true of this run (more
  /// useful MACs than the MXUs issued, or more f32 MACs than useful ones),
  /// or empty. The figures below are withheld (nullopt) when it is not.
  std::string checkUsefulMacs() const;
  /// Useful MACs over what the MXUs could do in the run's cycles: the
  /// pass-level utilization (a HIGHEST matmul's six passes all count).
  std::optional<double> mxuUtilization() const;
  /// The same for f32-equivalent work: each matmul's MACs counted once.
  std::optional<double> mxuUtilizationF32() const;
  /// Useful MACs over issued MACs.
  std::optional<double> paddingEfficiency() const;
  double hbmBandwidthBytesPerSecond() const;
  double hostCyclesPerSecond() const;

  /// The --stats file: one JSON object, keys in a fixed order, so the same
  /// run gives the same bytes (host_seconds and host speed aside); the
  /// profile last, when there is one.
  std::string toJson() const;
  /// The table tpu-sim prints on stderr.
  std::string toTable() const;
  /// The profile as the table tpu-sim --profile prints.
  std::string profileTable() const;
};

} // namespace tpu::sim

#endif // TPU_SIM_STATS_H
