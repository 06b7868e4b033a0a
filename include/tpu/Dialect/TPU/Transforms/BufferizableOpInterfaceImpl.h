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

/// Errors on the ops of the entry's block whose buffer form cannot be
/// written (a tpu.reshape no kernel writes); on each tpu.resize, sets
/// `zero_padded_source` when its source's padding is known zero.
/// tpu-bufferize runs it first, while the producers are still there to
/// look at.
mlir::LogicalResult prepareBufferization(mlir::Block &entryBlock);

/// One-Shot Bufferize across `entry`'s boundary and only there: tensors
/// become tiled HBM buffers (tpu::getTiledHbmType).
mlir::bufferization::OneShotBufferizationOptions
getBufferizationOptions(mlir::func::FuncOp entry);

} // namespace tpu

#endif // TPU_DIALECT_TPU_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
