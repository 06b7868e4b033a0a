//===- LowerToISA.cpp - Loop-level tpu IR to ISA instructions -------------===//
//
// Walks the planned entry function in program order and emits instructions:
// index arithmetic on the scalar unit, vector values in vregs, scf loops and
// ifs as compare-and-branch, every tpu loop-level op as its one instruction.
// The result is a tpu_isa.program with one instruction per bundle, correct
// but slow; tpu-bundle packs it.
//
// Registers: a value gets a register when it is defined and gives it back
// after the last op of its block that uses it (directly or in a nested
// region); loops define nothing that outlives an iteration, so that is
// exact. Constants take no register: each use materializes one (s0 is 0).
// s31 holds 1 for the unit strides of vector loads and stores.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tpu {
#define GEN_PASS_DEF_TPULOWERTOISA
#include "tpu/Conversion/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;
using isa::Instruction;
using isa::Opcode;

namespace {

constexpr int64_t kZeroReg = 0;
constexpr int64_t kOneReg = 31;

/// The registers of one class not holding a live value.
struct RegisterPool {
  llvm::SmallVector<int64_t> free;
  RegisterPool(int64_t first, int64_t last) {
    for (int64_t reg = last; reg >= first; --reg)
      free.push_back(reg);
  }
};

/// The instruction stream being written, with labels for branch targets.
struct Emitter {
  std::vector<Instruction> code;
  /// (instruction, operand index, label) whose target is patched at the end.
  std::vector<std::tuple<size_t, unsigned, unsigned>> fixups;
  std::vector<int64_t> labels;

  unsigned newLabel() {
    labels.push_back(-1);
    return unsigned(labels.size() - 1);
  }
  void bind(unsigned label) { labels[label] = int64_t(code.size()); }
  void emit(Opcode opcode, std::initializer_list<int64_t> operands) {
    Instruction inst;
    inst.opcode = opcode;
    unsigned i = 0;
    for (int64_t operand : operands)
      inst.operands[i++] = operand;
    code.push_back(inst);
  }
  /// A branch or jump whose last operand is `label`.
  void emitBranch(Opcode opcode, std::initializer_list<int64_t> operands,
                  unsigned label) {
    emit(opcode, operands);
    fixups.emplace_back(code.size() - 1, unsigned(operands.size()) - 1, label);
  }
  void patch() {
    for (auto [inst, operand, label] : fixups)
      code[inst].operands[operand] = labels[label];
  }
};

/// The lowering of one entry function. Everything it learns lives here, so
/// each run of the pass starts from nothing.
struct EntryLowering {
  Emitter out;
  // s0 reads 0 and s31 holds 1; the others are free.
  RegisterPool scalars{kZeroReg + 1, kOneReg - 1},
      vectors{0, isa::kNumVectorRegisters - 1};
  DenseMap<Value, int64_t> regs;
  /// Values whose register is released after the op has been emitted.
  DenseMap<Operation *, SmallVector<Value>> releaseAfter;
  /// Registers for constants and addresses, released after the current op.
  SmallVector<int64_t> scalarTemps, vectorTemps;
  /// Set by the first error; emission stops there.
  bool error = false;

  LogicalResult run(func::FuncOp func) {
    isa::Program program;
    program.chip = getChipOf(func);
    program.entry = func.getName().str();
    if (auto macs = func->getAttrOfType<IntegerAttr>(
            TPUDialect::getUsefulMacsAttrName()))
      program.usefulMacs = uint64_t(macs.getInt());
    if (failed(getSignature(func, program)))
      return failure();

    computeReleasePoints(func);
    out.emit(Opcode::SLi, {kOneReg, 1});
    for (Operation &op : func.getBody().front()) {
      lower(&op);
      if (error)
        return failure();
    }
    out.patch();
    for (const Instruction &inst : out.code)
      program.bundles.push_back(isa::Bundle{{inst}});
    if (absl::Status status = isa::verifyProgram(program); !status.ok())
      return func.emitError()
             << "tpu-lower-to-isa: the program cannot be encoded: "
             << std::string(status.message());
    OpBuilder builder(func);
    isa::ir::buildProgram(builder, func.getLoc(), program);
    func.erase();
    return success();
  }

  LogicalResult getSignature(func::FuncOp func, isa::Program &program) {
    auto signature =
        [&](Value value, MemRefType type, std::string name,
            IntegerAttr address) -> FailureOr<isa::TensorSignature> {
      if (!address || !type.getElementType().isF32())
        return func.emitError()
               << "tpu-lower-to-isa: " << name << " of @" << func.getName()
               << " must be a planned f32 HBM buffer (run tpu-lower-to-mxu "
                  "and tpu-plan-memory first), got "
               << value.getType();
      isa::TensorSignature tensor;
      tensor.name = name;
      tensor.shape = type.getShape().vec();
      tensor.hbmTile = uint32_t(address.getInt());
      return tensor;
    };
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      auto tensor = signature(
          arg, type, "arg" + std::to_string(arg.getArgNumber()),
          type ? func.getArgAttrOfType<IntegerAttr>(
                     arg.getArgNumber(), TPUDialect::getAddressAttrName())
               : IntegerAttr());
      if (failed(tensor))
        return failure();
      program.arguments.push_back(*tensor);
    }
    auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
    for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
      auto type = dyn_cast<MemRefType>(value.getType());
      auto tensor = signature(value, type, "result" + std::to_string(index),
                              type ? getAddress(value) : IntegerAttr());
      if (failed(tensor))
        return failure();
      program.results.push_back(*tensor);
    }
    return success();
  }

  static IntegerAttr getAddress(Value buffer) {
    while (auto view = buffer.getDefiningOp<TiledViewOp>())
      buffer = view.getSource();
    if (auto arg = dyn_cast<BlockArgument>(buffer)) {
      auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
      return func.getArgAttrOfType<IntegerAttr>(
          arg.getArgNumber(), TPUDialect::getAddressAttrName());
    }
    if (Operation *def = buffer.getDefiningOp())
      return def->getAttrOfType<IntegerAttr>(TPUDialect::getAddressAttrName());
    return {};
  }

  //===--------------------------------------------------------------------===//
  // Registers
  //===--------------------------------------------------------------------===//

  void computeReleasePoints(func::FuncOp func) {
    func.walk([&](Operation *op) {
      for (Value result : op->getResults()) {
        Block *block = op->getBlock();
        Operation *last = op;
        for (Operation *user : result.getUsers()) {
          Operation *ancestor = block->findAncestorOpInBlock(*user);
          if (ancestor && last->isBeforeInBlock(ancestor))
            last = ancestor;
        }
        releaseAfter[last].push_back(result);
      }
    });
  }

  void fail(Operation *op, const Twine &message) {
    if (!error)
      op->emitError("tpu-lower-to-isa: " + message);
    error = true;
  }

  static bool isVector(Value value) {
    return llvm::isa<VectorType>(value.getType());
  }

  int64_t allocate(Operation *op, RegisterPool &pool, const char *kind) {
    if (pool.free.empty()) {
      fail(op, Twine("out of ") + kind +
                   " registers; the program keeps too many values live");
      return 0;
    }
    int64_t reg = pool.free.back();
    pool.free.pop_back();
    return reg;
  }

  /// The register for `result`, allocated now.
  int64_t define(Operation *op, Value result) {
    int64_t reg = isVector(result) ? allocate(op, vectors, "vector")
                                   : allocate(op, scalars, "scalar");
    regs[result] = reg;
    return reg;
  }

  std::optional<int64_t> getConstantInt(Value value) {
    APInt constant;
    if (matchPattern(value, m_ConstantInt(&constant)))
      return constant.getSExtValue();
    return std::nullopt;
  }

  int64_t scalarTemp(Operation *op) {
    int64_t reg = allocate(op, scalars, "scalar");
    scalarTemps.push_back(reg);
    return reg;
  }

  /// A register holding the scalar `value`.
  int64_t use(Operation *op, Value value) {
    if (std::optional<int64_t> constant = getConstantInt(value)) {
      if (*constant == 0)
        return kZeroReg;
      if (*constant == 1)
        return kOneReg;
      int64_t reg = scalarTemp(op);
      out.emit(Opcode::SLi, {reg, *constant});
      return reg;
    }
    auto it = regs.find(value);
    if (it == regs.end()) {
      fail(op, "operand has no register (its definition was not lowered)");
      return 0;
    }
    return it->second;
  }

  /// A vector register holding `value`; splat constants are broadcast.
  int64_t useVector(Operation *op, Value value) {
    DenseElementsAttr splat;
    if (matchPattern(value, m_Constant(&splat)) && splat.isSplat()) {
      uint32_t bits = uint32_t(
          splat.getSplatValue<APFloat>().bitcastToAPInt().getZExtValue());
      int64_t source = bits == 0 ? kZeroReg : scalarTemp(op);
      if (bits != 0)
        out.emit(Opcode::SLi, {source, int64_t(int32_t(bits))});
      int64_t reg = allocate(op, vectors, "vector");
      vectorTemps.push_back(reg);
      out.emit(Opcode::VBcast, {reg, source});
      return reg;
    }
    return use(op, value);
  }

  /// A register holding `offset + base`: an address in HBM tiles or VMEM
  /// rows.
  int64_t address(Operation *op, Value offset, int64_t base) {
    if (std::optional<int64_t> constant = getConstantInt(offset)) {
      if (*constant + base == 0)
        return kZeroReg;
      int64_t reg = scalarTemp(op);
      out.emit(Opcode::SLi, {reg, *constant + base});
      return reg;
    }
    int64_t reg = use(op, offset);
    if (base == 0)
      return reg;
    int64_t sum = scalarTemp(op);
    out.emit(Opcode::SAddi, {sum, reg, base});
    return sum;
  }

  int64_t baseOf(Operation *op, Value buffer) {
    IntegerAttr attr = getAddress(buffer);
    if (!attr)
      fail(op, "buffer has no address (run tpu-plan-memory first)");
    return attr ? attr.getInt() : 0;
  }

  void releaseTemps() {
    for (int64_t reg : scalarTemps)
      scalars.free.push_back(reg);
    for (int64_t reg : vectorTemps)
      vectors.free.push_back(reg);
    scalarTemps.clear();
    vectorTemps.clear();
  }

  void release(Operation *op) {
    auto it = releaseAfter.find(op);
    if (it == releaseAfter.end())
      return;
    for (Value value : it->second) {
      auto reg = regs.find(value);
      if (reg == regs.end())
        continue;
      (isVector(value) ? vectors : scalars).free.push_back(reg->second);
      regs.erase(reg);
    }
  }

  //===--------------------------------------------------------------------===//
  // Ops
  //===--------------------------------------------------------------------===//

  void lowerBlock(Block &block) {
    for (Operation &op : block) {
      lower(&op);
      if (error)
        return;
    }
  }

  /// Whether `value` is only a branch condition, lowered at its scf.if.
  static bool isBranchOnly(Value value) {
    return llvm::all_of(value.getUsers(), [](Operation *user) {
      return llvm::isa<scf::IfOp>(user);
    });
  }

  void lower(Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](arith::ConstantOp) {})
        .Case([&](memref::AllocOp) {})
        .Case([&](memref::DeallocOp) {})
        .Case([&](TiledViewOp) {})
        .Case([&](scf::YieldOp) {})
        .Case([&](func::ReturnOp) { out.emit(Opcode::Halt, {}); })
        .Case([&](arith::AddIOp add) { lowerAdd(add); })
        .Case([&](arith::SubIOp sub) {
          binary(sub, Opcode::SSub, sub.getLhs(), sub.getRhs());
        })
        .Case([&](arith::MulIOp mul) {
          binary(mul, Opcode::SMul, mul.getLhs(), mul.getRhs());
        })
        .Case([&](arith::AndIOp band) {
          binary(band, Opcode::SAnd, band.getLhs(), band.getRhs());
        })
        .Case([&](arith::MinSIOp min) { lowerMin(min); })
        .Case([&](arith::CmpIOp cmp) { lowerCmpI(cmp); })
        .Case([&](arith::SelectOp select) { lowerSelect(select); })
        .Case([&](arith::AddFOp add) {
          vectorBinary(add, Opcode::VAdd, add.getLhs(), add.getRhs());
        })
        .Case([&](arith::SubFOp sub) {
          vectorBinary(sub, Opcode::VSub, sub.getLhs(), sub.getRhs());
        })
        .Case([&](arith::CmpFOp cmp) { lowerCmpF(cmp); })
        .Case([&](RoundToBF16Op round) {
          int64_t input = useVector(op, round.getInput());
          out.emit(round.getRounding() == Rounding::NearestEven
                       ? Opcode::VRneBf16
                       : Opcode::VTruncBf16,
                   {define(op, round.getResult()), input});
        })
        .Case([&](VectorLoadOp load) {
          int64_t row =
              address(op, load.getRow(), baseOf(op, load.getSource()));
          out.emit(Opcode::VLd,
                   {define(op, load.getResult()), row, 0, kOneReg, 0xff});
        })
        .Case([&](VectorStoreOp store) {
          int64_t value = useVector(op, store.getValue());
          int64_t row =
              address(op, store.getRow(), baseOf(op, store.getTarget()));
          out.emit(Opcode::VSt, {value, row, 0, kOneReg, 0xff});
        })
        .Case([&](DmaLoadOp dma) {
          int64_t vmem =
              address(op, dma.getVmemRow(), baseOf(op, dma.getTarget()));
          int64_t hbm =
              address(op, dma.getHbmTile(), baseOf(op, dma.getSource()));
          out.emit(Opcode::DmaLd,
                   {int64_t(dma.getSemaphore()), vmem, hbm,
                    use(op, dma.getCount()), use(op, dma.getHbmStride())});
        })
        .Case([&](DmaStoreOp dma) {
          int64_t vmem =
              address(op, dma.getVmemRow(), baseOf(op, dma.getSource()));
          int64_t hbm =
              address(op, dma.getHbmTile(), baseOf(op, dma.getTarget()));
          out.emit(Opcode::DmaSt,
                   {int64_t(dma.getSemaphore()), hbm, vmem,
                    use(op, dma.getCount()), use(op, dma.getHbmStride())});
        })
        .Case([&](DmaWaitOp wait) {
          out.emit(Opcode::DmaWait,
                   {int64_t(wait.getSemaphore()), int64_t(wait.getCount())});
        })
        .Case([&](MxuLoadWeightsOp ldw) {
          int64_t row =
              address(op, ldw.getVmemRow(), baseOf(op, ldw.getSource()));
          out.emit(Opcode::MxuLdw,
                   {int64_t(ldw.getMxu()), row, use(op, ldw.getStride())});
        })
        .Case([&](MxuPushOp push) {
          out.emit(Opcode::MxuPush,
                   {int64_t(push.getMxu()), useVector(op, push.getRows()),
                    use(op, push.getSlot()), push.getAccumulate() ? 1 : 0});
        })
        .Case([&](MxuPopOp pop) {
          int64_t slot = use(op, pop.getSlot());
          out.emit(Opcode::MxuPop,
                   {define(op, pop.getResult()), int64_t(pop.getMxu()), slot});
        })
        .Case([&](TransposeBlockOp transpose) { lowerTranspose(transpose); })
        .Case([&](scf::ForOp loop) { lowerFor(loop); })
        .Case([&](scf::IfOp branch) { lowerIf(branch); })
        .Default([&](Operation *op) {
          fail(op, "cannot lower '" + op->getName().getStringRef() +
                       "' to instructions; expected the loop-level ops "
                       "tpu-lower-to-mxu produces");
        });
    releaseTemps();
    release(op);
  }

  void binary(Operation *op, Opcode opcode, Value lhs, Value rhs) {
    int64_t a = use(op, lhs), b = use(op, rhs);
    out.emit(opcode, {define(op, op->getResult(0)), a, b});
  }

  void vectorBinary(Operation *op, Opcode opcode, Value lhs, Value rhs) {
    int64_t a = useVector(op, lhs), b = useVector(op, rhs);
    out.emit(opcode, {define(op, op->getResult(0)), a, b});
  }

  void lowerAdd(arith::AddIOp add) {
    Value lhs = add.getLhs(), rhs = add.getRhs();
    if (getConstantInt(lhs))
      std::swap(lhs, rhs);
    std::optional<int64_t> imm = getConstantInt(rhs);
    if (!imm || *imm != int64_t(int32_t(*imm)))
      return binary(add, Opcode::SAdd, lhs, rhs);
    int64_t a = use(add, lhs);
    out.emit(Opcode::SAddi, {define(add, add.getResult()), a, *imm});
  }

  /// min(a, b) = b + ((a - b) & -(a < b)), branch-free.
  void lowerMin(arith::MinSIOp min) {
    int64_t a = use(min, min.getLhs()), b = use(min, min.getRhs());
    int64_t less = scalarTemp(min), diff = scalarTemp(min);
    out.emit(Opcode::SSlt, {less, a, b});
    out.emit(Opcode::SSub, {less, kZeroReg, less});
    out.emit(Opcode::SSub, {diff, a, b});
    out.emit(Opcode::SAnd, {diff, diff, less});
    out.emit(Opcode::SAdd, {define(min, min.getResult()), b, diff});
  }

  void lowerCmpI(arith::CmpIOp cmp) {
    if (isBranchOnly(cmp.getResult()))
      return; // lowered into the branch at each scf.if
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::slt:
      return binary(cmp, Opcode::SSlt, lhs, rhs);
    case arith::CmpIPredicate::sgt:
      return binary(cmp, Opcode::SSlt, rhs, lhs);
    default:
      return fail(cmp, "only slt and sgt comparisons produce a value; other "
                       "predicates may only be branch conditions");
    }
  }

  void lowerSelect(arith::SelectOp select) {
    if (isVector(select.getResult())) {
      // v.sel vD, vMask, vA, vB: vMask != 0 ? vA : vB
      int64_t mask = useVector(select, select.getCondition());
      int64_t a = useVector(select, select.getTrueValue());
      int64_t b = useVector(select, select.getFalseValue());
      out.emit(Opcode::VSel, {define(select, select.getResult()), mask, a, b});
      return;
    }
    // b + cond * (a - b), cond being 0 or 1.
    int64_t cond = use(select, select.getCondition());
    int64_t a = use(select, select.getTrueValue());
    int64_t b = use(select, select.getFalseValue());
    int64_t diff = scalarTemp(select);
    out.emit(Opcode::SSub, {diff, a, b});
    out.emit(Opcode::SMul, {diff, diff, cond});
    out.emit(Opcode::SAdd, {define(select, select.getResult()), b, diff});
  }

  void lowerCmpF(arith::CmpFOp cmp) {
    Opcode opcode;
    switch (cmp.getPredicate()) {
    case arith::CmpFPredicate::UNE:
      opcode = Opcode::VCmpNe;
      break;
    case arith::CmpFPredicate::OEQ:
      opcode = Opcode::VCmpEq;
      break;
    case arith::CmpFPredicate::OLT:
      opcode = Opcode::VCmpLt;
      break;
    case arith::CmpFPredicate::OLE:
      opcode = Opcode::VCmpLe;
      break;
    default:
      return fail(cmp, "vector comparison '" +
                           arith::stringifyCmpFPredicate(cmp.getPredicate()) +
                           "' has no instruction; use une, oeq, olt or ole");
    }
    vectorBinary(cmp, opcode, cmp.getLhs(), cmp.getRhs());
  }

  /// v.xpose transposes v0..v15 into v16..v31: the block is loaded into the
  /// first group and stored from the second.
  void lowerTranspose(TransposeBlockOp transpose) {
    if (vectors.free.size() != isa::kNumVectorRegisters)
      return fail(transpose, "tpu.transpose_block needs all 32 vector "
                             "registers, but a vector value is live across it");
    int64_t source = address(transpose, transpose.getSourceRow(),
                             baseOf(transpose, transpose.getSource()));
    int64_t target = address(transpose, transpose.getTargetRow(),
                             baseOf(transpose, transpose.getTarget()));
    constexpr int64_t kGroup = 16;
    for (int64_t g = 0; g < kGroup; ++g)
      out.emit(Opcode::VLd, {g, source, g * 8, kOneReg, 0xff});
    out.emit(Opcode::VXpose, {kGroup, 0});
    for (int64_t g = 0; g < kGroup; ++g)
      out.emit(Opcode::VSt, {kGroup + g, target, g * 8, kOneReg, 0xff});
  }

  /// for (iv = lb; iv < ub; iv += step): a guard, the body, and a latch that
  /// branches back.
  void lowerFor(scf::ForOp loop) {
    if (!loop.getInitArgs().empty())
      return fail(loop, "loops with iteration arguments are not supported");
    std::optional<int64_t> step = getConstantInt(loop.getStep());
    if (!step || *step <= 0)
      return fail(loop, "loop steps must be positive constants");
    Value iv = loop.getInductionVar();
    int64_t ivReg = define(loop, iv);
    int64_t lb = use(loop, loop.getLowerBound());
    out.emit(Opcode::SAddi, {ivReg, lb, 0});
    releaseTemps();
    unsigned top = out.newLabel(), done = out.newLabel();
    std::optional<int64_t> lbConst = getConstantInt(loop.getLowerBound());
    std::optional<int64_t> ubConst = getConstantInt(loop.getUpperBound());
    if (!lbConst || !ubConst || *lbConst >= *ubConst) {
      out.emitBranch(Opcode::BrGe, {ivReg, use(loop, loop.getUpperBound()), 0},
                     done);
      releaseTemps();
    }
    out.bind(top);
    lowerBlock(*loop.getBody());
    if (error)
      return;
    out.emit(Opcode::SAddi, {ivReg, ivReg, *step});
    out.emitBranch(Opcode::BrLt, {ivReg, use(loop, loop.getUpperBound()), 0},
                   top);
    releaseTemps();
    out.bind(done);
    scalars.free.push_back(ivReg);
    regs.erase(iv);
  }

  /// Branches to the else part (or past the then part) when the condition
  /// is false.
  void lowerIf(scf::IfOp branch) {
    if (branch.getNumResults() != 0)
      return fail(branch, "scf.if with results is not supported");
    unsigned otherwise = out.newLabel(), done = out.newLabel();
    Value cond = branch.getCondition();
    auto cmp = cond.getDefiningOp<arith::CmpIOp>();
    if (cmp && isBranchOnly(cond)) {
      int64_t a = use(branch, cmp.getLhs()), b = use(branch, cmp.getRhs());
      switch (cmp.getPredicate()) {
      case arith::CmpIPredicate::eq:
        out.emitBranch(Opcode::BrNe, {a, b, 0}, otherwise);
        break;
      case arith::CmpIPredicate::ne:
        out.emitBranch(Opcode::BrEq, {a, b, 0}, otherwise);
        break;
      case arith::CmpIPredicate::slt:
        out.emitBranch(Opcode::BrGe, {a, b, 0}, otherwise);
        break;
      case arith::CmpIPredicate::sge:
        out.emitBranch(Opcode::BrLt, {a, b, 0}, otherwise);
        break;
      case arith::CmpIPredicate::sgt:
        out.emitBranch(Opcode::BrGe, {b, a, 0}, otherwise);
        break;
      case arith::CmpIPredicate::sle:
        out.emitBranch(Opcode::BrLt, {b, a, 0}, otherwise);
        break;
      default:
        return fail(cmp, "unsigned comparisons have no branch instruction");
      }
    } else {
      out.emitBranch(Opcode::BrEq, {use(branch, cond), kZeroReg, 0}, otherwise);
    }
    releaseTemps();
    lowerBlock(*branch.thenBlock());
    bool hasElse = !branch.getElseRegion().empty();
    if (hasElse)
      out.emitBranch(Opcode::Jmp, {0}, done);
    out.bind(otherwise);
    if (hasElse)
      lowerBlock(*branch.elseBlock());
    out.bind(done);
  }
};

struct LowerToISAPass : public tpu::impl::TPULowerToISABase<LowerToISAPass> {
  using TPULowerToISABase::TPULowerToISABase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entryName);
    if (!func) {
      module.emitError() << "tpu-lower-to-isa: no func.func @" << entryName
                         << " (name the entry with entry=NAME)";
      return signalPassFailure();
    }
    if (failed(EntryLowering().run(func)))
      signalPassFailure();
  }
};

} // namespace
