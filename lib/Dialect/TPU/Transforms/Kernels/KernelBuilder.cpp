//===- KernelBuilder.cpp - What the kernels are built from ----------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tpu/Support/TiledLayout.h"

#include <functional>

using namespace mlir;
using namespace tpu;

Value KernelBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(*this, value);
}

Value KernelBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(*this, x, y);
}

Value KernelBuilder::add(Value x, int64_t y) {
  return y == 0 ? x : add(x, index(y));
}

Value KernelBuilder::sub(Value x, Value y) {
  return arith::SubIOp::create(*this, x, y);
}

Value KernelBuilder::mul(Value x, int64_t y) {
  return y == 1 ? x : arith::MulIOp::create(*this, x, index(y)).getResult();
}

Value KernelBuilder::min(Value x, int64_t y) {
  return arith::MinSIOp::create(*this, x, index(y));
}

Value KernelBuilder::lessThan(Value x, Value y) {
  return arith::CmpIOp::create(*this, arith::CmpIPredicate::slt, x, y);
}

Value KernelBuilder::select(Value cond, Value x, Value y) {
  return arith::SelectOp::create(*this, cond, x, y);
}

scf::ForOp KernelBuilder::forLoop(Value lb, Value ub, int64_t step,
                                  function_ref<void(Value)> body) {
  Value stepValue = index(step);
  OpBuilder::InsertionGuard guard(*this);
  scf::LoopNest nest =
      scf::buildLoopNest(*this, getLoc(), lb, ub, stepValue,
                         [&](OpBuilder &nested, Location, ValueRange ivs) {
                           OpBuilder::InsertionGuard bodyGuard(*this);
                           setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                           body(ivs.front());
                         });
  return nest.loops.front();
}

scf::ForOp KernelBuilder::forLoop(int64_t ub, int64_t step,
                                  function_ref<void(Value)> body) {
  Value lb = index(0);
  return forLoop(lb, index(ub), step, body);
}

scf::ForOp
KernelBuilder::forEachIndex(ArrayRef<int64_t> dims,
                            function_ref<void(ArrayRef<Value>)> body) {
  assert(!dims.empty() && "a loop needs a dimension");
  SmallVector<Value> indices;
  std::function<scf::ForOp()> nest = [&]() {
    return forLoop(dims[indices.size()], 1, [&](Value index) {
      indices.push_back(index);
      if (indices.size() == dims.size())
        body(indices);
      else
        nest();
      indices.pop_back();
    });
  };
  return nest();
}

void KernelBuilder::forEachTile(int64_t count, bool lastIsPartial,
                                function_ref<void(Value, bool)> body) {
  int64_t whole = lastIsPartial ? count - 1 : count;
  forLoop(whole, 1, [&](Value i) { body(i, false); });
  if (whole < count)
    body(index(whole), true);
}

void KernelBuilder::ifThen(Value cond, function_ref<void()> thenBody,
                           function_ref<void()> elseBody) {
  auto ifOp = scf::IfOp::create(*this, cond, bool(elseBody));
  OpBuilder::InsertionGuard guard(*this);
  setInsertionPointToStart(ifOp.thenBlock());
  thenBody();
  if (elseBody) {
    setInsertionPointToStart(ifOp.elseBlock());
    elseBody();
  }
}

Value KernelBuilder::allocVmem(int64_t rows) {
  auto type = MemRefType::get(
      {rows, int64_t(kLanes)}, getF32Type(), MemRefLayoutAttrInterface(),
      MemorySpaceAttr::get(getContext(), MemorySpace::VMEM));
  return memref::AllocOp::create(*this, type);
}

void KernelBuilder::dealloc(ArrayRef<Value> buffers) {
  for (Value buffer : buffers)
    memref::DeallocOp::create(*this, buffer);
}

void KernelBuilder::dmaLoad(Value hbm, Value tile, Value stride, Value vmem,
                            Value row, Value count, int64_t sem) {
  DmaLoadOp::create(*this, hbm, tile, stride, vmem, row, count, sem);
}

void KernelBuilder::dmaStore(Value vmem, Value row, Value hbm, Value tile,
                             Value stride, Value count, int64_t sem) {
  DmaStoreOp::create(*this, vmem, row, hbm, tile, stride, count, sem);
}

void KernelBuilder::wait(int64_t sem, int64_t count) {
  DmaWaitOp::create(*this, sem, count);
}

Value KernelBuilder::loadRowToAllSublanes(Value vmem, Value row) {
  return VectorLoadOp::create(*this, vregType(), vmem, row,
                              /*sublane_stride=*/0);
}

void KernelBuilder::storeRows(Value value, int64_t rows, Value fill,
                              Value vmem, Value row) {
  if (rows >= int64_t(kSublanes))
    return store(value, vmem, row);
  store(fill, vmem, row);
  VectorStoreOp::create(*this, value, vmem, row, (1 << rows) - 1);
}

Value KernelBuilder::load(Value vmem, Value row) {
  return VectorLoadOp::create(*this, vregType(), vmem, row);
}

void KernelBuilder::store(Value value, Value vmem, Value row) {
  VectorStoreOp::create(*this, value, vmem, row);
}

Value KernelBuilder::round(Value v, Rounding rounding) {
  return RoundToBF16Op::create(*this, v.getType(), v,
                               RoundingAttr::get(getContext(), rounding));
}

Value KernelBuilder::keepLanes(Value value, int64_t lanes, Value fill) {
  Value mask = LaneMaskOp::create(
      *this,
      VectorType::get({int64_t(kSublanes), int64_t(kLanes)}, getI1Type()),
      index(lanes));
  return arith::SelectOp::create(*this, mask, value, fill);
}

Value KernelBuilder::splat(float value) {
  return arith::ConstantOp::create(*this,
                                   DenseElementsAttr::get(vregType(), value));
}

VectorType KernelBuilder::vregType() {
  return VectorType::get({int64_t(kSublanes), int64_t(kLanes)}, getF32Type());
}

scf::ForOp
tpu::buildVpuLoop(KernelBuilder &b, ValueRange inputs, ValueRange outputs,
                  function_ref<SmallVector<Value>(ValueRange)> compute) {
  int64_t tiles =
      TiledShape::get(cast<ShapedType>(inputs[0].getType()).getShape().vec())
          .numTiles();
  // One staging buffer per input and output, all live at once: as many
  // tiles as fit VMEM.
  int64_t buffers = int64_t(inputs.size() + outputs.size());
  int64_t fits = std::max<int64_t>(1, kVmemRows / (buffers * kSublanes));
  int64_t chunk = std::min({tiles, kVpuChunkTiles, fits});
  SmallVector<Value> staged, staging;
  for (size_t i = 0; i < inputs.size(); ++i)
    staged.push_back(b.allocVmem(chunk * kSublanes));
  for (size_t i = 0; i < outputs.size(); ++i)
    staging.push_back(b.allocVmem(chunk * kSublanes));
  Value one = b.index(1), zero = b.index(0);
  scf::ForOp loop = b.forLoop(tiles, chunk, [&](Value first) {
    Value count = b.min(b.sub(b.index(tiles), first), chunk);
    for (auto [input, buffer] : llvm::zip(inputs, staged))
      b.dmaLoad(input, first, one, buffer, zero, count, kLoadSem);
    b.wait(kLoadSem, int64_t(inputs.size()));
    b.forLoop(zero, count, 1, [&](Value tile) {
      Value row = b.mul(tile, kSublanes);
      SmallVector<Value> vregs;
      for (Value buffer : staged)
        vregs.push_back(b.load(buffer, row));
      for (auto [value, buffer] : llvm::zip(compute(vregs), staging))
        b.store(value, buffer, row);
    });
    for (auto [buffer, output] : llvm::zip(staging, outputs))
      b.dmaStore(buffer, zero, output, first, one, count, kStoreSem);
    b.wait(kStoreSem, int64_t(outputs.size()));
  });
  b.dealloc(staged);
  b.dealloc(staging);
  return loop;
}
