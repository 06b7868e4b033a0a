//===- Entry.cpp - The function compiled into a program -----------------===//

#include "tpu/Dialect/TPU/IR/Entry.h"

using namespace mlir;

func::FuncOp tpu::lookupEntry(ModuleOp module, StringRef entryName,
                              StringRef passArgument) {
  if (auto entry = module.lookupSymbol<func::FuncOp>(entryName))
    return entry;
  module.emitError() << passArgument << ": no func.func @" << entryName
                     << " to compile (name the entry with entry=NAME)";
  return nullptr;
}
