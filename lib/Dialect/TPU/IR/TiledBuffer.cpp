//===- TiledBuffer.cpp - Memref types of tiled HBM images -----------------===//

#include "tpu/Dialect/TPU/IR/TiledBuffer.h"

#include "mlir/IR/Builders.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Support/Chip.h"

using namespace mlir;

int64_t tpu::getPacking(Type elementType) {
  return elementType.isBF16() ? 2 : 1;
}

tpu::TiledShape tpu::getTiledShape(ShapedType type) {
  return TiledShape::get(type.getShape().vec(),
                         getPacking(type.getElementType()));
}

AffineMap tpu::getTiledLayout(MLIRContext *context, unsigned rank,
                              int64_t packing) {
  Builder b(context);
  SmallVector<AffineExpr> results;
  for (unsigned d = 0; d + 2 < rank; ++d)
    results.push_back(b.getAffineDimExpr(d));
  // The two minor dimensions; a vector is one row, a scalar one element.
  AffineExpr row =
      rank >= 2 ? b.getAffineDimExpr(rank - 2) : b.getAffineConstantExpr(0);
  AffineExpr col =
      rank >= 1 ? b.getAffineDimExpr(rank - 1) : b.getAffineConstantExpr(0);
  int64_t tileRows = int64_t(kSublanes) * packing;
  results.append({row.floorDiv(tileRows), col.floorDiv(kLanes),
                  row % int64_t(kSublanes), col % int64_t(kLanes)});
  if (packing > 1)
    results.push_back((row % tileRows).floorDiv(kSublanes));
  return AffineMap::get(rank, 0, results, context);
}

bool tpu::isTiledLayout(AffineMap map) {
  return map == getTiledLayout(map.getContext(), map.getNumDims()) ||
         map == getTiledLayout(map.getContext(), map.getNumDims(), 2);
}

MemRefType tpu::getTiledHbmType(ShapedType type) {
  MLIRContext *context = type.getContext();
  return MemRefType::get(
      type.getShape(), type.getElementType(),
      AffineMapAttr::get(getTiledLayout(context, type.getRank(),
                                        getPacking(type.getElementType()))),
      MemorySpaceAttr::get(context, MemorySpace::HBM));
}

bool tpu::isTiledHbmBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return false;
  auto space = dyn_cast_or_null<MemorySpaceAttr>(memref.getMemorySpace());
  auto layout = dyn_cast<AffineMapAttr>(memref.getLayout());
  return space && space.getValue() == MemorySpace::HBM && layout &&
         layout.getValue() ==
             getTiledLayout(memref.getContext(), memref.getRank(),
                            getPacking(memref.getElementType()));
}
