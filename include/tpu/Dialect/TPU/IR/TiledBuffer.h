//===- TiledBuffer.h - Memref types of tiled HBM images ---------*- C++ -*-===//
//
// A tensor lives in HBM as its tiled, padded image
// (tpu/Support/TiledLayout.h). Its buffer type says so with a layout map
// from the logical index to the physical one, [batch..., row tile, column
// tile, sublane, lane]:
//
//   affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8,
//                           d1 mod 128)>
//
// (a vector of n elements is the 1 x n matrix's image). bf16 packs two rows
// to a word, so its tiles are 16 rows high, and a fifth result says which
// half of the word holds the element:
//
//   affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8,
//                           d1 mod 128, (d0 mod 16) floordiv 8)>
//
// The map is not
// strided, so upstream views (subview, expand_shape, ...) that assume a
// strided buffer do not apply to it; the tpu ops that change shapes do.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_IR_TILEDBUFFER_H
#define TPU_DIALECT_TPU_IR_TILEDBUFFER_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tpu/Support/TiledLayout.h"

namespace tpu {

/// Elements of `elementType` per 32-bit word of a tiled image: 2 for bf16,
/// else 1.
int64_t getPacking(mlir::Type elementType);

/// The tiled shape of a tensor or buffer of `type`, packing included.
TiledShape getTiledShape(mlir::ShapedType type);

/// The tiled layout map of a buffer of rank `rank` whose words hold
/// `packing` elements.
mlir::AffineMap getTiledLayout(mlir::MLIRContext *context, unsigned rank,
                               int64_t packing = 1);

/// Whether `map` is the tiled layout of its rank, packed or not.
bool isTiledLayout(mlir::AffineMap map);

/// The HBM buffer type holding a tensor of `type`'s shape and element type.
mlir::MemRefType getTiledHbmType(mlir::ShapedType type);

/// Whether `type` is a tiled memref in HBM.
bool isTiledHbmBuffer(mlir::Type type);

} // namespace tpu

#endif // TPU_DIALECT_TPU_IR_TILEDBUFFER_H
