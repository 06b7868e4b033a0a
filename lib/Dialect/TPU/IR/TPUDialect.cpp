//===- TPUDialect.cpp - The tpu dialect -----------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Dialect/TPU/IR/TiledBuffer.h"

using namespace mlir;
using namespace tpu;

#include "tpu/Dialect/TPU/IR/TPUDialect.cpp.inc"

namespace {
/// Prints the tiled layout map of HBM buffers as `#tiled` (`#tiled1`, ...
/// for other ranks), and packed bf16's as `#packed`, instead of `#map`.
struct TPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    auto map = dyn_cast<AffineMapAttr>(attr);
    if (!map || !isTiledLayout(map.getValue()))
      return AliasResult::NoAlias;
    unsigned rank = map.getValue().getNumDims();
    bool packed = map.getValue() != getTiledLayout(map.getContext(), rank);
    os << (packed ? "packed" : "tiled");
    return AliasResult::FinalAlias;
  }
};
} // namespace

void TPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tpu/Dialect/TPU/IR/TPUOps.cpp.inc"
      >();
  registerAttributes();
  addInterfaces<TPUOpAsmInterface>();
}

std::optional<bool> TPUDialect::isThenRare(DenseI32ArrayAttr weights) {
  if (!weights || weights.size() != 2)
    return std::nullopt;
  // Weights are unsigned.
  uint32_t thenWeight = uint32_t(weights[0]), elseWeight = uint32_t(weights[1]);
  if (thenWeight == elseWeight)
    return std::nullopt;
  return thenWeight < elseWeight;
}

LogicalResult TPUDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == getChipAttrName()) {
    if (!isa<ModuleOp>(op))
      return op->emitError() << "'" << getChipAttrName()
                             << "' belongs on a builtin.module, not on '"
                             << op->getName() << "'";
    if (!isa<ChipAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getChipAttrName() << "' must be a #tpu.chip<...> "
             << "attribute naming one of: " << listChipNames() << "; got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getPrecisionAttrName()) {
    if (!isa<PrecisionAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getPrecisionAttrName()
             << "' must be a #tpu.precision<...> attribute; got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getUsefulMacsAttrName() ||
      attr.getName() == getUsefulF32MacsAttrName() ||
      attr.getName() == getAddressAttrName() ||
      attr.getName() == getVmemRowsAttrName()) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getInt() < 0)
      return op->emitError()
             << "'" << attr.getName().getValue()
             << "' must be a non-negative integer; got " << attr.getValue();
    return success();
  }
  return op->emitError() << "unknown tpu dialect attribute '"
                         << attr.getName().getValue() << "'; known: '"
                         << getChipAttrName() << "', '"
                         << getPrecisionAttrName() << "', '"
                         << getUsefulMacsAttrName() << "', '"
                         << getUsefulF32MacsAttrName() << "', '"
                         << getAddressAttrName() << "', '"
                         << getVmemRowsAttrName() << "'";
}
