//===- InitAllDialects.h - Dialects the tpu tools load ----------*- C++ -*-===//
//
// One place that says which dialects (and their interface models) the
// project's tools accept, so tpu-opt, tpu-translate and the tests agree.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_INITALLDIALECTS_H
#define TPU_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tpu {

/// Adds the upstream dialects an input program may use (func, arith, math,
/// linalg, tensor, memref, scf, bufferization), the tpu and tpu_isa
/// dialects, and the external models the compiler needs: how the tpu ops
/// and the entry function bufferize (tpu-bufferize), and upstream's models
/// for the upstream dialects that promise them.
void registerAllDialects(mlir::DialectRegistry &registry);

} // namespace tpu

#endif // TPU_INITALLDIALECTS_H
