//===- Bufferize.cpp - One-Shot Bufferize of the entry --------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Dialect/TPU/Transforms/BufferizableOpInterfaceImpl.h"

namespace tpu {
#define GEN_PASS_DEF_TPUBUFFERIZE
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// What the runtime can hand over: statically shaped f32 tensors.
LogicalResult checkBoundaryType(func::FuncOp func, Type type, StringRef what,
                                size_t index) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return func.emitError() << "tpu-bufferize: " << what << " " << index
                            << " of @" << func.getName() << " has type " << type
                            << "; the TPU takes statically shaped tensors";
  if (!tensor.getElementType().isF32())
    return func.emitError()
           << "tpu-bufferize: " << what << " " << index << " of @"
           << func.getName() << " is " << type
           << "; the runtime moves f32 tensors (.npy has no bf16): use "
              "f32 and convert inside the function with arith.truncf";
  return success();
}

/// The entry holds only what the tpu ops and their kernels cover.
LogicalResult checkEntry(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError() << "tpu-bufferize: the entry must be a single "
                               "block (no control flow)";
  FunctionType type = func.getFunctionType();
  for (auto [index, argType] : llvm::enumerate(type.getInputs()))
    if (failed(checkBoundaryType(func, argType, "argument", index)))
      return failure();
  for (auto [index, resultType] : llvm::enumerate(type.getResults()))
    if (failed(checkBoundaryType(func, resultType, "result", index)))
      return failure();
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (op.hasTrait<KernelOpTrait>())
      continue;
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (isa<TensorType>(constant.getType()))
        return op.emitError()
               << "tpu-bufferize: tensor constants are not supported yet; "
                  "pass the values as an argument";
      continue; // a scalar: it folds into what uses it
    }
    return op.emitError()
           << "tpu-bufferize: cannot compile '" << op.getName()
           << "' for the TPU; supported are the ops tpu-convert-linalg, "
              "tpu-pad-to-tiles and tpu-expand-precision produce";
  }
  return prepareBufferization(func.getBody().front());
}

struct BufferizePass : public tpu::impl::TPUBufferizeBase<BufferizePass> {
  using TPUBufferizeBase::TPUBufferizeBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = lookupEntry(module, entryName, getArgument());
    if (!entry)
      return signalPassFailure();
    // Leftovers of the front end (the empty tensor of a zero fill a
    // converted matmul no longer reads) compute nothing anyone uses.
    if (!entry.getBody().empty()) {
      SmallVector<Operation *> ops;
      for (Operation &op : entry.getBody().front().without_terminator())
        ops.push_back(&op);
      for (Operation *op : llvm::reverse(ops))
        if (isOpTriviallyDead(op))
          op->erase();
    }
    if (failed(checkEntry(entry)))
      return signalPassFailure();
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(
            module, getBufferizationOptions(entry), state)))
      return signalPassFailure();
  }
};

} // namespace
