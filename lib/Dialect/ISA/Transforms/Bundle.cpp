//===- Bundle.cpp - Pack instructions into VLIW bundles -------------------===//
//
// A list scheduler per basic block (an instruction never moves above the
// block's start or below its branch): cycle by cycle, the ready
// instructions with the longest path to the block's end first. The
// constraints come from ISA.def through isa::InstInfo (operand kinds,
// latencies, issue intervals, slots) and isa::verifyBundle (slot limits),
// and the MXU's push time from tpu/Support/Chip.h, so they cannot drift
// from the encoder's and the simulator's.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/ISA/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Support/Chip.h"

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

/// A basic block's dependences: for each instruction, the later ones that
/// must wait for it and by how many cycles (its latency for a register it
/// writes; 1 to write a register again; 0 to write one it reads, since a
/// bundle reads first, to follow it on a chain, or to be the block's
/// branch; kMxuPushCycles from a push to the next to its MXU; the issue
/// interval from an instruction that occupies its unit longer), how many
/// it waits for, and the longest such path from it to the block's end.
struct BlockGraph {
  std::vector<SmallVector<std::pair<size_t, size_t>, 4>> succs;
  std::vector<unsigned> numPreds;
  std::vector<size_t> height;
};

BlockGraph buildGraph(ArrayRef<Instruction> block) {
  size_t count = block.size();
  BlockGraph graph;
  graph.succs.resize(count);
  graph.numPreds.assign(count, 0);
  auto addEdge = [&](size_t from, size_t to, size_t distance) {
    graph.succs[from].push_back({to, distance});
    ++graph.numPreds[to];
  };
  // Per register: its last writer and the readers since.
  std::map<unsigned, size_t> lastWrite;
  std::map<unsigned, SmallVector<size_t, 4>> readsSince;
  std::optional<size_t> lastInChain[kNumChains];
  // Per MXU, its last push: the next one waits for its rows to stream in
  // (kMxuPushCycles). Spaced so, a push leaves the cycles between it and
  // the one before to the other units' work; placed as soon as its
  // operands are, it would stall the whole core there while that work
  // waited behind it. Per unit, its last instruction that occupies it for
  // more than a cycle (the issue interval, ISA.def).
  std::map<int64_t, size_t> lastPush;
  std::map<isa::Unit, size_t> lastLongIssue;
  for (size_t i = 0; i < count; ++i) {
    const Instruction &inst = block[i];
    const isa::InstInfo &info = inst.info();
    isa::RegisterAccess access = isa::getRegisterAccess(inst);
    for (unsigned reg : access.reads)
      if (auto it = lastWrite.find(reg); it != lastWrite.end())
        addEdge(it->second, i, block[it->second].info().latency);
    for (unsigned reg : access.writes) {
      if (auto it = lastWrite.find(reg); it != lastWrite.end())
        addEdge(it->second, i, 1);
      for (size_t reader : readsSince[reg])
        if (reader != i)
          addEdge(reader, i, 0);
    }
    for (unsigned reg : access.reads)
      readsSince[reg].push_back(i);
    for (unsigned reg : access.writes) {
      lastWrite[reg] = i;
      readsSince[reg].clear();
    }
    unsigned chains = chainsOf(inst.opcode);
    for (unsigned chain = 0; chain < kNumChains; ++chain)
      if (chains & (1u << chain)) {
        if (lastInChain[chain])
          addEdge(*lastInChain[chain], i, 0);
        lastInChain[chain] = i;
      }
    if (inst.opcode == Opcode::MxuPush) {
      if (auto it = lastPush.find(inst.operands[0]); it != lastPush.end())
        addEdge(it->second, i, kMxuPushCycles);
      lastPush[inst.operands[0]] = i;
    }
    if (auto it = lastLongIssue.find(info.unit); it != lastLongIssue.end())
      addEdge(it->second, i, block[it->second].info().issueInterval);
    if (info.issueInterval > 1)
      lastLongIssue[info.unit] = i;
  }
  // The block's branch (or halt) comes after everything else.
  if (count && endsBlock(block.back()))
    for (size_t i = 0; i + 1 < count; ++i)
      addEdge(i, count - 1, 0);
  // An instruction's own time counts too: its latency, or a push's rows.
  graph.height.assign(count, 0);
  for (size_t i = count; i-- > 0;) {
    size_t own = block[i].opcode == Opcode::MxuPush ? kMxuPushCycles
                                                    : block[i].info().latency;
    size_t height = own;
    for (auto [succ, distance] : graph.succs[i])
      height = std::max(height, distance + graph.height[succ]);
    graph.height[i] = height;
  }
  return graph;
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

  /// Packs one basic block: a list scheduler over its dependence graph,
  /// cycle by cycle, taking first the ready instructions with the longest
  /// path to the block's end (the critical path), then program order. The
  /// block's branch (or halt) ends its last bundle.
  void scheduleBlock(ArrayRef<Instruction> block,
                     std::vector<isa::Bundle> &out) {
    size_t count = block.size();
    BlockGraph graph = buildGraph(block);

    std::vector<isa::Bundle> cycles;
    std::vector<size_t> earliest(count, 0);
    std::vector<unsigned> waitingFor = graph.numPreds;
    // Instructions whose predecessors are all placed, by priority.
    auto before = [&](size_t a, size_t b) {
      return graph.height[a] != graph.height[b]
                 ? graph.height[a] > graph.height[b]
                 : a < b;
    };
    std::vector<size_t> ready;
    for (size_t i = 0; i < count; ++i)
      if (!waitingFor[i])
        ready.push_back(i);
    for (size_t cycle = 0, placed = 0; placed < count; ++cycle) {
      cycles.emplace_back();
      isa::Bundle &bundle = cycles.back();
      // An instruction placed here may make another ready in this same
      // cycle (an edge of distance 0: a chain, or a write after a read).
      for (bool progress = true; progress;) {
        progress = false;
        llvm::sort(ready, before);
        for (size_t r = 0; r < ready.size(); ++r) {
          size_t i = ready[r];
          if (earliest[i] > cycle)
            continue;
          bundle.instructions.push_back(block[i]);
          if (!isa::verifyBundle(bundle).ok()) {
            // Alone, each instruction makes a valid bundle (the input's).
            assert(bundle.instructions.size() > 1 && "an invalid instruction");
            bundle.instructions.pop_back();
            continue;
          }
          ++placed;
          ready.erase(ready.begin() + r);
          for (auto [succ, distance] : graph.succs[i]) {
            earliest[succ] = std::max(earliest[succ], cycle + distance);
            if (--waitingFor[succ] == 0)
              ready.push_back(succ);
          }
          progress = true;
          break;
        }
      }
    }
    for (isa::Bundle &bundle : cycles)
      if (!bundle.instructions.empty())
        out.push_back(std::move(bundle));
  }
};

} // namespace
