//===- VpuOps.h - What the VPU can run --------------------------*- C++ -*-===//
//
// The ops instruction selection lowers to VPU instructions, asked by the
// front end so that it accepts only elementwise bodies the back end can
// run: the rows of VpuOps.def, the float comparisons v.cmp has, selects,
// and float constants (broadcast).
//
//===----------------------------------------------------------------------===//

#ifndef TPU_CONVERSION_TPUTOISA_VPUOPS_H
#define TPU_CONVERSION_TPUTOISA_VPUOPS_H

#include "mlir/IR/Operation.h"

namespace tpu {

/// Whether `op`, elementwise on f32 (scalars or vregs), has a VPU lowering.
bool isVpuOp(mlir::Operation *op);

} // namespace tpu

#endif // TPU_CONVERSION_TPUTOISA_VPUOPS_H
