//===- SourceOp.cpp - The source op a location names ----------------------===//

#include "tpu/Dialect/TPU/IR/SourceOp.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

NameLoc tpu::getSourceOpName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().empty() ? getSourceOpName(name.getChildLoc()) : name;
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return getSourceOpName(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (NameLoc name = getSourceOpName(part))
        return name;
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return getSourceOpName(opaque.getFallbackLocation());
  return {};
}
