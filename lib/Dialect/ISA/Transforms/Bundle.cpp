//===- Bundle.cpp - Pack instructions into VLIW bundles -------------------===//
//
// A list scheduler per basic block, in program order (an instruction never
// moves above the block's start or below its branch). The constraints come
// from ISA.def through isa::InstInfo (operand kinds, latencies, slots) and
// isa::verifyBundle (slot limits), so they cannot drift from the encoder's
// and the simulator's.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/ISA/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"

#include <map>

namespace tpu {
#define GEN_PASS_DEF_TPUBUNDLE
#include "tpu/Dialect/ISA/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;
using isa::Instruction;
using isa::Opcode;

namespace {

/// The program-order chains an instruction belongs to: its effects on
/// memory (VMEM, SMEM, DMA) or on the MXUs' state must stay in order with
/// the chain's other instructions. The chains are separate so that the
/// vector loads and stores of one piece of work can move past the pushes of
/// another: a push reads a vreg, not memory. A weight load reads VMEM and
/// stages weights, so it is on both; so is a latch, which waits for the
/// load: the VMEM writes after it in the program, safe because of that
/// wait, stay after it. So is halt. (tpu-sim traps a write to rows a
/// weight load is still shifting in, which this order allows before the
/// latch.)
enum Chain : unsigned { kMemoryChain = 1, kMxuChain = 2 };
constexpr unsigned kNumChains = 2;

unsigned chainsOf(Opcode opcode) {
  switch (isa::getInfo(opcode).unit) {
  case isa::Unit::VectorLoad:
  case isa::Unit::VectorStore:
  case isa::Unit::Dma:
    return kMemoryChain;
  case isa::Unit::Mxu:
    return opcode == Opcode::MxuLdw || opcode == Opcode::MxuLdwBf16 ||
                   opcode == Opcode::MxuLatch
               ? kMemoryChain | kMxuChain
               : kMxuChain;
  case isa::Unit::Sync:
    return kMemoryChain | kMxuChain;
  default:
    return opcode == Opcode::SLd || opcode == Opcode::SSt ? kMemoryChain : 0;
  }
}

bool isControlFlow(const Instruction &inst) {
  return inst.info().isControlFlow();
}

bool endsBlock(const Instruction &inst) {
  return isControlFlow(inst) || inst.opcode == Opcode::Halt;
}

struct BundlePass : public tpu::impl::TPUBundleBase<BundlePass> {
  void runOnOperation() override {
    SmallVector<isa::ir::ProgramOp> programs(
        getOperation().getOps<isa::ir::ProgramOp>());
    for (isa::ir::ProgramOp op : programs)
      if (failed(bundle(op)))
        return signalPassFailure();
  }

  LogicalResult bundle(isa::ir::ProgramOp op) {
    FailureOr<isa::Program> program = isa::ir::toProgram(op);
    if (failed(program))
      return failure();

    // The program as a sequence, remembering where each old bundle starts.
    std::vector<Instruction> code;
    std::vector<size_t> bundleStart;
    for (auto [index, bundle] : llvm::enumerate(program->bundles)) {
      bundleStart.push_back(code.size());
      llvm::SmallDenseSet<unsigned> written;
      for (const Instruction &inst : bundle.instructions) {
        isa::RegisterAccess access = isa::getRegisterAccess(inst);
        for (unsigned reg : access.reads)
          if (written.contains(reg))
            return op.emitError()
                   << "tpu-bundle: bundle " << index
                   << " reads a register another of its instructions "
                      "writes; give tpu-bundle one instruction per bundle";
        written.insert(access.writes.begin(), access.writes.end());
        if (inst.opcode != Opcode::Nop)
          code.push_back(inst);
      }
    }
    bundleStart.push_back(code.size());

    std::vector<bool> leader(code.size() + 1, false);
    leader[0] = true;
    for (size_t i = 0; i < code.size(); ++i) {
      if (endsBlock(code[i]))
        leader[i + 1] = true;
      if (isControlFlow(code[i])) {
        const isa::InstInfo &info = code[i].info();
        int64_t target = code[i].operands[info.getNumOperands() - 1];
        leader[bundleStart[target]] = true;
      }
    }

    std::vector<isa::Bundle> bundles;
    // Where each leader instruction's block starts in the new program.
    std::map<size_t, size_t> newStart;
    for (size_t begin = 0; begin < code.size();) {
      size_t end = begin + 1;
      while (end < code.size() && !leader[end])
        ++end;
      newStart[begin] = bundles.size();
      scheduleBlock(ArrayRef<Instruction>(code).slice(begin, end - begin),
                    bundles);
      begin = end;
    }
    newStart[code.size()] = bundles.size();
    for (isa::Bundle &bundle : bundles)
      for (Instruction &inst : bundle.instructions)
        if (isControlFlow(inst)) {
          int64_t &target = inst.operands[inst.info().getNumOperands() - 1];
          target = int64_t(newStart[bundleStart[target]]);
        }
    program->bundles = std::move(bundles);
    if (absl::Status status = isa::verifyProgram(*program); !status.ok())
      return op.emitError() << "tpu-bundle: produced an invalid program: "
                            << std::string(status.message());
    OpBuilder builder(op);
    isa::ir::buildProgram(builder, op.getLoc(), *program);
    op.erase();
    return success();
  }

  void scheduleBlock(ArrayRef<Instruction> block,
                     std::vector<isa::Bundle> &out) {
    std::vector<isa::Bundle> cycles;
    // Per register: when its last write becomes readable, the cycle of the
    // last write, and the last cycle that reads it.
    std::map<unsigned, size_t> ready, lastWrite, lastRead;
    // Per chain: the cycle of its last instruction.
    size_t lastInChain[kNumChains] = {};
    size_t latest = 0;
    auto place = [&](const Instruction &inst, size_t earliest) {
      size_t cycle = earliest;
      for (;; ++cycle) {
        if (cycle >= cycles.size())
          cycles.resize(cycle + 1);
        isa::Bundle trial = cycles[cycle];
        trial.instructions.push_back(inst);
        if (isa::verifyBundle(trial).ok())
          break;
      }
      cycles[cycle].instructions.push_back(inst);
      return cycle;
    };
    for (const Instruction &inst : block) {
      isa::RegisterAccess access = isa::getRegisterAccess(inst);
      size_t earliest = 0;
      for (unsigned reg : access.reads)
        if (ready.count(reg))
          earliest = std::max(earliest, ready[reg]);
      for (unsigned reg : access.writes) {
        if (lastWrite.count(reg))
          earliest = std::max(earliest, lastWrite[reg] + 1);
        if (lastRead.count(reg))
          earliest = std::max(earliest, lastRead[reg]);
      }
      unsigned chains = chainsOf(inst.opcode);
      for (unsigned chain = 0; chain < kNumChains; ++chain)
        if (chains & (1u << chain))
          earliest = std::max(earliest, lastInChain[chain]);
      if (endsBlock(inst))
        earliest = std::max(earliest, latest);
      size_t cycle = place(inst, earliest);
      for (unsigned reg : access.reads)
        lastRead[reg] = std::max(lastRead[reg], cycle);
      for (unsigned reg : access.writes) {
        lastWrite[reg] = cycle;
        ready[reg] = cycle + inst.info().latency;
      }
      for (unsigned chain = 0; chain < kNumChains; ++chain)
        if (chains & (1u << chain))
          lastInChain[chain] = cycle;
      latest = std::max(latest, cycle);
    }
    for (isa::Bundle &bundle : cycles)
      if (!bundle.instructions.empty())
        out.push_back(std::move(bundle));
  }
};

} // namespace
