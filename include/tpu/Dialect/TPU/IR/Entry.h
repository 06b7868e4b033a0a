//===- Entry.h - The function compiled into a program ---------*- C++ -*-===//
//
// tpu-bufferize, tpu-plan-memory and tpu-lower-to-isa work on one function
// of the module, the entry (the pipeline's `entry` option, `main` unless
// told); this finds it, and says the same thing in each when it is not there.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_DIALECT_TPU_IR_ENTRY_H
#define TPU_DIALECT_TPU_IR_ENTRY_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpu {

/// The func.func named `entryName` in `module`, or null after an error on
/// the module that names `passArgument`, the missing function and the fix.
mlir::func::FuncOp lookupEntry(mlir::ModuleOp module, llvm::StringRef entryName,
                               llvm::StringRef passArgument);

} // namespace tpu

#endif // TPU_DIALECT_TPU_IR_ENTRY_H
