//===- NameLocations.cpp - Name source ops' locations after the ops -------===//
//
// The profile's key (docs/Tools.md, "tpu-sim"): an instruction's source op
// is the first name in its location (isa::ir::getSourceLocation).
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpu {
#define GEN_PASS_DEF_TPUNAMELOCATIONS
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;

namespace {

void nameAfterOp(Operation *op) {
  if (op->getLoc()->findInstanceOf<NameLoc>())
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
