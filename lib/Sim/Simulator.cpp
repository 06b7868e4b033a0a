//===- Simulator.cpp - Bit-exact, cycle-timed TPU core simulator ----------===//

#include "tpu/Sim/Simulator.h"

#include "tpu/ISA/Assembly.h"
#include "tpu/Support/BF16.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>

namespace tpu::sim {

using namespace tpu::isa;

const char *Trap::getKindName(Kind kind) {
  switch (kind) {
  case Kind::OutOfBounds:
    return "out-of-bounds access";
  case Kind::Misaligned:
    return "misaligned access";
  case Kind::DmaRace:
    return "DMA race";
  case Kind::DmaDeadlock:
    return "DMA deadlock";
  case Kind::CycleLimit:
    return "cycle limit";
  case Kind::PcOutOfRange:
    return "pc out of range";
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

namespace {

/// Causes a bundle can wait for; all are reported, even at zero.
const char *const kStallCauses[] = {"scalar-dependency",
                                    "vector-dependency",
                                    "mxu-busy",
                                    "mxu-weights",
                                    "mxu-result",
                                    "dma-wait",
                                    "dma-queue",
                                    "branch",
                                    "drain"};

float asFloat(uint32_t bits) { return floatOf(bits); }
uint32_t asBits(float value) { return bitsOf(value); }

/// IEEE-754 maximum/minimum: NaN in, quiet NaN out; -0 < +0.
uint32_t maxBits(uint32_t a, uint32_t b, bool isMax) {
  float x = asFloat(a), y = asFloat(b);
  if (std::isnan(x))
    return a | 0x00400000u;
  if (std::isnan(y))
    return b | 0x00400000u;
  if (x == y) // equal, including +0 vs -0: pick by sign
    return isMax ? (a & b) : (a | b);
  return (isMax ? x > y : x < y) ? a : b;
}

} // namespace

class Simulator::Impl {
public:
  explicit Impl(Simulator &sim)
      : sim(sim), state(sim.state), memory(sim.memory), stats(sim.stats),
        trace(sim.trace.get()), mxuTiming(sim.chip.mxusPerCore),
        bytesPerCycle(double(sim.chip.hbmBytesPerSecond) /
                      double(sim.chip.clockHz)) {
    vectorWrites.reserve(32);
  }

  std::optional<Trap> run();

private:
  struct MxuTiming {
    uint64_t weightPortFree = 0, weightsReady = 0, inputFree = 0;
    std::array<uint64_t, kMxuResultSlots> slotReady{};
  };
  struct InFlightDma {
    bool writesVmem;
    int64_t vmemFirst, vmemEnd;
    uint64_t completion;
    int64_t pc;
  };

  int32_t sreg(int64_t r) const { return r == 0 ? 0 : int32_t(state.sregs[r]); }
  bool fail(Trap::Kind kind, std::string reason) {
    Trap trapInfo;
    trapInfo.kind = kind;
    trapInfo.cycle = now;
    trapInfo.pc = state.pc;
    if (state.pc >= 0 && size_t(state.pc) < sim.program.bundles.size()) {
      const Bundle &bundle = sim.program.bundles[state.pc];
      for (size_t i = 0; i < bundle.instructions.size(); ++i)
        trapInfo.bundle +=
            (i ? " ; " : "") + formatInstruction(bundle.instructions[i]);
    }
    trapInfo.reason = std::move(reason);
    trap = std::move(trapInfo);
    return false;
  }
  bool failOutOfBounds(const InstInfo &info, const std::string &error) {
    return fail(Trap::Kind::OutOfBounds,
                std::string(info.mnemonic) + ": " + error);
  }

  bool checkResultSlot(const InstInfo &info, int32_t slot) {
    if (slot >= 0 && slot < int32_t(kMxuResultSlots))
      return true;
    return fail(Trap::Kind::OutOfBounds,
                std::string(info.mnemonic) + ": result slot " +
                    std::to_string(slot) + " is out of bounds [0, " +
                    std::to_string(kMxuResultSlots) + ")");
  }

  uint64_t issueCycle(const Bundle &bundle, const char *&cause);
  bool checkDmaRace(const InstInfo &info, int64_t first, int64_t count,
                    bool isWrite);
  bool execute(const Instruction &inst);
  bool executeDma(const Instruction &inst);
  void pushRows(MxuState &mxu, const VReg &lhs, float *slot, bool accumulate);
  void commit(const Bundle &bundle);
  /// Units whose busy cycles are counted: scalar, vpu, dma, then for each
  /// MXU its array and its weight loader. Counted in plain integers on the
  /// hot path; named into Stats once, at the end of the run.
  enum : unsigned { kScalarUnit, kVpuUnit, kDmaUnit, kFirstMxuUnit };
  static unsigned mxuUnit(int64_t mxu) { return kFirstMxuUnit + 2 * mxu; }
  static unsigned mxuWeightsUnit(int64_t mxu) { return mxuUnit(mxu) + 1; }
  void busy(unsigned unit, const char *name, uint64_t begin, uint64_t end) {
    unitBusy[unit] += end - begin;
    if (trace)
      trace->add(unitNames[unit], name, begin, end);
  }

  Simulator &sim;
  ArchState &state;
  Memory &memory;
  Stats &stats;
  Trace *trace;

  std::vector<std::string> unitNames;
  std::vector<uint64_t> unitBusy;

  uint64_t now = 0;       // the cycle the current bundle issues in
  uint64_t nextFetch = 0; // the earliest cycle the next bundle may issue
  int64_t nextPc = 0;
  bool branchTaken = false;
  bool halted = false;
  std::array<uint64_t, kNumScalarRegisters> sregReady{};
  std::array<uint64_t, kNumVectorRegisters> vregReady{};
  std::vector<MxuTiming> mxuTiming;
  std::vector<InFlightDma> inFlight; // ordered by completion
  std::array<std::vector<uint64_t>, kNumSemaphores> pendingCompletions;
  uint64_t dmaFree = 0;
  uint64_t lastDmaCompletion = 0;
  double bytesPerCycle;

  // Register results of the current bundle, written when it retires so that
  // every instruction of a bundle reads the registers as they were before it.
  std::vector<std::pair<int64_t, uint32_t>> scalarWrites;
  std::vector<std::pair<int64_t, VReg>> vectorWrites;
  std::optional<Trap> trap;
};

Simulator::Simulator(const Program &program, SimulatorOptions options)
    : program(program), chip(getChipInfo(program.chip)), options(options),
      memory(chip), state(chip.mxusPerCore) {
  if (options.trace)
    trace = std::make_unique<Trace>(chip.clockHz);
  for (const HbmConstant &constant : program.constants) {
    std::string error;
    for (size_t w = 0; w < constant.words.size(); ++w)
      memory.writeHbmWord(constant.hbmTile + int64_t(w / kWordsPerTile),
                          int64_t(w % kWordsPerTile), constant.words[w], error);
  }
}

Simulator::~Simulator() = default;

std::optional<Trap> Simulator::run() {
  Impl impl(*this);
  return impl.run();
}

uint64_t Simulator::Impl::issueCycle(const Bundle &bundle, const char *&cause) {
  uint64_t cycle = nextFetch;
  cause = nullptr;
  auto need = [&](uint64_t ready, const char *why) {
    if (ready > cycle) {
      cycle = ready;
      cause = why;
    }
  };
  for (const Instruction &inst : bundle.instructions) {
    const InstInfo &info = inst.info();
    unsigned groupSize = inst.opcode == Opcode::VXpose ? 16 : 1;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      int64_t value = inst.operands[i];
      switch (info.operands[i]) {
      case OperandKind::SDst:
      case OperandKind::SSrc:
        need(sregReady[value], "scalar-dependency");
        break;
      case OperandKind::VDst:
      case OperandKind::VSrc:
        for (unsigned g = 0; g < groupSize && value + g < kNumVectorRegisters;
             ++g)
          need(vregReady[value + g], "vector-dependency");
        break;
      default:
        break;
      }
    }
    switch (inst.opcode) {
    case Opcode::MxuLdw:
      need(mxuTiming[inst.operands[0]].weightPortFree, "mxu-busy");
      break;
    case Opcode::MxuPush:
      need(mxuTiming[inst.operands[0]].inputFree, "mxu-busy");
      need(mxuTiming[inst.operands[0]].weightsReady, "mxu-weights");
      break;
    case Opcode::MxuPop: {
      int32_t slot = sreg(inst.operands[2]);
      if (slot >= 0 && slot < int32_t(kMxuResultSlots))
        need(mxuTiming[inst.operands[1]].slotReady[slot], "mxu-result");
      break;
    }
    case Opcode::DmaLd:
    case Opcode::DmaSt:
      if (inFlight.size() >= kMaxOutstandingDmas)
        need(inFlight[inFlight.size() - kMaxOutstandingDmas].completion,
             "dma-queue");
      break;
    case Opcode::DmaWait: {
      int64_t sem = inst.operands[0], count = inst.operands[1];
      int64_t missing = count - state.semaphores[sem];
      const std::vector<uint64_t> &pending = pendingCompletions[sem];
      if (missing > 0 && size_t(missing) <= pending.size())
        need(pending[missing - 1], "dma-wait");
      break;
    }
    default:
      break;
    }
  }
  return cycle;
}

bool Simulator::Impl::checkDmaRace(const InstInfo &info, int64_t first,
                                   int64_t count, bool isWrite) {
  for (const InFlightDma &dma : inFlight) {
    if (dma.completion <= now || first >= dma.vmemEnd ||
        first + count <= dma.vmemFirst)
      continue;
    if (!dma.writesVmem && !isWrite)
      continue; // reading what a store-DMA also reads is fine
    std::string access = isWrite ? "writes" : "reads";
    std::string dmaDoes = dma.writesVmem ? "writing" : "reading";
    return fail(
        Trap::Kind::DmaRace,
        std::string(info.mnemonic) + " " + access + " VMEM rows [" +
            std::to_string(first) + ", " + std::to_string(first + count) +
            ") that the DMA issued at b" + std::to_string(dma.pc) +
            " is still " + dmaDoes + " (rows [" +
            std::to_string(dma.vmemFirst) + ", " + std::to_string(dma.vmemEnd) +
            "), done at cycle " + std::to_string(dma.completion) +
            "); wait on its semaphore first");
  }
  return true;
}

void Simulator::Impl::pushRows(MxuState &mxu, const VReg &lhs, float *slot,
                               bool accumulate) {
  // One pass of 8 LHS rows through the weight-stationary array: each output
  // is a sum over k in ascending order, from +0, of exact bf16 x bf16
  // products, each add rounded to nearest even (DESIGN.md 4). The loop runs
  // k outermost so the inner loop is over output columns and vectorises
  // without reordering any output's additions.
  const float *weights = mxu.weights.data();
  for (unsigned row = 0; row < kSublanes; ++row) {
    alignas(64) float acc[kLanes] = {};
    const uint32_t *lhsRow = &lhs[row * kLanes];
    for (unsigned k = 0; k < kMxuDim; ++k) {
      float a = roundToBF16(asFloat(lhsRow[k]));
      const float *w = weights + k * kMxuDim;
      for (unsigned n = 0; n < kLanes; ++n)
        acc[n] += a * w[n];
    }
    float *out = slot + row * kLanes;
    if (accumulate)
      for (unsigned n = 0; n < kLanes; ++n)
        out[n] += acc[n];
    else
      std::memcpy(out, acc, sizeof(acc));
  }
}

bool Simulator::Impl::executeDma(const Instruction &inst) {
  const InstInfo &info = inst.info();
  bool load = inst.opcode == Opcode::DmaLd;
  unsigned sem = unsigned(inst.operands[0]);
  int64_t vmemRow = load ? sreg(inst.operands[1]) : sreg(inst.operands[2]);
  int64_t hbmTile = load ? sreg(inst.operands[2]) : sreg(inst.operands[1]);
  int64_t count = sreg(inst.operands[3]);
  int64_t stride = sreg(inst.operands[4]);
  if (count < 0)
    return fail(Trap::Kind::OutOfBounds, std::string(info.mnemonic) +
                                             ": negative tile count " +
                                             std::to_string(count));
  if (vmemRow % kSublanes != 0)
    return fail(Trap::Kind::Misaligned,
                std::string(info.mnemonic) + ": VMEM row " +
                    std::to_string(vmemRow) +
                    " is not tile-aligned (a multiple of 8)");
  std::string error;
  if (!memory.checkVmemRows(vmemRow, count * kSublanes, error))
    return failOutOfBounds(info, error);
  Tile tile;
  for (int64_t i = 0; i < count; ++i) {
    int64_t hbm = hbmTile + i * stride;
    uint32_t *vmem = memory.vmemRow(vmemRow + i * kSublanes);
    if (load) {
      if (!memory.readHbmTile(hbm, tile, error))
        return failOutOfBounds(info, error);
      std::memcpy(vmem, tile.data(), sizeof(Tile));
    } else {
      std::memcpy(tile.data(), vmem, sizeof(Tile));
      if (!memory.writeHbmTile(hbm, tile, error))
        return failOutOfBounds(info, error);
    }
  }
  uint64_t bytes = uint64_t(count) * kTileBytes;
  if (load) {
    stats.hbmBytesRead += bytes;
    if (count > 0)
      memory.noteVmemWrite(vmemRow + count * kSublanes - 1);
  } else {
    stats.hbmBytesWritten += bytes;
  }
  // The engine moves one transfer at a time at the chip's HBM bandwidth; the
  // fixed latency overlaps with the next transfer.
  uint64_t start = std::max(now, dmaFree);
  uint64_t transfer = uint64_t(std::ceil(double(bytes) / bytesPerCycle));
  dmaFree = start + transfer;
  uint64_t completion = start + transfer + kDmaLatencyCycles;
  lastDmaCompletion = std::max(lastDmaCompletion, completion);
  if (transfer > 0)
    busy(kDmaUnit, info.mnemonic, start, start + transfer);
  inFlight.push_back(
      {load, vmemRow, vmemRow + count * kSublanes, completion, state.pc});
  pendingCompletions[sem].push_back(completion);
  return true;
}

bool Simulator::Impl::execute(const Instruction &inst) {
  const InstInfo &info = inst.info();
  const auto &op = inst.operands;
  auto writeScalar = [&](uint32_t value) {
    if (op[0] != 0)
      scalarWrites.emplace_back(op[0], value);
  };
  auto newVector = [&](int64_t reg) -> VReg & {
    vectorWrites.emplace_back(reg, VReg());
    return vectorWrites.back().second;
  };
  auto elementwise = [&](auto fn) {
    VReg &out = newVector(op[0]);
    const VReg &a = state.vregs[op[1]], &b = state.vregs[op[2]];
    for (size_t i = 0; i < kWordsPerTile; ++i)
      out[i] = fn(a[i], b[i]);
  };
  auto unary = [&](auto fn) {
    VReg &out = newVector(op[0]);
    const VReg &a = state.vregs[op[1]];
    for (size_t i = 0; i < kWordsPerTile; ++i)
      out[i] = fn(a[i]);
  };
  auto floatOp = [&](auto fn) {
    elementwise([&](uint32_t a, uint32_t b) {
      return asBits(fn(asFloat(a), asFloat(b)));
    });
  };
  auto compare = [&](auto fn) {
    elementwise([&](uint32_t a, uint32_t b) {
      return fn(asFloat(a), asFloat(b)) ? 0xFFFFFFFFu : 0u;
    });
  };
  auto reduce = [&](bool isMax) {
    VReg &out = newVector(op[0]);
    const VReg &a = state.vregs[op[1]];
    for (unsigned s = 0; s < kSublanes; ++s) {
      const uint32_t *row = &a[s * kLanes];
      uint32_t acc = row[0];
      for (unsigned l = 1; l < kLanes; ++l)
        acc = isMax ? maxBits(acc, row[l], true)
                    : asBits(asFloat(acc) + asFloat(row[l]));
      std::fill(&out[s * kLanes], &out[s * kLanes] + kLanes, acc);
    }
  };
  std::string error;

  switch (inst.opcode) {
  case Opcode::SLi:
    writeScalar(uint32_t(op[1]));
    return true;
  case Opcode::SAdd:
    writeScalar(uint32_t(sreg(op[1])) + uint32_t(sreg(op[2])));
    return true;
  case Opcode::SAddi:
    writeScalar(uint32_t(sreg(op[1])) + uint32_t(op[2]));
    return true;
  case Opcode::SSub:
    writeScalar(uint32_t(sreg(op[1])) - uint32_t(sreg(op[2])));
    return true;
  case Opcode::SMul:
    writeScalar(uint32_t(sreg(op[1])) * uint32_t(sreg(op[2])));
    return true;
  case Opcode::SAnd:
    writeScalar(uint32_t(sreg(op[1])) & uint32_t(sreg(op[2])));
    return true;
  case Opcode::SOr:
    writeScalar(uint32_t(sreg(op[1])) | uint32_t(sreg(op[2])));
    return true;
  case Opcode::SXor:
    writeScalar(uint32_t(sreg(op[1])) ^ uint32_t(sreg(op[2])));
    return true;
  case Opcode::SShl:
    writeScalar(uint32_t(sreg(op[1])) << (uint32_t(sreg(op[2])) & 31));
    return true;
  case Opcode::SShr:
    writeScalar(uint32_t(sreg(op[1])) >> (uint32_t(sreg(op[2])) & 31));
    return true;
  case Opcode::SSlt:
    writeScalar(sreg(op[1]) < sreg(op[2]) ? 1 : 0);
    return true;
  case Opcode::SLd: {
    uint32_t value;
    if (!memory.readSmem(int64_t(sreg(op[1])) + op[2], value, error))
      return failOutOfBounds(info, error);
    writeScalar(value);
    return true;
  }
  case Opcode::SSt:
    if (!memory.writeSmem(int64_t(sreg(op[1])) + op[2], uint32_t(sreg(op[0])),
                          error))
      return failOutOfBounds(info, error);
    return true;
  case Opcode::BrEq:
  case Opcode::BrNe:
  case Opcode::BrLt:
  case Opcode::BrGe: {
    int32_t a = sreg(op[0]), b = sreg(op[1]);
    bool taken = inst.opcode == Opcode::BrEq   ? a == b
                 : inst.opcode == Opcode::BrNe ? a != b
                 : inst.opcode == Opcode::BrLt ? a < b
                                               : a >= b;
    if (taken) {
      nextPc = op[2];
      branchTaken = true;
    }
    return true;
  }
  case Opcode::Jmp:
    nextPc = op[0];
    branchTaken = true;
    return true;

  case Opcode::VLd:
  case Opcode::VSt: {
    bool load = inst.opcode == Opcode::VLd;
    int64_t base = int64_t(sreg(op[1])) + op[2];
    int64_t stride = sreg(op[3]);
    VReg *loaded = load ? &newVector(op[0]) : nullptr;
    if (load)
      *loaded = state.vregs[op[0]]; // masked-off sublanes keep their value
    const VReg &source = state.vregs[op[0]];
    for (unsigned s = 0; s < kSublanes; ++s) {
      if (!(op[4] & (1 << s)))
        continue;
      int64_t row = base + int64_t(s) * stride;
      if (!memory.checkVmemRows(row, 1, error))
        return failOutOfBounds(info, error);
      if (!checkDmaRace(info, row, 1, !load))
        return false;
      if (load) {
        std::memcpy(&(*loaded)[s * kLanes], memory.vmemRow(row),
                    kLanes * sizeof(uint32_t));
      } else {
        std::memcpy(memory.vmemRow(row), &source[s * kLanes],
                    kLanes * sizeof(uint32_t));
        memory.noteVmemWrite(row);
      }
    }
    return true;
  }

  case Opcode::VAdd:
    floatOp([](float a, float b) { return a + b; });
    return true;
  case Opcode::VSub:
    floatOp([](float a, float b) { return a - b; });
    return true;
  case Opcode::VMul:
    floatOp([](float a, float b) { return a * b; });
    return true;
  case Opcode::VMax:
    elementwise([](uint32_t a, uint32_t b) { return maxBits(a, b, true); });
    return true;
  case Opcode::VMin:
    elementwise([](uint32_t a, uint32_t b) { return maxBits(a, b, false); });
    return true;
  case Opcode::VCmpEq:
    compare([](float a, float b) { return a == b; });
    return true;
  case Opcode::VCmpNe:
    compare([](float a, float b) { return a != b; });
    return true;
  case Opcode::VCmpLt:
    compare([](float a, float b) { return a < b; });
    return true;
  case Opcode::VCmpLe:
    compare([](float a, float b) { return a <= b; });
    return true;
  case Opcode::VSel: {
    VReg &out = newVector(op[0]);
    const VReg &cond = state.vregs[op[1]], &a = state.vregs[op[2]],
               &b = state.vregs[op[3]];
    for (size_t i = 0; i < kWordsPerTile; ++i)
      out[i] = cond[i] ? a[i] : b[i];
    return true;
  }
  case Opcode::VMov:
    newVector(op[0]) = state.vregs[op[1]];
    return true;
  case Opcode::VBcast:
    newVector(op[0]).fill(uint32_t(sreg(op[1])));
    return true;
  case Opcode::VRneBf16:
    unary([](uint32_t a) { return asBits(roundToBF16(asFloat(a))); });
    return true;
  case Opcode::VTruncBf16:
    unary([](uint32_t a) {
      return asBits(roundToBF16(asFloat(a), BF16Rounding::Truncate));
    });
    return true;
  case Opcode::VPackBf16:
    elementwise([](uint32_t a, uint32_t b) {
      return uint32_t(toBF16(asFloat(a))) |
             (uint32_t(toBF16(asFloat(b))) << 16);
    });
    return true;
  case Opcode::VUnpackLo:
    unary([](uint32_t a) { return asBits(fromBF16(uint16_t(a & 0xFFFF))); });
    return true;
  case Opcode::VUnpackHi:
    unary([](uint32_t a) { return asBits(fromBF16(uint16_t(a >> 16))); });
    return true;
  case Opcode::VExp:
    // Correctly rounded for all but the rarest double-rounding cases, and
    // the same on every host with a faithful double exp.
    unary(
        [](uint32_t a) { return asBits(float(std::exp(double(asFloat(a))))); });
    return true;
  case Opcode::VRsum:
    reduce(false);
    return true;
  case Opcode::VRmax:
    reduce(true);
    return true;
  case Opcode::VXpose: {
    if (op[0] % 16 != 0 || op[1] % 16 != 0)
      return fail(Trap::Kind::Misaligned,
                  "v.xpose works on groups of 16 registers starting at v0 or "
                  "v16; got v" +
                      std::to_string(op[0]) + " and v" + std::to_string(op[1]));
    size_t first = vectorWrites.size();
    for (unsigned j = 0; j < 16; ++j)
      newVector(op[0] + j);
    // Element (r, c) of the 128 x 128 block lives in vreg r / 8, sublane
    // r % 8, lane c.
    for (unsigned r = 0; r < kMxuDim; ++r)
      for (unsigned c = 0; c < kMxuDim; ++c)
        vectorWrites[first + c / kSublanes]
            .second[(c % kSublanes) * kLanes + r] =
            state.vregs[op[1] + r / kSublanes][(r % kSublanes) * kLanes + c];
    return true;
  }

  case Opcode::MxuLdw: {
    int64_t base = sreg(op[1]), stride = sreg(op[2]);
    if (base % kSublanes != 0 || stride % kSublanes != 0)
      return fail(Trap::Kind::Misaligned,
                  "mxu.ldw: base row " + std::to_string(base) + " and stride " +
                      std::to_string(stride) +
                      " must be multiples of 8 (whole tiles)");
    MxuState &mxu = state.mxus[op[0]];
    for (unsigned group = 0; group < kMxuDim / kSublanes; ++group) {
      int64_t row = base + int64_t(group) * stride;
      if (!memory.checkVmemRows(row, kSublanes, error))
        return failOutOfBounds(info, error);
      if (!checkDmaRace(info, row, kSublanes, false))
        return false;
      for (unsigned s = 0; s < kSublanes; ++s) {
        const uint32_t *source = memory.vmemRow(row + s);
        float *dest = &mxu.weights[(group * kSublanes + s) * kMxuDim];
        for (unsigned n = 0; n < kMxuDim; ++n)
          dest[n] = roundToBF16(asFloat(source[n]));
      }
    }
    return true;
  }
  case Opcode::MxuPush: {
    int32_t slot = sreg(op[2]);
    if (!checkResultSlot(info, slot))
      return false;
    MxuState &mxu = state.mxus[op[0]];
    pushRows(mxu, state.vregs[op[1]], mxu.slot(slot), op[3] != 0);
    stats.mxuMacsIssued += uint64_t(kSublanes) * kMxuDim * kMxuDim;
    // The slot as this bundle read it, checked above: a write to the slot
    // register in the same bundle must not move the result's ready time.
    mxuTiming[op[0]].slotReady[slot] =
        now + kMxuPushCycles + kMxuPipelineCycles;
    return true;
  }
  case Opcode::MxuPop: {
    int32_t slot = sreg(op[2]);
    if (!checkResultSlot(info, slot))
      return false;
    std::memcpy(newVector(op[0]).data(), state.mxus[op[1]].slot(slot),
                sizeof(VReg));
    return true;
  }

  case Opcode::DmaLd:
  case Opcode::DmaSt:
    return executeDma(inst);
  case Opcode::DmaWait: {
    int64_t sem = op[0], count = op[1];
    std::vector<uint64_t> &pending = pendingCompletions[sem];
    size_t done = 0;
    while (done < pending.size() && pending[done] <= now)
      ++done;
    state.semaphores[sem] += int64_t(done);
    pending.erase(pending.begin(), pending.begin() + done);
    if (state.semaphores[sem] < count)
      return fail(Trap::Kind::DmaDeadlock,
                  "dma.wait " + std::to_string(sem) + ", " +
                      std::to_string(count) + " can never finish: only " +
                      std::to_string(state.semaphores[sem] + pending.size()) +
                      " DMA(s) on semaphore " + std::to_string(sem) +
                      " have been issued and not yet waited for");
    state.semaphores[sem] -= count;
    return true;
  }
  case Opcode::Nop:
    return true;
  case Opcode::Halt:
    halted = true;
    return true;
  }
  // -Werror=switch makes the switch name every opcode; decoding rejects
  // anything else before the run.
  assert(false && "an opcode without semantics");
  return false;
}

void Simulator::Impl::commit(const Bundle &bundle) {
  for (auto &[reg, value] : scalarWrites)
    state.sregs[reg] = value;
  for (auto &[reg, value] : vectorWrites)
    state.vregs[reg] = value;
  scalarWrites.clear();
  vectorWrites.clear();

  bool scalarBusy = false, vectorBusy = false;
  for (const Instruction &inst : bundle.instructions) {
    const InstInfo &info = inst.info();
    uint64_t ready = now + info.latency;
    unsigned groupSize = inst.opcode == Opcode::VXpose ? 16 : 1;
    for (unsigned i = 0, e = info.getNumOperands(); i < e; ++i) {
      if (info.operands[i] == OperandKind::SDst)
        sregReady[inst.operands[i]] = ready;
      if (info.operands[i] == OperandKind::VDst)
        for (unsigned g = 0; g < groupSize; ++g)
          vregReady[inst.operands[i] + g] = ready;
    }
    scalarBusy |= info.slot == Slot::Scalar;
    vectorBusy |= info.slot == Slot::Vector || info.slot == Slot::VectorMem;
    if (inst.opcode == Opcode::MxuLdw) {
      MxuTiming &mxu = mxuTiming[inst.operands[0]];
      mxu.weightPortFree = mxu.weightsReady = now + kMxuWeightLoadCycles;
      busy(mxuWeightsUnit(inst.operands[0]), "mxu.ldw", now,
           now + kMxuWeightLoadCycles);
    } else if (inst.opcode == Opcode::MxuPush) {
      MxuTiming &mxu = mxuTiming[inst.operands[0]];
      mxu.inputFree = now + kMxuPushCycles;
      busy(mxuUnit(inst.operands[0]), "mxu.push", now, now + kMxuPushCycles);
    }
  }
  if (scalarBusy)
    busy(kScalarUnit, "scalar", now, now + 1);
  if (vectorBusy)
    busy(kVpuUnit, "vpu", now, now + 1);
}

std::optional<Trap> Simulator::Impl::run() {
  auto hostStart = std::chrono::steady_clock::now();
  const std::vector<Bundle> &bundles = sim.program.bundles;
  stats.chip = sim.chip.name;
  stats.clockHz = sim.chip.clockHz;
  stats.numMxus = sim.chip.mxusPerCore;
  stats.staticBundles = bundles.size();
  stats.mxuMacsUseful = sim.program.usefulMacs;
  for (const char *cause : kStallCauses)
    stats.stallCycles[cause] = 0;
  unitNames = {"scalar", "vpu", "dma"};
  for (unsigned m = 0; m < sim.chip.mxusPerCore; ++m) {
    unitNames.push_back("mxu" + std::to_string(m));
    unitNames.push_back("mxu" + std::to_string(m) + ".weights");
  }
  unitBusy.assign(unitNames.size(), 0);

  while (!halted) {
    if (state.pc < 0 || size_t(state.pc) >= bundles.size()) {
      now = nextFetch;
      fail(Trap::Kind::PcOutOfRange, "the program ran past its last bundle (b" +
                                         std::to_string(bundles.size() - 1) +
                                         "); end it with halt");
      break;
    }
    const Bundle &bundle = bundles[state.pc];
    const char *cause;
    now = issueCycle(bundle, cause);
    if (now >= sim.options.maxCycles) {
      fail(Trap::Kind::CycleLimit,
           "the run reached --max-cycles=" +
               std::to_string(sim.options.maxCycles) +
               " (raise it, or look for a loop that never ends)");
      break;
    }
    if (cause) {
      stats.stallCycles[cause] += now - nextFetch;
      if (trace)
        trace->add("stall", cause, nextFetch, now);
    }
    while (!inFlight.empty() && inFlight.front().completion <= now)
      inFlight.erase(inFlight.begin());

    nextPc = state.pc + 1;
    branchTaken = false;
    bool ok = true;
    for (const Instruction &inst : bundle.instructions)
      if (!(ok = execute(inst)))
        break;
    if (!ok)
      break;
    commit(bundle);
    ++stats.bundles;
    stats.instructions += bundle.instructions.size();
    nextFetch = now + 1;
    if (branchTaken) {
      nextFetch += kTakenBranchPenalty;
      stats.stallCycles["branch"] += kTakenBranchPenalty;
    }
    state.pc = nextPc;
  }

  uint64_t end = now + 1;
  if (halted && lastDmaCompletion > end) {
    stats.stallCycles["drain"] += lastDmaCompletion - end;
    end = lastDmaCompletion;
  }
  stats.cycles = end;
  for (size_t unit = 0; unit < unitNames.size(); ++unit)
    stats.unitBusyCycles[unitNames[unit]] = unitBusy[unit];
  stats.vmemPeakBytes = memory.getVmemHighWaterBytes();
  stats.hbmResidentBytes = memory.getHbmResidentBytes();
  stats.hostSeconds = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - hostStart)
                          .count();
  return trap;
}

} // namespace tpu::sim
