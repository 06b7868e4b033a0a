//===- Bufferize.cpp - One-Shot Bufferize of the entry --------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Dialect/TPU/IR/TiledBuffer.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Dialect/TPU/Transforms/BufferizableOpInterfaceImpl.h"

namespace tpu {
#define GEN_PASS_DEF_TPUBUFFERIZE
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// What the runtime can hand over: statically shaped f32 or bf16 tensors.
LogicalResult checkBoundaryType(func::FuncOp func, Type type, StringRef what,
                                size_t index) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return func.emitError() << "tpu-bufferize: " << what << " " << index
                            << " of @" << func.getName() << " has type " << type
                            << "; the TPU takes statically shaped tensors";
  if (tensor.getNumElements() == 0)
    return func.emitError() << "tpu-bufferize: " << what << " " << index
                            << " of @" << func.getName() << " is " << type
                            << ", which has no elements; the TPU takes "
                               "tensors of at least one element";
  if (!tensor.getElementType().isF32() && !tensor.getElementType().isBF16())
    return func.emitError()
           << "tpu-bufferize: " << what << " " << index << " of @"
           << func.getName() << " is " << type
           << "; the runtime moves f32 and bf16 tensors: convert inside "
              "the function (arith.extf, arith.truncf)";
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
    for (Type type : op.getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0)
        return op.emitError() << "tpu-bufferize: the result " << type
                              << " has no elements; the TPU takes tensors "
                                 "of at least one element";
    if (op.hasTrait<KernelOpTrait>())
      continue;
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (auto type = dyn_cast<RankedTensorType>(constant.getType())) {
        if (!type.getElementType().isF32() && !type.getElementType().isBF16())
          return op.emitError()
                 << "tpu-bufferize: a tensor constant of " << type
                 << " cannot be placed in HBM; the TPU holds f32 and bf16 "
                    "tensors";
        if (!isa<DenseElementsAttr>(constant.getValue()))
          return op.emitError()
                 << "tpu-bufferize: this tensor constant's values are not "
                    "in the program (" << constant.getValue()
                 << "); write them as a dense<...> literal";
      }
      continue; // a scalar folds into what uses it
    }
    return op.emitError()
           << "tpu-bufferize: cannot compile '" << op.getName()
           << "' for the TPU; supported are the ops tpu-convert-linalg, "
              "tpu-pad-to-tiles and tpu-expand-precision produce";
  }
  return prepareBufferization(func.getBody().front());
}

/// Each tensor constant of the entry as a read-only HBM buffer: a private
/// constant `memref.global` in the tiled layout (one per distinct value and
/// type), read through `memref.get_global`. tpu-plan-memory places the
/// global and tpu-lower-to-isa writes its tiled image into the program's
/// HBM constants. The constant becomes a `bufferization.to_tensor` of the
/// buffer before One-Shot Bufferize runs, so the analysis sees a buffer
/// nobody may write (no kernel writes its operands anyway).
void materializeTensorConstants(ModuleOp module, func::FuncOp entry) {
  SymbolTable symbols(module);
  DenseMap<std::pair<Attribute, Type>, memref::GlobalOp> globals;
  for (auto global : module.getOps<memref::GlobalOp>())
    if (global.getConstant() && global.getInitialValue())
      globals[{*global.getInitialValue(), global.getType()}] = global;
  SmallVector<arith::ConstantOp> constants;
  for (auto constant : entry.getBody().front().getOps<arith::ConstantOp>())
    if (isa<RankedTensorType>(constant.getType()))
      constants.push_back(constant);
  for (arith::ConstantOp constant : constants) {
    auto tensorType = cast<RankedTensorType>(constant.getType());
    MemRefType bufferType = getTiledHbmType(tensorType);
    memref::GlobalOp &global = globals[{constant.getValue(), bufferType}];
    if (!global) {
      OpBuilder builder(entry); // globals precede the entry, in order
      global = memref::GlobalOp::create(
          builder, constant.getLoc(), "tpu_constant",
          builder.getStringAttr("private"), bufferType, constant.getValue(),
          /*constant=*/true, /*alignment=*/IntegerAttr());
      symbols.insert(global); // renames it apart from every other symbol
    }
    OpBuilder builder(constant);
    Value buffer = memref::GetGlobalOp::create(builder, constant.getLoc(),
                                               bufferType, global.getName());
    Value tensor = bufferization::ToTensorOp::create(
        builder, constant.getLoc(), tensorType, buffer, /*restrict=*/true,
        /*writable=*/false);
    constant.replaceAllUsesWith(tensor);
    constant.erase();
  }
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
    materializeTensorConstants(module, entry);
    bufferization::BufferizationState state;
    if (failed(bufferization::runOneShotModuleBufferize(
            module, getBufferizationOptions(entry), state)))
      return signalPassFailure();
  }
};

} // namespace
