//===- AttachChip.cpp - Record the chip a module is compiled for ----------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"

namespace tpu {
#define GEN_PASS_DEF_TPUATTACHCHIP
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

struct AttachChipPass : public tpu::impl::TPUAttachChipBase<AttachChipPass> {
  using TPUAttachChipBase::TPUAttachChipBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto declared =
        module->getAttrOfType<ChipAttr>(TPUDialect::getChipAttrName());
    // Without the option, the module's own chip (or the default) stands.
    std::optional<ChipKind> asked = chip;
    ChipKind kind =
        asked ? *asked : (declared ? declared.getKind() : kDefaultChip);
    if (declared && declared.getKind() != kind) {
      module.emitError() << "tpu-attach-chip: the module is for "
                         << getChipInfo(declared.getKind()).name
                         << " (tpu.chip) but chip=" << getChipInfo(kind).name
                         << " was asked for; drop one of them";
      return signalPassFailure();
    }
    module->setAttr(TPUDialect::getChipAttrName(),
                    ChipAttr::get(module.getContext(), kind));
  }
};

} // namespace
