//===- TPUAttrs.h - tpu dialect attributes ----------------------*- C++ -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUATTRS_H
#define TPU_DIALECT_TPU_IR_TPUATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TensorEncoding.h"
#include "tpu/Support/Chip.h"

#include "tpu/Dialect/TPU/IR/TPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tpu/Dialect/TPU/IR/TPUAttrs.h.inc"

namespace tpu {

/// Parses a precision name as users write it (tpu::parseMatmulPrecision,
/// tpu/Support/Precision.h). Shared by the attribute parser and the
/// options' parser (OptionParsers.h).
std::optional<Precision> parsePrecisionName(llvm::StringRef name);

/// Every accepted spelling, for error messages.
llvm::StringRef getPrecisionSpellings();

/// The chip `op` is compiled for: the `tpu.chip` attribute of the nearest
/// ancestor (itself included) that has one, else the default chip.
ChipKind getChipOf(mlir::Operation *op);

} // namespace tpu

#endif // TPU_DIALECT_TPU_IR_TPUATTRS_H
