//===- TiledBuffer.h - Memref types of tiled HBM images ---------*- C++ -*-===//
//
// A tensor lives in HBM as its (8,128)-tiled, padded image
// (tpu/Support/TiledLayout.h). Its buffer type says so with a layout map
// from the logical index to the physical one, [batch..., row tile, column
// tile, sublane, lane]:
//
//   affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8,
//                           d1 mod 128)>
//
// (a vector of n elements is the 1 x n matrix's image). The map is not
// strided, so upstream views (subview, expand_shape, ...) that assume a
// strided buffer do not apply to it; the tpu ops that change shapes do.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_IR_TILEDBUFFER_H
#define TPU_DIALECT_TPU_IR_TILEDBUFFER_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tpu {

/// The tiled layout map of a buffer of rank `rank`.
mlir::AffineMap getTiledLayout(mlir::MLIRContext *context, unsigned rank);

/// Whether `map` is the tiled layout of its rank.
bool isTiledLayout(mlir::AffineMap map);

/// The HBM buffer type holding a tensor of `type`'s shape and element type.
mlir::MemRefType getTiledHbmType(mlir::ShapedType type);

/// Whether `type` is a tiled memref in HBM.
bool isTiledHbmBuffer(mlir::Type type);

} // namespace tpu

#endif // TPU_DIALECT_TPU_IR_TILEDBUFFER_H
