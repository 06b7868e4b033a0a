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
  return getTiledShape(type).numTiles();
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
    // HBM is a bump allocator over the core's tiles; the first buffer that
    // ends past them is the one the error names.
    const ChipInfo &chip = getChipInfo(getChipOf(func));
    const int64_t hbmTilesPerCore = int64_t(chip.hbmBytesPerCore / kTileBytes);
    int64_t nextTile = 0;
    std::optional<std::pair<Location, std::string>> firstPastHbm;
    auto placeInHbm = [&](MemRefType type, Location loc,
                          const std::string &what) {
      int64_t first = nextTile;
      nextTile += hbmTiles(type);
      if (nextTile > hbmTilesPerCore && !firstPastHbm) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << what << " (" << type << ", " << hbmTiles(type) * kTileBytes
           << " bytes)";
        firstPastHbm.emplace(loc, text);
      }
      return first;
    };
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
      int64_t first = placeInHbm(type, func.getArgument(i).getLoc(),
                                 "argument " + std::to_string(i));
      func.setArgAttr(i, TPUDialect::getAddressAttrName(), address(first));
    }

    DenseSet<Operation *> placedGlobals;
    // Live VMEM buffers by first row; new ones go above the highest.
    std::map<Operation *, std::pair<int64_t, int64_t>> live;
    int64_t peak = 0;
    WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
      // A constant's global is placed once, where it is first read.
      if (auto read = dyn_cast<memref::GetGlobalOp>(op)) {
        auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
            read, read.getNameAttr());
        if (!global || getMemorySpace(global.getType()) != MemorySpace::HBM) {
          read.emitError() << "tpu-plan-memory: " << read.getName()
                           << " is not a global in HBM (tpu-bufferize "
                              "makes them)";
          return WalkResult::interrupt();
        }
        if (placedGlobals.insert(global).second)
          global->setAttr(TPUDialect::getAddressAttrName(),
                          address(placeInHbm(global.getType(), global.getLoc(),
                                             "the constant @" +
                                                 global.getSymName().str())));
        return WalkResult::advance();
      }
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        MemRefType type = alloc.getType();
        if (getMemorySpace(type) == MemorySpace::HBM) {
          int64_t first = placeInHbm(type, alloc.getLoc(), "this buffer");
          alloc->setAttr(TPUDialect::getAddressAttrName(), address(first));
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
          alloc.emitError()
              << "tpu-plan-memory: VMEM is full: this buffer "
                 "needs rows ["
              << first << ", " << end << ") of " << kVmemRows << " ("
              << end * kLanes * 4 << " bytes of " << kVmemBytes << ")";
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
    if (firstPastHbm) {
      emitError(firstPastHbm->first)
          << "tpu-plan-memory: " << firstPastHbm->second
          << " does not fit the HBM of a " << chip.name
          << " core: the program's buffers need " << nextTile * kTileBytes
          << " bytes, the core has " << chip.hbmBytesPerCore
          << "; use smaller operands, or a chip with more HBM per core";
      return signalPassFailure();
    }
    func->setAttr(TPUDialect::getVmemRowsAttrName(), address(peak));
  }
};

} // namespace
