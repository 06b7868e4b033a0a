//===- Mxu.cpp - The weight-stationary matrix units -----------------------===//
//
// Each MXU stages a kMxuDim x kMxuDim bf16 weight tile (mxu.ldw), latches
// it (mxu.latch), streams 8 LHS rows per push through the latched tile and
// keeps 8 x 128 f32 results in addressable slots. Timing
// (docs/Simulator.md): a weight load takes the weight port for
// kMxuWeightLoadCycles and a latch waits for it, a push takes the input
// for kMxuPushCycles, and a push's result is ready kMxuPipelineCycles
// after its last row enters.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "../MxuOffload.h"

#include "tpu/Sim/MxuKernel.h"
#include "tpu/Support/Float.h"

#include <cstring>

namespace tpu::sim {

using isa::Instruction;
using isa::Opcode;

namespace {

/// Traps unless `slot` addresses the result buffer.
bool checkResultSlot(Core &core, const Instruction &inst, int32_t slot) {
  unsigned slots = core.chip.mxuResultSlots;
  if (slot >= 0 && slot < int32_t(slots))
    return true;
  return core.trap(Trap::Kind::OutOfBounds,
                   std::string(inst.info().mnemonic) + ": result slot " +
                       std::to_string(slot) + " is out of bounds [0, " +
                       std::to_string(slots) + ")");
}

/// One pass of 8 LHS rows through the weight-stationary array
/// (docs/Numerics.md): the rows are rounded to bf16 as the MXU reads them,
/// and the pass fuses its multiply-adds when every product is exact. An
/// offloaded MXU's pass is queued for the helper thread, which rounds too.
void pushRows(Core &core, int64_t mxuIndex, const VReg &lhs, int32_t slot,
              bool accumulate) {
  MxuState &mxu = core.state.mxus[mxuIndex];
  const MxuState::WeightTile &weights = mxu.weights();
  if (core.offload && core.offload->isOffloaded(mxuIndex, slot)) {
    MxuOffload::Pass &queued = core.offload->nextPass();
    std::memcpy(queued.words, lhs.data(), sizeof(queued.words));
    queued.weights = weights.values.data();
    queued.weightExponents = weights.exponents;
    queued.slot = mxu.slot(slot);
    queued.accumulate = accumulate;
    return core.offload->submit(mxuIndex, slot);
  }
  mxuPassOfWords(weights.values.data(), weights.exponents, lhs.data(),
                 mxu.slot(slot), accumulate);
}

} // namespace

TPU_ISSUE_RULE(Mxu) {
  const auto &op = inst.operands;
  uint64_t ready = 0;
  auto need = [&](uint64_t cycle, StallCause why) {
    if (cycle > ready) {
      ready = cycle;
      cause = why;
    }
  };
  switch (inst.opcode) {
  case Opcode::MxuLdw:
  case Opcode::MxuLdwBf16:
    need(core.mxuTiming[op[0]].weightPortFree, StallCause::MxuBusy);
    break;
  case Opcode::MxuLatch:
    need(core.mxuTiming[op[0]].weightsReady, StallCause::MxuWeights);
    break;
  case Opcode::MxuPush:
    need(core.mxuTiming[op[0]].inputFree, StallCause::MxuBusy);
    break;
  case Opcode::MxuPop: {
    int32_t slot = core.sreg(op[2]);
    if (slot >= 0 && slot < int32_t(core.chip.mxuResultSlots))
      need(core.mxuTiming[op[1]].slotReady[slot], StallCause::MxuResult);
    break;
  }
  default:
    break;
  }
  return ready;
}

/// Stages a weight tile from VMEM: 128 rows of f32 words (each rounded to
/// bf16) in 16 groups of 8 rows, or with `packed` 8 groups of 8 rows of
/// packed bf16 words (row k of the tile is the low half of a group's row
/// k % 8 for k % 16 < 8, else the high half), a group every `stride` rows.
/// The weight port takes as long either way: it moves the same bf16
/// values.
static bool loadWeights(Core &core, const isa::Instruction &inst,
                        bool packed) {
  const auto &op = inst.operands;
  int64_t base = core.sreg(op[1]), stride = core.sreg(op[2]);
  const char *name = packed ? "mxu.ldw.bf16" : "mxu.ldw";
  if (base % kSublanes != 0 || stride % kSublanes != 0)
    return core.trap(Trap::Kind::Misaligned,
                     std::string(name) + ": base row " + std::to_string(base) +
                         " and stride " + std::to_string(stride) +
                         " must be multiples of 8 (whole tiles)");
  // The staged tile may be one the queued passes latched before the last
  // latch.
  if (core.offload)
    core.offload->syncWeightLoad(op[0]);
  MxuState::WeightTile &tile = core.state.mxus[op[0]].stage();
  tile.exponents = ExponentRange();
  unsigned rowsPerWord = packed ? 2 : 1;
  for (unsigned group = 0; group < kMxuDim / (kSublanes * rowsPerWord);
       ++group) {
    int64_t row = base + int64_t(group) * stride;
    if (!core.check(core.memory.checkVmemRows(row, kSublanes), inst) ||
        !checkDmaRace(core, inst, row, kSublanes, /*isWrite=*/false) ||
        !core.check(core.memory.checkVmemRowsWritten(row, kSublanes), inst))
      return false;
    for (unsigned half = 0; half < rowsPerWord; ++half)
      for (unsigned s = 0; s < kSublanes; ++s) {
        const uint32_t *source = core.memory.vmemRow(row + s);
        unsigned k = (group * rowsPerWord + half) * kSublanes + s;
        float *dest = &tile.values[k * kMxuDim];
        // Subnormal inputs flush either way, as the MXU's do.
        uint32_t words[kMxuDim];
        for (unsigned n = 0; n < kMxuDim; ++n)
          words[n] = packed ? source[n] >> (16 * half) << 16 : source[n];
        tile.exponents.merge(roundToBF16Words(words, kMxuDim, dest));
      }
  }
  MxuTiming &timing = core.mxuTiming[op[0]];
  timing.weightPortFree = timing.weightsReady = core.now + kMxuWeightLoadCycles;
  timing.latchBase = base;
  timing.latchStride = stride;
  timing.latchGroups = kMxuDim / (kSublanes * rowsPerWord);
  core.busy(mxuWeightsBusyUnit(op[0]), name, core.now,
            core.now + kMxuWeightLoadCycles);
  return true;
}

bool checkWeightLoadRace(Core &core, const isa::Instruction &inst,
                         int64_t first, int64_t count) {
  for (size_t mxu = 0; mxu < core.mxuTiming.size(); ++mxu) {
    const MxuTiming &timing = core.mxuTiming[mxu];
    if (core.now >= timing.weightsReady)
      continue;
    for (unsigned group = 0; group < timing.latchGroups; ++group) {
      int64_t rows = timing.latchBase + int64_t(group) * timing.latchStride;
      if (first >= rows + int64_t(kSublanes) || rows >= first + count)
        continue;
      return core.trap(
          Trap::Kind::WeightLoadRace,
          std::string(inst.info().mnemonic) + " writes VMEM row " +
              std::to_string(std::max(first, rows)) +
              ", which the weight load of MXU " + std::to_string(mxu) +
              " is still shifting in until cycle " +
              std::to_string(timing.weightsReady) +
              "; write it after an mxu.latch of that MXU (a latch waits "
              "for the load) or into other rows");
    }
  }
  return true;
}

TPU_SEMANTICS(MxuLdw) { return loadWeights(core, inst, /*packed=*/false); }
TPU_SEMANTICS(MxuLdwBf16) { return loadWeights(core, inst, /*packed=*/true); }

/// The pushes after it multiply by the tile the last weight load staged;
/// those before it are in the array with the tile they read (the latch
/// travels with the rows, as double-buffered weights do on the hardware:
/// docs/Simulator.md).
TPU_SEMANTICS(MxuLatch) {
  core.state.mxus[inst.operands[0]].latch();
  if (core.offload)
    core.offload->latched(inst.operands[0]);
  return true;
}

TPU_SEMANTICS(MxuPush) {
  const auto &op = inst.operands;
  int32_t slot = core.sreg(op[2]);
  if (!checkResultSlot(core, inst, slot))
    return false;
  pushRows(core, op[0], core.vreg(op[1]), slot, op[3] != 0);
  core.stats.mxuMacsIssued += uint64_t(kSublanes) * kMxuDim * kMxuDim;
  // The slot as this bundle read it: a write to the slot register in the
  // same bundle must not move the result's ready time.
  MxuTiming &timing = core.mxuTiming[op[0]];
  timing.inputFree = core.now + kMxuPushCycles;
  timing.slotReady[slot] = core.now + kMxuPushCycles + kMxuPipelineCycles;
  core.busy(mxuBusyUnit(op[0]), "mxu.push", core.now,
            core.now + kMxuPushCycles);
  return true;
}

TPU_SEMANTICS(MxuPop) {
  const auto &op = inst.operands;
  int32_t slot = core.sreg(op[2]);
  if (!checkResultSlot(core, inst, slot))
    return false;
  // A slot holds the host's sums; NaNs become canonical as they leave the
  // MXU, which is the same as making each add's NaN canonical, since a NaN
  // stays NaN through every later add.
  if (core.offload && core.offload->isOffloaded(op[1], slot))
    core.offload->syncSlot(op[1], slot);
  VReg &out = core.writeVector(op[0]);
  const float *sums = core.state.mxus[op[1]].slot(slot);
  for (size_t i = 0; i < kWordsPerTile; ++i)
    out[i] = canonicalBitsOf(sums[i]);
  return true;
}

} // namespace tpu::sim
