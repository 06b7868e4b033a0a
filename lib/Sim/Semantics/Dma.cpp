//===- Dma.cpp - DMA between HBM and VMEM, and its semaphores -------------===//
//
// One engine moves one transfer at a time at the chip's HBM bandwidth; a
// transfer completes kDmaLatencyCycles after its last byte moves and then
// counts once on its semaphore. The data moves when the DMA issues; what
// makes that safe to model is the race check: an access to VMEM a DMA in
// flight still writes (or, for a write, reads) traps.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include <cmath>
#include <cstring>

namespace tpu::sim {

using isa::Instruction;
using isa::Opcode;

bool checkDmaRace(Core &core, const Instruction &inst, int64_t first,
                  int64_t count, bool isWrite) {
  for (const InFlightDma &dma : core.dma.inFlight) {
    if (dma.completion <= core.now || first >= dma.vmemEnd ||
        first + count <= dma.vmemFirst)
      continue;
    if (!dma.writesVmem && !isWrite)
      continue; // reading what a store-DMA also reads is fine
    std::string access = isWrite ? "writes" : "reads";
    std::string dmaDoes = dma.writesVmem ? "writing" : "reading";
    return core.trap(
        Trap::Kind::DmaRace,
        std::string(inst.info().mnemonic) + " " + access + " VMEM rows [" +
            std::to_string(first) + ", " + std::to_string(first + count) +
            ") that the DMA issued at b" + std::to_string(dma.pc) +
            " is still " + dmaDoes + " (rows [" +
            std::to_string(dma.vmemFirst) + ", " + std::to_string(dma.vmemEnd) +
            "), done at cycle " + std::to_string(dma.completion) +
            "); wait on its semaphore first");
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
  if (!core.check(core.memory.checkVmemRows(vmemRow, count * kSublanes),
                  Trap::Kind::OutOfBounds, inst))
    return false;
  Tile tile;
  for (int64_t i = 0; i < count; ++i) {
    int64_t hbm = hbmTile + i * stride;
    uint32_t *vmem = core.memory.vmemRow(vmemRow + i * kSublanes);
    if (load) {
      if (!core.check(core.memory.readHbmTile(hbm, tile),
                      Trap::Kind::OutOfBounds, inst))
        return false;
      std::memcpy(vmem, tile.data(), sizeof(Tile));
    } else {
      std::memcpy(tile.data(), vmem, sizeof(Tile));
      if (!core.check(core.memory.writeHbmTile(hbm, tile),
                      Trap::Kind::OutOfBounds, inst))
        return false;
    }
  }
  uint64_t bytes = uint64_t(count) * kTileBytes;
  if (load) {
    core.stats.hbmBytesRead += bytes;
    if (count > 0)
      core.memory.noteVmemWrite(vmemRow + count * kSublanes - 1);
  } else {
    core.stats.hbmBytesWritten += bytes;
  }
  // The engine moves one transfer at a time; the fixed latency overlaps
  // with the next transfer.
  DmaEngine &dma = core.dma;
  uint64_t start = std::max(core.now, dma.free);
  uint64_t cycles = uint64_t(std::ceil(double(bytes) / dma.bytesPerCycle));
  dma.free = start + cycles;
  uint64_t completion = start + cycles + kDmaLatencyCycles;
  dma.lastCompletion = std::max(dma.lastCompletion, completion);
  if (cycles > 0)
    core.busy(kDmaBusy, mnemonic, start, start + cycles);
  dma.inFlight.push_back(
      {load, vmemRow, vmemRow + count * kSublanes, completion, core.state.pc});
  dma.pending[sem].push_back(completion);
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
