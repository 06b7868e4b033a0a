//===- InstructionSelector.cpp - Loop-level ops to instructions -----------===//

#include "InstructionSelector.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "tpu/Conversion/TPUToISA/VpuOps.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpu;
using isa::Opcode;
using isa::RegisterFile;

namespace {

/// The instruction that combines each sublane's lanes by `kind`.
Opcode getLaneReduceOpcode(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
    return Opcode::VRsum;
  case ReductionKind::Max:
    return Opcode::VRmax;
  case ReductionKind::Min:
    return Opcode::VRmin;
  case ReductionKind::MaxNum:
    return Opcode::VRmaxnum;
  case ReductionKind::MinNum:
    return Opcode::VRminnum;
  }
  llvm_unreachable("a reduction kind");
}

} // namespace

bool tpu::isBranchOnly(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) {
    return llvm::isa<scf::IfOp>(user) || isBranchConjunction(user);
  });
}

bool tpu::isBranchConjunction(Operation *op) {
  auto band = dyn_cast<arith::AndIOp>(op);
  return band && band.getType().isInteger(1) && isBranchOnly(band);
}

namespace {

/// The v.cmp for `predicate`, and whether it takes the operands swapped
/// (a > b is b < a), if there is one.
struct VectorCompare {
  Opcode opcode;
  bool swapped;
};

std::optional<VectorCompare> getVectorCompare(arith::CmpFPredicate predicate) {
  switch (predicate) {
  case arith::CmpFPredicate::UNE:
    return VectorCompare{Opcode::VCmpNe, false};
  case arith::CmpFPredicate::OEQ:
    return VectorCompare{Opcode::VCmpEq, false};
  case arith::CmpFPredicate::OLT:
    return VectorCompare{Opcode::VCmpLt, false};
  case arith::CmpFPredicate::OLE:
    return VectorCompare{Opcode::VCmpLe, false};
  case arith::CmpFPredicate::OGT:
    return VectorCompare{Opcode::VCmpLt, true};
  case arith::CmpFPredicate::OGE:
    return VectorCompare{Opcode::VCmpLe, true};
  default:
    return std::nullopt;
  }
}

} // namespace

bool tpu::isVpuOp(Operation *op) {
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    return getVectorCompare(cmp.getPredicate()).has_value();
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return llvm::isa<FloatAttr>(constant.getValue());
  if (llvm::isa<arith::SelectOp>(op))
    return true;
#define TPU_VPU_OP(OP, OPCODE)                                                 \
  if (llvm::isa<OP>(op))                                                       \
    return true;
#include "tpu/Conversion/TPUToISA/VpuOps.def"
  return false;
}

IntegerAttr tpu::getPlannedAddress(Value buffer) {
  while (auto view = buffer.getDefiningOp<TiledViewOp>())
    buffer = view.getSource();
  if (auto arg = dyn_cast<BlockArgument>(buffer)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    return func ? func.getArgAttrOfType<IntegerAttr>(
                      arg.getArgNumber(), TPUDialect::getAddressAttrName())
                : IntegerAttr();
  }
  if (auto read = buffer.getDefiningOp<memref::GetGlobalOp>()) {
    Operation *global =
        SymbolTable::lookupNearestSymbolFrom(read, read.getNameAttr());
    return global ? global->getAttrOfType<IntegerAttr>(
                        TPUDialect::getAddressAttrName())
                  : IntegerAttr();
  }
  if (Operation *def = buffer.getDefiningOp())
    return def->getAttrOfType<IntegerAttr>(TPUDialect::getAddressAttrName());
  return {};
}

namespace {
bool fitsVmemImmediate(int64_t imm) {
  return isa::isValidOperand(isa::OperandKind::Imm16, imm);
}
} // namespace

std::optional<FoldedOffset> tpu::getFoldedOffset(Value row) {
  auto add = row.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  Value lhs = add.getLhs(), rhs = add.getRhs();
  if (getConstantIntValue(lhs))
    std::swap(lhs, rhs);
  std::optional<int64_t> constant = getConstantIntValue(rhs);
  if (!constant || getConstantIntValue(lhs))
    return std::nullopt;
  // Every user takes it as an address with room for it in the immediate:
  // a v.ld's or v.st's row (its only index operand: 16 bits), or a DMA's
  // or weight load's VMEM row or HBM tile, whose base is an s.addi's
  // immediate (32 bits), never their counts or strides.
  auto fitsAddressImmediate = [](int64_t imm) {
    return isa::isValidOperand(isa::OperandKind::Imm32, imm);
  };
  auto folds = [&](OpOperand &use) {
    Operation *user = use.getOwner();
    Value buffer;
    bool shortImmediate = false;
    if (auto load = dyn_cast<VectorLoadOp>(user)) {
      buffer = load.getSource();
      shortImmediate = true;
    } else if (auto store = dyn_cast<VectorStoreOp>(user)) {
      buffer = store.getTarget();
      shortImmediate = true;
    } else if (auto dma = dyn_cast<DmaLoadOp>(user)) {
      if (&use == &dma.getVmemRowMutable())
        buffer = dma.getTarget();
      else if (&use == &dma.getHbmTileMutable())
        buffer = dma.getSource();
    } else if (auto dma = dyn_cast<DmaStoreOp>(user)) {
      if (&use == &dma.getVmemRowMutable())
        buffer = dma.getSource();
      else if (&use == &dma.getHbmTileMutable())
        buffer = dma.getTarget();
    } else if (auto ldw = dyn_cast<MxuLoadWeightsOp>(user)) {
      if (&use == &ldw.getVmemRowMutable())
        buffer = ldw.getSource();
    }
    IntegerAttr base = buffer ? getPlannedAddress(buffer) : IntegerAttr();
    if (!base)
      return false;
    int64_t imm = base.getInt() + *constant;
    return shortImmediate ? fitsVmemImmediate(imm) : fitsAddressImmediate(imm);
  };
  if (row.use_empty() || !llvm::all_of(row.getUses(), folds))
    return std::nullopt;
  return FoldedOffset{lhs, *constant};
}

int64_t InstructionSelector::useConstant(Operation *op, int64_t constant) {
  if (constant == 0)
    return kZeroReg;
  if (constant == 1)
    return kOneReg;
  int64_t reg = registers.temporaryHolding(constant);
  if (reg >= 0)
    return reg;
  reg = registers.temp(op, RegisterFile::Scalar);
  code.emit(Opcode::SLi, {reg, constant});
  registers.holdsConstant(reg, constant);
  return reg;
}

int64_t InstructionSelector::useScalar(Operation *op, Value value) {
  // An i1 is 0 or 1 in a register, as s.slt writes it (the selects'
  // arithmetic needs it so); its constant reads as -1 sign-extended.
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return useConstant(op, value.getType().isInteger(1) ? *constant & 1
                                                        : *constant);
  return registers.lookup(op, value);
}

int64_t InstructionSelector::useVector(Operation *op, Value value) {
  DenseElementsAttr splat;
  if (matchPattern(value, m_Constant(&splat)) && splat.isSplat()) {
    auto bits = uint32_t(
        splat.getSplatValue<APFloat>().bitcastToAPInt().getZExtValue());
    int64_t source = useConstant(op, int64_t(int32_t(bits)));
    int64_t reg = registers.temp(op, RegisterFile::Vector);
    code.emit(Opcode::VBcast, {reg, source});
    return reg;
  }
  return registers.lookup(op, value);
}

int64_t InstructionSelector::address(Operation *op, Value offset,
                                     int64_t base) {
  if (std::optional<int64_t> constant = getConstantIntValue(offset))
    return useConstant(op, *constant + base);
  if (std::optional<FoldedOffset> folded = getFoldedOffset(offset)) {
    offset = folded->value;
    base += folded->offset;
  }
  int64_t reg = useScalar(op, offset);
  if (base == 0)
    return reg;
  int64_t sum = registers.temp(op, RegisterFile::Scalar);
  code.emit(Opcode::SAddi, {sum, reg, base});
  return sum;
}

std::pair<int64_t, int64_t>
InstructionSelector::vmemRow(Operation *op, Value offset, int64_t base) {
  if (std::optional<FoldedOffset> folded = getFoldedOffset(offset))
    return {useScalar(op, folded->value), base + folded->offset};
  if (std::optional<int64_t> constant = getConstantIntValue(offset))
    if (fitsVmemImmediate(*constant + base))
      return {kZeroReg, *constant + base};
  if (!fitsVmemImmediate(base))
    return {address(op, offset, base), 0};
  return {useScalar(op, offset), base};
}

int64_t InstructionSelector::baseOf(Operation *op, Value buffer) {
  IntegerAttr attr = getPlannedAddress(buffer);
  if (!attr)
    registers.fail(op, "buffer has no address (run tpu-plan-memory first)");
  return attr ? attr.getInt() : 0;
}

void InstructionSelector::selectScalar(Operation *op, Opcode opcode, Value lhs,
                                       Value rhs) {
  int64_t a = useScalar(op, lhs), b = useScalar(op, rhs);
  code.emit(opcode, {registers.define(op, op->getResult(0)), a, b});
}

void InstructionSelector::selectScalar(Operation *op, Opcode opcode) {
  selectScalar(op, opcode, op->getOperand(0), op->getOperand(1));
}

void InstructionSelector::selectVector(Operation *op, Opcode opcode) {
  SmallVector<int64_t, isa::kMaxOperands> operands = {0};
  for (Value operand : op->getOperands())
    operands.push_back(useVector(op, operand));
  operands[0] = registers.define(op, op->getResult(0));
  code.emit(opcode, operands);
}

void InstructionSelector::select(Operation *op) {
  llvm::TypeSwitch<Operation *>(op)
      // Constants are materialized where they are used; buffers are
      // addresses; views and terminators generate nothing.
      .Case<arith::ConstantOp, memref::AllocOp, memref::DeallocOp,
            memref::GetGlobalOp, TiledViewOp, scf::YieldOp>([](Operation *) {})
      .Case([&](func::ReturnOp) { code.emit(Opcode::Halt, {}); })
      .Case([&](arith::AddIOp add) { selectAdd(add); })
      .Case([&](arith::SubIOp sub) { selectScalar(sub, Opcode::SSub); })
      .Case([&](arith::MulIOp mul) { selectScalar(mul, Opcode::SMul); })
      .Case([&](arith::AndIOp band) {
        // A conjunction of branch conditions is a branch on each.
        if (!isBranchConjunction(band))
          selectScalar(band, Opcode::SAnd);
      })
      .Case([&](arith::ShRUIOp shr) { selectScalar(shr, Opcode::SShr); })
      .Case([&](arith::MinSIOp min) { selectScalar(min, Opcode::SMin); })
      .Case([&](arith::CmpIOp cmp) { selectCmpI(cmp); })
      .Case([&](arith::SelectOp select) { selectSelect(select); })
      .Case([&](arith::CmpFOp cmp) { selectCmpF(cmp); })
  // The elementwise ops the VPU runs in one instruction.
#define TPU_VPU_OP(OP, OPCODE)                                                 \
  .Case([&](OP vpuOp) { selectVector(vpuOp, Opcode::OPCODE); })
#include "tpu/Conversion/TPUToISA/VpuOps.def"
      .Case([&](LaneMaskOp mask) {
        code.emit(Opcode::VLmask, {registers.define(op, mask.getResult()),
                                   useScalar(op, mask.getCount())});
      })
      .Case([&](LaneReduceOp reduce) {
        selectVector(reduce, getLaneReduceOpcode(reduce.getKind()));
      })
      .Case([&](LaneBroadcastOp broadcast) {
        selectVector(broadcast, Opcode::VLbcast);
      })
      .Case([&](PackBF16Op pack) { selectVector(pack, Opcode::VPackBf16); })
      .Case([&](UnpackBF16Op unpack) {
        selectVector(unpack,
                     unpack.getHigh() ? Opcode::VUnpackHi : Opcode::VUnpackLo);
      })
      .Case([&](RoundToBF16Op round) {
        selectVector(round, round.getRounding() == Rounding::NearestEven
                                ? Opcode::VRneBf16
                                : Opcode::VTruncBf16);
      })
      .Case([&](VectorLoadOp load) {
        auto [row, imm] =
            vmemRow(op, load.getRow(), baseOf(op, load.getSource()));
        int64_t stride = useConstant(op, int64_t(load.getSublaneStride()));
        code.emit(Opcode::VLd, {registers.define(op, load.getResult()), row,
                                imm, stride, 0xff});
      })
      .Case([&](VectorStoreOp store) {
        int64_t value = useVector(op, store.getValue());
        auto [row, imm] =
            vmemRow(op, store.getRow(), baseOf(op, store.getTarget()));
        code.emit(Opcode::VSt, {value, row, imm, kOneReg,
                                int64_t(store.getSublaneMask())});
      })
      .Case([&](DmaLoadOp dma) {
        int64_t vmem =
            address(op, dma.getVmemRow(), baseOf(op, dma.getTarget()));
        int64_t hbm =
            address(op, dma.getHbmTile(), baseOf(op, dma.getSource()));
        code.emit(Opcode::DmaLd, {int64_t(dma.getSemaphore()), vmem, hbm,
                                  useScalar(op, dma.getCount()),
                                  useScalar(op, dma.getHbmStride())});
      })
      .Case([&](DmaStoreOp dma) {
        int64_t vmem =
            address(op, dma.getVmemRow(), baseOf(op, dma.getSource()));
        int64_t hbm =
            address(op, dma.getHbmTile(), baseOf(op, dma.getTarget()));
        code.emit(Opcode::DmaSt, {int64_t(dma.getSemaphore()), hbm, vmem,
                                  useScalar(op, dma.getCount()),
                                  useScalar(op, dma.getHbmStride())});
      })
      .Case([&](DmaWaitOp wait) {
        code.emit(Opcode::DmaWait,
                  {int64_t(wait.getSemaphore()), int64_t(wait.getCount())});
      })
      .Case([&](MxuLoadWeightsOp ldw) {
        int64_t row =
            address(op, ldw.getVmemRow(), baseOf(op, ldw.getSource()));
        code.emit(ldw.getPacked() ? Opcode::MxuLdwBf16 : Opcode::MxuLdw,
                  {int64_t(ldw.getMxu()), row, useScalar(op, ldw.getStride())});
      })
      .Case([&](MxuLatchOp latch) {
        code.emit(Opcode::MxuLatch, {int64_t(latch.getMxu())});
      })
      .Case([&](MxuPushOp push) {
        code.emit(Opcode::MxuPush,
                  {int64_t(push.getMxu()), useVector(op, push.getRows()),
                   useScalar(op, push.getSlot()),
                   push.getAccumulate() ? 1 : 0});
      })
      .Case([&](MxuPopOp pop) {
        int64_t slot = useScalar(op, pop.getSlot());
        code.emit(Opcode::MxuPop, {registers.define(op, pop.getResult()),
                                   int64_t(pop.getMxu()), slot});
      })
      .Case([&](TransposeBlockOp) { selectTranspose(op); })
      .Default([&](Operation *op) {
        registers.fail(op, "cannot lower '" + op->getName().getStringRef() +
                               "' to instructions; expected the loop-level "
                               "ops tpu-lower-to-mxu produces");
      });
}

/// s.addi when one side is a constant that fits, s.add otherwise.
void InstructionSelector::selectAdd(Operation *op) {
  if (getFoldedOffset(op->getResult(0)))
    return; // in its users' immediates
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  if (getConstantIntValue(lhs))
    std::swap(lhs, rhs);
  std::optional<int64_t> imm = getConstantIntValue(rhs);
  if (!imm || *imm != int64_t(int32_t(*imm)))
    return selectScalar(op, Opcode::SAdd, lhs, rhs);
  int64_t a = useScalar(op, lhs);
  code.emit(Opcode::SAddi, {registers.define(op, op->getResult(0)), a, *imm});
}

void InstructionSelector::selectCmpI(Operation *op) {
  auto cmp = cast<arith::CmpIOp>(op);
  if (isBranchOnly(cmp.getResult()))
    return; // selected into the branch at each scf.if
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
    return selectScalar(op, Opcode::SSlt, cmp.getLhs(), cmp.getRhs());
  case arith::CmpIPredicate::sgt:
    return selectScalar(op, Opcode::SSlt, cmp.getRhs(), cmp.getLhs());
  default:
    return registers.fail(op, "only slt and sgt comparisons produce a value; "
                              "other predicates may only be branch "
                              "conditions");
  }
}

void InstructionSelector::selectSelect(Operation *op) {
  auto select = cast<arith::SelectOp>(op);
  if (llvm::isa<VectorType>(select.getType())) {
    // v.sel vD, vMask, vA, vB: vMask != 0 ? vA : vB
    return selectVector(op, Opcode::VSel);
  }
  // b + cond * (a - b), cond being 0 or 1; a * cond when b is 0 (a count
  // of DMAs that is 0 past the last block: the kernels' loop heads have
  // many).
  int64_t cond = useScalar(op, select.getCondition());
  int64_t a = useScalar(op, select.getTrueValue());
  std::optional<int64_t> falseValue =
      getConstantIntValue(select.getFalseValue());
  if (falseValue && *falseValue == 0) {
    code.emit(Opcode::SMul,
              {registers.define(op, select.getResult()), a, cond});
    return;
  }
  int64_t b = useScalar(op, select.getFalseValue());
  int64_t diff = registers.temp(op, RegisterFile::Scalar);
  code.emit(Opcode::SSub, {diff, a, b});
  code.emit(Opcode::SMul, {diff, diff, cond});
  code.emit(Opcode::SAdd, {registers.define(op, select.getResult()), b, diff});
}

void InstructionSelector::selectCmpF(Operation *op) {
  auto cmp = cast<arith::CmpFOp>(op);
  std::optional<VectorCompare> compare = getVectorCompare(cmp.getPredicate());
  if (!compare)
    return registers.fail(
        op, "vector comparison '" +
                arith::stringifyCmpFPredicate(cmp.getPredicate()) +
                "' has no instruction; use oeq, une, olt, ole, ogt or oge");
  int64_t lhs = useVector(op, cmp.getLhs()), rhs = useVector(op, cmp.getRhs());
  if (compare->swapped)
    std::swap(lhs, rhs);
  code.emit(compare->opcode, {registers.define(op, cmp.getResult()), lhs, rhs});
}

/// v.xpose transposes one register group into the other: the block is
/// loaded into the first group and stored from the second.
void InstructionSelector::selectTranspose(Operation *op) {
  auto transpose = cast<TransposeBlockOp>(op);
  constexpr int64_t kGroup =
      isa::getOperandKindInfo(isa::OperandKind::VSrc16).group;
  static_assert(2 * kGroup == isa::kNumVectorRegisters,
                "a transpose takes both register groups");
  if (!registers.allVectorRegistersFree())
    return registers.fail(op, "tpu.transpose_block needs all vector "
                              "registers, but a vector value is live across "
                              "it");
  int64_t source =
      address(op, transpose.getSourceRow(), baseOf(op, transpose.getSource()));
  int64_t target =
      address(op, transpose.getTargetRow(), baseOf(op, transpose.getTarget()));
  for (int64_t g = 0; g < kGroup; ++g)
    code.emit(Opcode::VLd, {g, source, g * int64_t(kSublanes), kOneReg, 0xff});
  code.emit(Opcode::VXpose, {kGroup, 0});
  for (int64_t g = 0; g < kGroup; ++g)
    code.emit(Opcode::VSt,
              {kGroup + g, target, g * int64_t(kSublanes), kOneReg, 0xff});
}

void InstructionSelector::branchUnless(Operation *op, Value cond,
                                       CodeBuffer::Label label) {
  // a and b is false where either is: a branch on each (tpu-canonicalize
  // makes them of nested scf.ifs).
  if (Operation *def = cond.getDefiningOp(); def && isBranchConjunction(def)) {
    branchUnless(op, def->getOperand(0), label);
    branchUnless(op, def->getOperand(1), label);
    return;
  }
  branchOn(op, cond, /*when=*/false, label);
}

FailureOr<Value> InstructionSelector::branchIf(Operation *op, Value cond,
                                               CodeBuffer::Label label) {
  Value rest;
  if (Operation *def = cond.getDefiningOp(); def && isBranchConjunction(def)) {
    cond = def->getOperand(0);
    rest = def->getOperand(1);
    if (Operation *first = cond.getDefiningOp();
        first && isBranchConjunction(first))
      return failure();
  }
  branchOn(op, cond, /*when=*/true, label);
  return rest;
}

void InstructionSelector::branchOn(Operation *op, Value cond, bool when,
                                   CodeBuffer::Label label) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || !isBranchOnly(cond)) {
    code.emitBranch(when ? Opcode::BrNe : Opcode::BrEq,
                    {useScalar(op, cond), kZeroReg, 0}, label);
    return;
  }
  int64_t a = useScalar(op, cmp.getLhs()), b = useScalar(op, cmp.getRhs());
  arith::CmpIPredicate predicate = cmp.getPredicate();
  if (!when)
    predicate = arith::invertPredicate(predicate);
  switch (predicate) {
  case arith::CmpIPredicate::eq:
    return code.emitBranch(Opcode::BrEq, {a, b, 0}, label);
  case arith::CmpIPredicate::ne:
    return code.emitBranch(Opcode::BrNe, {a, b, 0}, label);
  case arith::CmpIPredicate::slt:
    return code.emitBranch(Opcode::BrLt, {a, b, 0}, label);
  case arith::CmpIPredicate::sge:
    return code.emitBranch(Opcode::BrGe, {a, b, 0}, label);
  case arith::CmpIPredicate::sgt:
    return code.emitBranch(Opcode::BrLt, {b, a, 0}, label);
  case arith::CmpIPredicate::sle:
    return code.emitBranch(Opcode::BrGe, {b, a, 0}, label);
  default:
    return registers.fail(cmp,
                          "unsigned comparisons have no branch instruction");
  }
}
