//===- Dma.cpp - DMA between HBM and VMEM, and its semaphores -------------===//
//
// One engine moves one transfer at a time at the chip's HBM bandwidth; a
// transfer completes kDmaLatencyCycles after its last byte moves and then
// counts once on its semaphore. The data moves when the DMA issues; what
// makes that safe to model is the race checks: any access to VMEM rows or
// HBM tiles a DMA in flight still writes, and any write to what it still
// reads, traps, whether the access is a vector load or store, an MXU weight
// load or another DMA.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include <cmath>
#include <cstring>

namespace tpu::sim {

using isa::Instruction;
using isa::Opcode;

namespace {

/// "the dma.st issued at b5 (dma.st 1, s1, s3, s1, s1)", for messages.
std::string describe(const InFlightDma &dma) {
  return std::string("the ") + dma.inst->info().mnemonic + " issued at b" +
         std::to_string(dma.pc) + " (" + isa::formatInstruction(*dma.inst) +
         ")";
}

/// "... is still writing (done at cycle 130); wait on its semaphore first"
std::string stillBusy(const InFlightDma &dma, bool writing) {
  return describe(dma) + " is still " + (writing ? "writing" : "reading") +
         " (done at cycle " + std::to_string(dma.completion) +
         "); wait on its semaphore (dma.wait " +
         std::to_string(dma.inst->operands[0]) + ", ...) first";
}

/// Whether two accesses to the same place conflict: unless both read.
bool conflicts(bool aWrites, bool bWrites) { return aWrites || bWrites; }

} // namespace

bool checkDmaRace(Core &core, const Instruction &inst, int64_t first,
                  int64_t count, bool isWrite) {
  for (const InFlightDma &dma : core.dma.inFlight) {
    if (dma.completion <= core.now || first >= dma.vmemEnd ||
        first + count <= dma.vmemFirst || !conflicts(isWrite, dma.writesVmem()))
      continue;
    int64_t overlap = std::max(first, dma.vmemFirst);
    return core.trap(Trap::Kind::DmaRace,
                     std::string(inst.info().mnemonic) + " " +
                         (isWrite ? "writes" : "reads") + " VMEM row " +
                         std::to_string(overlap) + ", which " +
                         stillBusy(dma, dma.writesVmem()));
  }
  return true;
}

/// Traps if the DMA `dma` is about to issue conflicts with one in flight:
/// the same VMEM rows or the same HBM tiles (the exact tiles of a strided
/// transfer), one of the two writing them.
static bool checkDmaAgainstDmas(Core &core, const InFlightDma &dma) {
  for (const InFlightDma &other : core.dma.inFlight) {
    if (other.completion <= core.now)
      continue;
    const char *mnemonic = dma.inst->info().mnemonic;
    if (conflicts(dma.writesVmem(), other.writesVmem()) &&
        dma.vmemFirst < other.vmemEnd && other.vmemFirst < dma.vmemEnd &&
        dma.vmemFirst < dma.vmemEnd) {
      int64_t overlap = std::max(dma.vmemFirst, other.vmemFirst);
      return core.trap(Trap::Kind::DmaRace,
                       std::string(mnemonic) + " " +
                           (dma.writesVmem() ? "writes" : "reads") +
                           " VMEM row " + std::to_string(overlap) + ", which " +
                           stillBusy(other, other.writesVmem()));
    }
    if (!conflicts(dma.writesHbm(), other.writesHbm()))
      continue;
    // The smaller of the two transfers, tile by tile, against the other's
    // progression.
    bool mineSmaller = dma.count <= other.count;
    const InFlightDma &walk = mineSmaller ? dma : other;
    const InFlightDma &against = mineSmaller ? other : dma;
    for (int64_t i = 0; i < walk.count; ++i) {
      int64_t tile = walk.hbmFirst + i * walk.hbmStride;
      if (!against.touchesHbmTile(tile))
        continue;
      return core.trap(Trap::Kind::DmaRace,
                       std::string(mnemonic) + " " +
                           (dma.writesHbm() ? "writes" : "reads") +
                           " HBM tile " + std::to_string(tile) + ", which " +
                           stillBusy(other, other.writesHbm()));
    }
  }
  return true;
}

TPU_ISSUE_RULE(Dma) {
  const DmaEngine &dma = core.dma;
  switch (inst.opcode) {
  case Opcode::DmaLd:
  case Opcode::DmaSt:
    if (dma.inFlight.size() >= kMaxOutstandingDmas) {
      cause = StallCause::DmaQueue;
      return dma.inFlight[dma.inFlight.size() - kMaxOutstandingDmas].completion;
    }
    return 0;
  case Opcode::DmaWait: {
    int64_t sem = inst.operands[0], count = inst.operands[1];
    int64_t missing = count - core.state.semaphores[sem];
    const std::vector<uint64_t> &pending = dma.pending[sem];
    if (missing > 0 && size_t(missing) <= pending.size()) {
      cause = StallCause::DmaWait;
      return pending[missing - 1];
    }
    return 0;
  }
  default:
    return 0;
  }
}

namespace {

/// dma.ld and dma.st: `count` tiles between VMEM rows from `vmemRow` and HBM
/// tiles from `hbmTile`, `stride` apart.
bool transfer(Core &core, const Instruction &inst, bool load) {
  const auto &op = inst.operands;
  unsigned sem = unsigned(op[0]);
  int64_t vmemRow = load ? core.sreg(op[1]) : core.sreg(op[2]);
  int64_t hbmTile = load ? core.sreg(op[2]) : core.sreg(op[1]);
  int64_t count = core.sreg(op[3]);
  int64_t stride = core.sreg(op[4]);
  const char *mnemonic = inst.info().mnemonic;
  if (count < 0)
    return core.trap(Trap::Kind::OutOfBounds, std::string(mnemonic) +
                                                  ": negative tile count " +
                                                  std::to_string(count));
  if (vmemRow % kSublanes != 0)
    return core.trap(Trap::Kind::Misaligned,
                     std::string(mnemonic) + ": VMEM row " +
                         std::to_string(vmemRow) +
                         " is not tile-aligned (a multiple of 8)");
  if (!core.check(core.memory.checkVmemRows(vmemRow, count * kSublanes), inst))
    return false;
  InFlightDma dma{
      &inst,   core.state.pc, load,  vmemRow, vmemRow + count * kSublanes,
      hbmTile, stride,        count, 0};
  if (!checkDmaAgainstDmas(core, dma) ||
      (load && !checkWeightLoadRace(core, inst, dma.vmemFirst, dma.vmemEnd -
                                                               dma.vmemFirst)))
    return false;
  if (!load &&
      !core.check(core.memory.checkVmemRowsWritten(vmemRow, count * kSublanes),
                  inst))
    return false;
  // A tile is 8 consecutive VMEM rows.
  for (int64_t i = 0; i < count; ++i) {
    int64_t hbm = hbmTile + i * stride;
    uint32_t *vmem = core.memory.vmemRow(vmemRow + i * kSublanes);
    if (!core.check(load ? core.memory.readHbmTile(hbm, vmem)
                         : core.memory.writeHbmTile(hbm, vmem),
                    inst))
      return false;
  }
  uint64_t bytes = uint64_t(count) * kTileBytes;
  if (load) {
    core.stats.hbmBytesRead += bytes;
    core.memory.noteVmemWrite(vmemRow, count * kSublanes);
  } else {
    core.stats.hbmBytesWritten += bytes;
  }
  // The engine moves one transfer at a time; the fixed latency overlaps
  // with the next transfer.
  DmaEngine &engine = core.dma;
  uint64_t start = std::max(core.now, engine.free);
  uint64_t cycles = uint64_t(std::ceil(double(bytes) / engine.bytesPerCycle));
  engine.free = start + cycles;
  dma.completion = start + cycles + kDmaLatencyCycles;
  if (cycles > 0)
    core.busy(kDmaBusy, mnemonic, start, start + cycles);
  engine.inFlight.push_back(dma);
  engine.pending[sem].push_back(dma.completion);
  engine.lastIssuedAt[sem] = core.state.pc;
  return true;
}

} // namespace

TPU_SEMANTICS(DmaLd) { return transfer(core, inst, /*load=*/true); }
TPU_SEMANTICS(DmaSt) { return transfer(core, inst, /*load=*/false); }

TPU_SEMANTICS(DmaWait) {
  int64_t sem = inst.operands[0], count = inst.operands[1];
  std::vector<uint64_t> &pending = core.dma.pending[sem];
  size_t done = 0;
  while (done < pending.size() && pending[done] <= core.now)
    ++done;
  int64_t &semaphore = core.state.semaphores[sem];
  semaphore += int64_t(done);
  pending.erase(pending.begin(), pending.begin() + done);
  if (semaphore < count)
    return core.trap(Trap::Kind::DmaDeadlock,
                     "dma.wait " + std::to_string(sem) + ", " +
                         std::to_string(count) + " can never finish: only " +
                         std::to_string(semaphore + pending.size()) +
                         " DMA(s) on semaphore " + std::to_string(sem) +
                         " have been issued and not yet waited for");
  semaphore -= count;
  return true;
}

} // namespace tpu::sim
