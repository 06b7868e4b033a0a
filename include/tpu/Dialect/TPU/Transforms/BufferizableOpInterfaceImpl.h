//===- BufferizableOpInterfaceImpl.h - How tpu ops bufferize ----*- C++ -*-===//
//
// External models of BufferizableOpInterface for the tpu kernel ops (as
// mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h does for
// linalg), and the One-Shot Bufferize options tpu-bufferize runs with.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define TPU_DIALECT_TPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tpu {

/// Registers the tpu ops' models and the func dialect's (for the entry's
/// signature).
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);

/// An error on `op` if its buffer form would be wrong or cannot be
/// written: a tpu.resize that grows a value whose padding is not zero (a
/// tpu.elementwise result), a tpu.reshape no kernel writes. tpu-bufferize
/// checks every op of the entry with it first, while the producers are
/// still there to look at.
mlir::LogicalResult checkBufferizable(mlir::Operation *op);

/// One-Shot Bufferize across `entry`'s boundary and only there: tensors
/// become tiled HBM buffers (tpu::getTiledHbmType).
mlir::bufferization::OneShotBufferizationOptions
getBufferizationOptions(mlir::func::FuncOp entry);

} // namespace tpu

#endif // TPU_DIALECT_TPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
