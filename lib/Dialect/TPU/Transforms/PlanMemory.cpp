//===- PlanMemory.cpp - Addresses for HBM and VMEM buffers ----------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Support/TiledLayout.h"

#include <map>

namespace tpu {
#define GEN_PASS_DEF_TPUPLANMEMORY
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

std::optional<MemorySpace> getMemorySpace(MemRefType type) {
  if (auto space = dyn_cast_or_null<MemorySpaceAttr>(type.getMemorySpace()))
    return space.getValue();
  return std::nullopt;
}

int64_t hbmTiles(MemRefType type) {
  return TiledShape::get(type.getShape().vec()).numTiles();
}

struct PlanMemoryPass : public tpu::impl::TPUPlanMemoryBase<PlanMemoryPass> {
  using TPUPlanMemoryBase::TPUPlanMemoryBase;

  void runOnOperation() override {
    func::FuncOp func = lookupEntry(getOperation(), entryName, getArgument());
    if (!func)
      return signalPassFailure();
    Builder builder(func.getContext());
    auto address = [&](int64_t value) {
      return builder.getI64IntegerAttr(value);
    };
    int64_t nextTile = 0;
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto type = dyn_cast<MemRefType>(func.getArgument(i).getType());
      if (!type || getMemorySpace(type) != MemorySpace::HBM) {
        func.emitError() << "tpu-plan-memory: argument " << i << " of @"
                         << func.getName() << " is "
                         << func.getArgument(i).getType()
                         << ", expected a buffer in HBM (run "
                            "tpu-lower-to-mxu first)";
        return signalPassFailure();
      }
      func.setArgAttr(i, TPUDialect::getAddressAttrName(), address(nextTile));
      nextTile += hbmTiles(type);
    }

    // Live VMEM buffers by first row; new ones go above the highest.
    std::map<Operation *, std::pair<int64_t, int64_t>> live;
    int64_t peak = 0;
    WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        MemRefType type = alloc.getType();
        if (getMemorySpace(type) == MemorySpace::HBM) {
          alloc->setAttr(TPUDialect::getAddressAttrName(), address(nextTile));
          nextTile += hbmTiles(type);
          return WalkResult::advance();
        }
        if (getMemorySpace(type) != MemorySpace::VMEM || type.getRank() != 2 ||
            type.getDimSize(1) != int64_t(kLanes)) {
          alloc.emitError() << "tpu-plan-memory: cannot place " << type
                            << "; buffers are HBM tensors or VMEM rows "
                               "(memref<Nx128xf32, #tpu.memory_space<vmem>>)";
          return WalkResult::interrupt();
        }
        int64_t first = 0;
        for (auto &[_, range] : live)
          first = std::max(first, range.second);
        int64_t end = first + type.getDimSize(0);
        if (end > kVmemRows) {
          alloc.emitError() << "tpu-plan-memory: VMEM is full: this buffer "
                               "needs rows ["
                            << first << ", " << end << ") of " << kVmemRows;
          return WalkResult::interrupt();
        }
        alloc->setAttr(TPUDialect::getAddressAttrName(), address(first));
        live[alloc] = {first, end};
        peak = std::max(peak, end);
        return WalkResult::advance();
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        live.erase(dealloc.getMemref().getDefiningOp());
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    const ChipInfo &chip = getChipInfo(getChipOf(func));
    if (uint64_t(nextTile) * kWordsPerTile * 4 > chip.hbmBytesPerChip) {
      func.emitError() << "tpu-plan-memory: the buffers need " << nextTile
                       << " HBM tiles of 4 KiB, more than the " << chip.name
                       << "'s HBM holds";
      return signalPassFailure();
    }
    func->setAttr(TPUDialect::getVmemRowsAttrName(), address(peak));
  }
};

} // namespace
