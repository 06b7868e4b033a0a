//===- Simulator.cpp - The step loop --------------------------------------===//
//
// Issue, execute, retire, one bundle per cycle. What an instruction does is
// its handler's business (Semantics/); what this file knows of it comes
// from ISA.def: which registers it reads and writes, its latency, its unit
// and that unit's issue interval.
//
//===----------------------------------------------------------------------===//

#include "tpu/Sim/Simulator.h"

#include "Core.h"
#include "MxuOffload.h"
#include "Semantics/Semantics.h"

#include "absl/strings/str_cat.h"

#include <chrono>
#include <system_error>

namespace tpu::sim {

using namespace tpu::isa;

const char *Trap::getKindName(Kind kind) {
  switch (kind) {
#define TPU_TRAP_KIND_NAME(ENUM, NAME)                                         \
  case Kind::ENUM:                                                             \
    return NAME;
    TPU_TRAP_KINDS(TPU_TRAP_KIND_NAME)
#undef TPU_TRAP_KIND_NAME
  }
  return "?";
}

std::string Trap::describe() const {
  std::string text =
      "trap at cycle " + std::to_string(cycle) + ", pc b" + std::to_string(pc);
  if (!bundle.empty())
    text += " (" + bundle + ")";
  return text + ": " + getKindName(kind) + ": " + reason;
}

//===----------------------------------------------------------------------===//
// Core
//===----------------------------------------------------------------------===//

const char *getHbmShareName(HbmShare share) {
  return share == HbmShare::Core ? "core" : "chip";
}

double getHbmBytesPerCycle(const ChipInfo &chip, HbmShare share) {
  double chipBytesPerCycle =
      double(chip.hbmBytesPerSecond) / double(chip.clockHz);
  return share == HbmShare::Core ? chipBytesPerCycle / chip.tensorCoresPerChip
                                 : chipBytesPerCycle;
}

Core::Core(const Program &program, const ChipInfo &chip, ArchState &state,
           Memory &memory, Stats &stats, Trace *trace, HbmShare hbmShare)
    : program(program), chip(chip), state(state), memory(memory), stats(stats),
      trace(trace), mxuTiming(chip.mxusPerCore) {
  for (MxuTiming &timing : mxuTiming)
    timing.slotReady.assign(chip.mxuResultSlots, 0);
  dma.bytesPerCycle = getHbmBytesPerCycle(chip, hbmShare);
  stats.hbmShare = getHbmShareName(hbmShare);
  stats.hbmPeakBytesPerSecond = dma.bytesPerCycle * double(chip.clockHz);
  busyUnitNames = {"scalar", "vpu", "dma"};
  for (unsigned m = 0; m < chip.mxusPerCore; ++m) {
    busyUnitNames.push_back("mxu" + std::to_string(m));
    busyUnitNames.push_back("mxu" + std::to_string(m) + ".weights");
  }
  unitBusy.assign(busyUnitNames.size(), 0);
  sourceBusy.assign(program.sourceLocations.size() + 1,
                    std::vector<uint64_t>(busyUnitNames.size(), 0));
}

void Core::retireWrites() {
  for (auto &[reg, value] : scalarWrites)
    state.sregs[reg] = value;
  for (size_t i = 0; i < vectorWriteCount; ++i)
    state.vregs[vectorWrites[i].first] = vectorWrites[i].second;
  scalarWrites.clear();
  vectorWriteCount = 0;
}

bool Core::trap(Trap::Kind kind, std::string reason) {
  Trap info;
  info.kind = kind;
  info.cycle = now;
  info.pc = state.pc;
  if (state.pc >= 0 && size_t(state.pc) < program.bundles.size()) {
    const Bundle &bundle = program.bundles[state.pc];
    for (size_t i = 0; i < bundle.instructions.size(); ++i)
      info.bundle +=
          (i ? " ; " : "") + formatInstruction(bundle.instructions[i]);
  }
  info.reason = std::move(reason);
  trapInfo = std::move(info);
  return false;
}

bool Core::check(const absl::Status &status, const Instruction &inst) {
  if (status.ok())
    return true;
  Trap::Kind kind = absl::IsFailedPrecondition(status)
                        ? Trap::Kind::UninitializedRead
                        : Trap::Kind::OutOfBounds;
  return trap(kind, absl::StrCat(inst.info().mnemonic, ": ", status.message()));
}

//===----------------------------------------------------------------------===//
// The step loop
//===----------------------------------------------------------------------===//

namespace {

/// The name of profile source `s` (DecodedInstruction::source): a source
/// location's, or kNoSourceOp for the one past them.
std::string describeSource(const Program &program, size_t s) {
  return s < program.sourceLocations.size()
             ? program.sourceLocations[s].describe()
             : kNoSourceOp;
}

/// What the step loop needs of one instruction, looked up once per run.
struct DecodedInstruction {
  const Instruction *inst;
  ExecuteFn execute;
  IssueRuleFn issueRule;
  Slot slot;
  Unit unit;
  /// Which copy of the unit: the MXU for the Mxu unit, else 0.
  unsigned unitInstance;
  /// Its source op's profile counters: its source, or one past the
  /// program's sources when it has none.
  uint32_t source;
  unsigned latency;
  unsigned issueInterval;
  /// Registers it reads or writes, in operand order (the scoreboard waits
  /// for each), and those it writes (made ready after its latency).
  std::vector<unsigned> touched, written;
  /// The vector registers it reads, by number (the uninitialized-read
  /// check).
  std::vector<unsigned> vectorReads;
};

std::vector<std::vector<DecodedInstruction>>
decodeProgram(const Program &program) {
  std::vector<std::vector<DecodedInstruction>> bundles;
  bundles.reserve(program.bundles.size());
  for (const Bundle &bundle : program.bundles) {
    std::vector<DecodedInstruction> &decoded = bundles.emplace_back();
    for (const Instruction &inst : bundle.instructions) {
      const InstInfo &info = inst.info();
      uint32_t source = inst.source == kNoSource
                            ? uint32_t(program.sourceLocations.size())
                            : inst.source;
      DecodedInstruction entry{&inst,
                               getExecuteFn(inst.opcode),
                               getIssueRuleFn(info.unit),
                               info.slot,
                               info.unit,
                               0,
                               source,
                               info.latency,
                               info.issueInterval,
                               {},
                               {},
                               {}};
      for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
        OperandKindInfo kind = getOperandKindInfo(info.operands[i]);
        if (info.operands[i] == OperandKind::Mxu)
          entry.unitInstance = unsigned(inst.operands[i]);
        if (!kind.isRegister())
          continue;
        unsigned base =
            kind.file == RegisterFile::Vector ? kNumScalarRegisters : 0;
        for (unsigned g = 0; g < kind.group; ++g) {
          unsigned reg = base + unsigned(inst.operands[i]) + g;
          entry.touched.push_back(reg);
          if (kind.access == Access::Write &&
              !(kind.file == RegisterFile::Scalar && reg == 0))
            entry.written.push_back(reg);
          if (kind.access == Access::Read && kind.file == RegisterFile::Vector)
            entry.vectorReads.push_back(reg - kNumScalarRegisters);
        }
      }
      decoded.push_back(std::move(entry));
    }
  }
  return bundles;
}

class StepLoop {
public:
  StepLoop(const Program &program, const ChipInfo &chip, ArchState &state,
           Memory &memory, Stats &stats, Trace *trace, uint64_t maxCycles,
           HbmShare hbmShare, MxuOffload *offload, bool profile)
      : core(program, chip, state, memory, stats, trace, hbmShare),
        bundles(decodeProgram(program)), maxCycles(maxCycles), profile(profile),
        sourceCounters(program.sourceLocations.size() + 1) {
    core.offload = offload;
    for (auto &free : unitFree)
      free.assign(kMaxMxus, 0);
  }

  std::optional<Trap> run();

private:
  /// The cycle `bundle` can issue in; `cause` and `culprit` say why and for
  /// which instruction it waits, if it does.
  uint64_t issueCycle(const std::vector<DecodedInstruction> &bundle,
                      std::optional<StallCause> &cause,
                      const DecodedInstruction *&culprit) const;
  /// Under UninitializedReads::Trap: traps if the bundle reads a vector
  /// register nothing has written.
  bool checkVectorReads(const std::vector<DecodedInstruction> &bundle);
  void retire(const std::vector<DecodedInstruction> &bundle);

  Core core;
  std::vector<std::vector<DecodedInstruction>> bundles;
  uint64_t maxCycles;
  /// Whether to fill Stats::profile (SimulatorOptions::profile).
  bool profile;
  /// The earliest cycle the next bundle may issue.
  uint64_t nextFetch = 0;
  /// When each register's last write becomes readable.
  std::array<uint64_t, kNumScalarRegisters + kNumVectorRegisters> regReady{};
  /// When each unit (each copy of it) takes its next instruction.
  std::array<std::vector<uint64_t>, kNumUnits> unitFree;
  std::array<uint64_t, kNumStallCauses> stalls{};
  /// Instructions issued, by opcode.
  std::array<uint64_t, 256> issuedByOpcode{};
  /// The profile's counters per source (DecodedInstruction::source).
  struct SourceCounters {
    uint64_t cycles = 0, instructions = 0;
    std::array<uint64_t, kNumStallCauses> stalls{};
  };
  std::vector<SourceCounters> sourceCounters;

  /// Stats::profile from the counters.
  void fillProfile();
};

uint64_t StepLoop::issueCycle(const std::vector<DecodedInstruction> &bundle,
                              std::optional<StallCause> &cause,
                              const DecodedInstruction *&culprit) const {
  uint64_t cycle = nextFetch;
  cause.reset();
  const DecodedInstruction *current = nullptr;
  auto need = [&](uint64_t ready, StallCause why) {
    if (ready > cycle) {
      cycle = ready;
      cause = why;
      culprit = current;
    }
  };
  for (const DecodedInstruction &inst : bundle) {
    current = &inst;
    for (unsigned reg : inst.touched)
      need(regReady[reg], reg < kNumScalarRegisters
                              ? StallCause::ScalarDependency
                              : StallCause::VectorDependency);
    need(unitFree[unsigned(inst.unit)][inst.unitInstance],
         StallCause::UnitBusy);
    StallCause why = StallCause::UnitBusy;
    uint64_t ready = inst.issueRule(core, *inst.inst, why);
    need(ready, why);
  }
  return cycle;
}

bool StepLoop::checkVectorReads(const std::vector<DecodedInstruction> &bundle) {
  for (const DecodedInstruction &inst : bundle)
    for (unsigned reg : inst.vectorReads)
      if (!core.vregWritten[reg])
        return core.trap(Trap::Kind::UninitializedRead,
                         std::string(inst.inst->info().mnemonic) + " reads v" +
                             std::to_string(reg) + " before anything wrote it");
  return true;
}

void StepLoop::retire(const std::vector<DecodedInstruction> &bundle) {
  core.retireWrites();
  // The scalar unit's and the VPU's cycle go to the first instruction that
  // used them.
  const DecodedInstruction *scalarUser = nullptr, *vectorUser = nullptr;
  for (const DecodedInstruction &inst : bundle) {
    for (unsigned reg : inst.written) {
      regReady[reg] = core.now + inst.latency;
      if (reg >= kNumScalarRegisters)
        core.vregWritten.set(reg - kNumScalarRegisters);
    }
    unitFree[unsigned(inst.unit)][inst.unitInstance] =
        core.now + inst.issueInterval;
    if (!scalarUser && inst.slot == Slot::Scalar)
      scalarUser = &inst;
    if (!vectorUser &&
        (inst.slot == Slot::Vector || inst.slot == Slot::VectorMem))
      vectorUser = &inst;
  }
  if (scalarUser) {
    core.currentSource = scalarUser->source;
    core.busy(kScalarBusy, "scalar", core.now, core.now + 1);
  }
  if (vectorUser) {
    core.currentSource = vectorUser->source;
    core.busy(kVpuBusy, "vpu", core.now, core.now + 1);
  }
}

void StepLoop::fillProfile() {
  const Program &program = core.program;
  for (size_t s = 0; s < sourceCounters.size(); ++s) {
    const SourceCounters &counters = sourceCounters[s];
    const std::vector<uint64_t> &busy = core.sourceBusy[s];
    bool busyAny = false;
    for (uint64_t cycles : busy)
      busyAny |= cycles != 0;
    if (counters.instructions == 0 && counters.cycles == 0 && !busyAny)
      continue;
    SourceProfile entry;
    entry.source = describeSource(program, s);
    entry.cycles = counters.cycles;
    entry.instructions = counters.instructions;
    entry.stallCycles = counters.stalls;
    entry.vpuBusy = busy[kVpuBusy];
    entry.dmaBusy = busy[kDmaBusy];
    for (unsigned m = 0; m < core.chip.mxusPerCore; ++m)
      entry.mxuBusy += busy[mxuBusyUnit(m)];
    core.stats.profile.push_back(std::move(entry));
  }
  std::stable_sort(core.stats.profile.begin(), core.stats.profile.end(),
                   [](const SourceProfile &a, const SourceProfile &b) {
                     return a.cycles > b.cycles;
                   });
}

std::optional<Trap> StepLoop::run() {
  auto hostStart = std::chrono::steady_clock::now();
  ArchState &state = core.state;
  Stats &stats = core.stats;
  const ChipInfo &chip = core.chip;
  stats.chip = chip.name;
  stats.clockHz = chip.clockHz;
  stats.numMxus = chip.mxusPerCore;
  stats.staticBundles = bundles.size();
  stats.mxuMacsUseful = core.program.usefulMacs;
  stats.mxuF32MacsUseful = core.program.usefulF32Macs;

  while (!core.halted) {
    if (state.pc < 0 || size_t(state.pc) >= bundles.size()) {
      core.now = nextFetch;
      core.trap(Trap::Kind::PcOutOfRange,
                "the program ran past its last bundle (b" +
                    std::to_string(bundles.size() - 1) + "); end it with halt");
      break;
    }
    const std::vector<DecodedInstruction> &bundle = bundles[state.pc];
    std::optional<StallCause> cause;
    const DecodedInstruction *culprit = nullptr;
    core.now = issueCycle(bundle, cause, culprit);
    if (core.now >= maxCycles) {
      core.trap(Trap::Kind::CycleLimit,
                "the run reached --max-cycles=" + std::to_string(maxCycles) +
                    " (raise it, or look for a loop that never ends)");
      break;
    }
    if (cause) {
      uint64_t stall = core.now - nextFetch;
      stalls[unsigned(*cause)] += stall;
      SourceCounters &counters = sourceCounters[culprit->source];
      counters.stalls[unsigned(*cause)] += stall;
      counters.cycles += stall;
      if (core.trace) {
        core.trace->add("stall", getStallCauseName(*cause), nextFetch, core.now,
                        culprit->source);
        core.trace->addSourceOp(culprit->source, nextFetch, core.now);
      }
    }
    std::vector<InFlightDma> &inFlight = core.dma.inFlight;
    while (!inFlight.empty() && inFlight.front().completion <= core.now)
      inFlight.erase(inFlight.begin());

    core.nextPc = state.pc + 1;
    core.branchTaken = false;
    if (core.memory.getUninitializedReads() == UninitializedReads::Trap &&
        !checkVectorReads(bundle))
      break;
    bool ok = true;
    for (const DecodedInstruction &inst : bundle) {
      core.currentSource = inst.source;
      if (!(ok = inst.execute(core, *inst.inst)))
        break;
    }
    if (!ok)
      break;
    retire(bundle);
    ++stats.bundles;
    stats.instructions += bundle.size();
    for (const DecodedInstruction &inst : bundle) {
      ++issuedByOpcode[unsigned(inst.inst->opcode)];
      ++sourceCounters[inst.source].instructions;
    }
    ++sourceCounters[bundle.front().source].cycles;
    if (core.trace)
      core.trace->addSourceOp(bundle.front().source, core.now, core.now + 1);
    nextFetch = core.now + 1;
    // A bundle that halts fetches nothing after it, taken branch or not.
    if (core.branchTaken && !core.halted) {
      nextFetch += kTakenBranchPenalty;
      stalls[unsigned(StallCause::Branch)] += kTakenBranchPenalty;
      for (const DecodedInstruction &inst : bundle)
        if (inst.inst->info().isControlFlow()) {
          SourceCounters &counters = sourceCounters[inst.source];
          counters.stalls[unsigned(StallCause::Branch)] += kTakenBranchPenalty;
          counters.cycles += kTakenBranchPenalty;
          if (core.trace)
            core.trace->addSourceOp(inst.source, core.now + 1, nextFetch);
        }
    }
    state.pc = core.nextPc;
  }

  // halt has checked that every DMA was waited for: nothing is left to
  // drain.
  stats.cycles = core.now + 1;
  for (unsigned c = 0; c < kNumStallCauses; ++c)
    stats.stallCycles[getStallCauseName(StallCause(c))] = stalls[c];
  for (const InstInfo &info : allInstructions())
    if (uint64_t count = issuedByOpcode[unsigned(info.opcode)])
      stats.instructionMix[info.mnemonic] = count;
  for (size_t unit = 0; unit < core.busyUnitNames.size(); ++unit)
    stats.unitBusyCycles[core.busyUnitNames[unit]] = core.unitBusy[unit];
  if (profile) {
    // A run that stopped early did not count its last bundle's issue
    // cycle (nor, at the cycle limit, its stall): they are the trapping
    // bundle's first instruction's, so that the rows still add up.
    uint64_t counted = 0;
    for (const SourceCounters &counters : sourceCounters)
      counted += counters.cycles;
    size_t noSource = sourceCounters.size() - 1;
    uint32_t last = state.pc >= 0 && size_t(state.pc) < bundles.size() &&
                            !bundles[state.pc].empty()
                        ? bundles[state.pc].front().source
                        : uint32_t(noSource);
    if (stats.cycles > counted)
      sourceCounters[last].cycles += stats.cycles - counted;
    fillProfile();
  }
  stats.vmemPeakBytes = core.memory.getVmemHighWaterBytes();
  stats.hbmResidentBytes = core.memory.getHbmResidentBytes();
  // The host's time includes the offloaded passes still queued at the end.
  if (core.offload)
    core.offload->drain();
  stats.hostSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - hostStart)
                          .count();
  return core.takeTrap();
}

} // namespace

//===----------------------------------------------------------------------===//
// Simulator
//===----------------------------------------------------------------------===//

Simulator::Simulator(const Program &program, SimulatorOptions options)
    : program(program), chip(getChipInfo(program.chip)), options(options),
      memory(chip, options.uninitialized),
      state(chip.mxusPerCore, chip.mxuResultSlots) {
  if (options.trace) {
    trace = std::make_unique<Trace>(chip.clockHz);
    // Only a program with debug information has source ops to name.
    if (!program.sourceLocations.empty()) {
      std::vector<std::string> names;
      for (size_t s = 0; s <= program.sourceLocations.size(); ++s)
        names.push_back(describeSource(program, s));
      trace->setSourceNames(std::move(names));
    }
  }
  if (options.uninitialized == UninitializedReads::NaN)
    for (VReg &vreg : state.vregs)
      vreg.fill(kPoisonWord);
}

Simulator::~Simulator() = default;

absl::StatusOr<std::unique_ptr<Simulator>>
Simulator::create(const Program &program, SimulatorOptions options) {
  if (absl::Status status = verifyProgram(program); !status.ok())
    return status;
  std::unique_ptr<Simulator> simulator(new Simulator(program, options));
  for (const HbmConstant &constant : program.constants)
    for (size_t w = 0; w < constant.words.size(); ++w)
      if (absl::Status status = simulator->memory.writeHbmWord(
              constant.hbmTile + int64_t(w / kWordsPerTile),
              int64_t(w % kWordsPerTile), constant.words[w]);
          !status.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("the constant at HBM tile ", constant.hbmTile, ": ",
                         status.message()));
  return simulator;
}

std::optional<Trap> Simulator::run() {
  // Most of the passes go to the helper (MxuOffload), on every chip. The
  // helper is drained and joined before the run returns.
  std::unique_ptr<MxuOffload> offload;
  if (options.hostThreads > 1) {
    // A host that cannot start the thread runs on one, as stats say.
    try {
      offload =
          std::make_unique<MxuOffload>(chip.mxusPerCore, chip.mxuResultSlots);
    } catch (const std::system_error &) {
    }
  }
  stats.hostThreads = offload ? 2 : 1;
  StepLoop loop(program, chip, state, memory, stats, trace.get(),
                options.maxCycles, options.hbmShare, offload.get(),
                options.profile);
  return loop.run();
}

} // namespace tpu::sim
