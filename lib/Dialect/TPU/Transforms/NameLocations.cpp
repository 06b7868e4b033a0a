//===- NameLocations.cpp - Name source ops' locations after the ops -------===//
//
// The profile's key (docs/Simulator.md, "Profile"): an instruction's
// source op is the name in its location (tpu::getSourceOpName), which an op
// a frontend named already has.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "tpu/Dialect/TPU/IR/SourceOp.h"

namespace tpu {
#define GEN_PASS_DEF_TPUNAMELOCATIONS
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

void nameAfterOp(Operation *op) {
  if (getSourceOpName(op->getLoc()))
    return;
  op->setLoc(NameLoc::get(
      StringAttr::get(op->getContext(), op->getName().getStringRef()),
      op->getLoc()));
}

struct NameLocationsPass
    : public tpu::impl::TPUNameLocationsBase<NameLocationsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      nameAfterOp(func);
      for (Block &block : func.getBody())
        for (Operation &op : block)
          nameAfterOp(&op);
    }
  }
};

} // namespace
