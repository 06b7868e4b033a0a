//===- Core.h - What an instruction's semantics can see and do --*- C++ -*-===//
//
// The context every handler in Semantics/ runs in: the architectural state
// as the current bundle found it, the bundle's pending register writes,
// memory, the MXUs' and the DMA engine's timing, the statistics, and the
// way to trap. Simulator.cpp's step loop owns one per run. Internal to the
// simulator library.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_SIM_CORE_H
#define TPU_LIB_SIM_CORE_H

#include "tpu/Sim/Simulator.h"

#include <array>
#include <bitset>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

namespace tpu::sim {

class MxuOffload;

/// When each MXU's parts can next be used.
struct MxuTiming {
  uint64_t weightPortFree = 0, weightsReady = 0, inputFree = 0;
  /// The VMEM rows the last weight load shifts in until weightsReady:
  /// latchGroups groups of 8 rows, latchStride apart from latchBase.
  int64_t latchBase = 0, latchStride = 0;
  unsigned latchGroups = 0;
  /// When each result slot's last push has landed (the chip's slots).
  std::vector<uint64_t> slotReady;
};

/// A DMA that has been issued and not yet completed: what it touches, for
/// the race checks. A dma.ld reads HBM tiles and writes VMEM rows, a dma.st
/// the other way round.
struct InFlightDma {
  const isa::Instruction *inst;
  int64_t pc;
  bool load;
  /// VMEM rows [vmemFirst, vmemEnd).
  int64_t vmemFirst, vmemEnd;
  /// HBM tiles hbmFirst + i * hbmStride for i in [0, count).
  int64_t hbmFirst, hbmStride, count;
  uint64_t completion;

  bool writesVmem() const { return load; }
  bool writesHbm() const { return !load; }
  /// Whether HBM tile `tile` is one this DMA moves.
  bool touchesHbmTile(int64_t tile) const {
    if (count <= 0)
      return false;
    if (hbmStride == 0)
      return tile == hbmFirst;
    int64_t offset = tile - hbmFirst;
    return offset % hbmStride == 0 && offset / hbmStride >= 0 &&
           offset / hbmStride < count;
  }
};

/// The DMA engine: one transfer at a time at the chip's HBM bandwidth.
struct DmaEngine {
  double bytesPerCycle = 1;
  uint64_t free = 0;
  /// Ordered by completion.
  std::vector<InFlightDma> inFlight;
  /// Completion cycles not yet counted on each semaphore, oldest first.
  std::array<std::vector<uint64_t>, isa::kNumSemaphores> pending;
  /// The bundle of the last DMA issued on each semaphore, for halt's check.
  std::array<int64_t, isa::kNumSemaphores> lastIssuedAt{};
};

/// Units whose busy cycles are counted: scalar, vpu, dma, then for each MXU
/// its array and its weight loader. Counted in plain integers on the hot
/// path; named into Stats once, at the end of the run.
enum BusyUnit : unsigned { kScalarBusy, kVpuBusy, kDmaBusy, kFirstMxuBusy };
inline unsigned mxuBusyUnit(int64_t mxu) {
  return kFirstMxuBusy + 2 * unsigned(mxu);
}
inline unsigned mxuWeightsBusyUnit(int64_t mxu) { return mxuBusyUnit(mxu) + 1; }

class Core {
public:
  Core(const isa::Program &program, const ChipInfo &chip, ArchState &state,
       Memory &memory, Stats &stats, Trace *trace, HbmShare hbmShare);

  const isa::Program &program;
  const ChipInfo &chip;
  ArchState &state;
  Memory &memory;
  Stats &stats;
  Trace *trace;
  /// The MXUs whose passes run on a second host thread, or null
  /// (SimulatorOptions::hostThreads).
  MxuOffload *offload = nullptr;

  /// The cycle the current bundle issues in.
  uint64_t now = 0;

  //===--------------------------------------------------------------------===//
  // Registers: reads see the state before the bundle; writes land when it
  // retires.
  //===--------------------------------------------------------------------===//

  int32_t sreg(int64_t reg) const {
    return reg == 0 ? 0 : int32_t(state.sregs[reg]);
  }
  /// The vector registers written so far (tracked under
  /// UninitializedReads::Trap: the step loop checks each bundle's reads).
  std::bitset<isa::kNumVectorRegisters> vregWritten;
  const VReg &vreg(int64_t reg) const { return state.vregs[reg]; }
  void writeScalar(int64_t reg, uint32_t value) {
    if (reg != 0)
      scalarWrites.emplace_back(reg, value);
  }
  /// The register's new value, to be filled in whole: every instruction
  /// that writes a vreg writes all its words (v.ld copies the old value
  /// into the sublanes its mask skips), so the buffer is not cleared.
  VReg &writeVector(int64_t reg) {
    if (vectorWriteCount == vectorWrites.size())
      vectorWrites.emplace_back();
    auto &[target, value] = vectorWrites[vectorWriteCount++];
    target = reg;
    return value;
  }
  /// Applies the bundle's register writes.
  void retireWrites();

  //===--------------------------------------------------------------------===//
  // Control
  //===--------------------------------------------------------------------===//

  void branchTo(int64_t target) {
    nextPc = target;
    branchTaken = true;
  }
  void halt() { halted = true; }

  int64_t nextPc = 0;
  bool branchTaken = false;
  bool halted = false;

  //===--------------------------------------------------------------------===//
  // Traps: each returns false, for `return core.trap(...)` in a handler.
  //===--------------------------------------------------------------------===//

  bool trap(Trap::Kind kind, std::string reason);
  /// Traps with `status`'s message, prefixed by the instruction's mnemonic,
  /// unless it is OK: a memory error (Memory.h) is an out-of-bounds access
  /// (OutOfRange) or an uninitialized read (FailedPrecondition).
  bool check(const absl::Status &status, const isa::Instruction &inst);
  std::optional<Trap> takeTrap() { return std::move(trapInfo); }

  //===--------------------------------------------------------------------===//
  // Timing beyond registers and units
  //===--------------------------------------------------------------------===//

  std::vector<MxuTiming> mxuTiming;
  DmaEngine dma;

  /// `name` kept busy unit `unit` over cycles [begin, end), for the
  /// instruction whose source is currentSource.
  void busy(unsigned unit, const char *name, uint64_t begin, uint64_t end) {
    unitBusy[unit] += end - begin;
    sourceBusy[currentSource][unit] += end - begin;
    if (trace)
      trace->add(busyUnitNames[unit], name, begin, end, currentSource);
  }
  std::vector<std::string> busyUnitNames;
  std::vector<uint64_t> unitBusy;

  //===--------------------------------------------------------------------===//
  // The profile (tpu-sim --profile): counters per source op, indexed by an
  // instruction's source, instructions without one at the end.
  //===--------------------------------------------------------------------===//

  /// The source of the instruction being executed.
  uint32_t currentSource = 0;
  /// Busy cycles per source and BusyUnit.
  std::vector<std::vector<uint64_t>> sourceBusy;

private:
  std::vector<std::pair<int64_t, uint32_t>> scalarWrites;
  // A deque: references writeVector hands out stay valid as the bundle adds
  // more. Its first vectorWriteCount entries are this bundle's; they are
  // kept for the next bundles, so a write allocates nothing.
  std::deque<std::pair<int64_t, VReg>> vectorWrites;
  size_t vectorWriteCount = 0;
  std::optional<Trap> trapInfo;
};

} // namespace tpu::sim

#endif // TPU_LIB_SIM_CORE_H
