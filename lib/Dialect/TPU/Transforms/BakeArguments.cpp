//===- BakeArguments.cpp - Entry arguments as constants from .npy files ---===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Npy/Npy.h"
#include "llvm/ADT/BitVector.h"

namespace tpu {
#define GEN_PASS_DEF_TPUBAKEARGUMENTS
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// The values of `path` as a constant of `type`, or an error at `func`.
FailureOr<DenseElementsAttr> readValues(func::FuncOp func, unsigned index,
                                        RankedTensorType type,
                                        StringRef path) {
  auto fail = [&]() {
    return func.emitError() << "tpu-bake-arguments: argument " << index
                            << " of @" << func.getName() << " from '" << path
                            << "': ";
  };
  if (!type.hasStaticShape() || !type.getElementType().isF32())
    return fail() << "the argument is " << type
                  << "; only statically shaped f32 tensors can be baked";
  absl::StatusOr<NpyArray> array = readNpyFile(path.str());
  if (!array.ok())
    return fail() << std::string(array.status().message());
  if (array->elementType != isa::ElementType::F32 ||
      array->shape != std::vector<int64_t>(type.getShape()))
    return fail() << "the file holds "
                  << isa::getElementTypeName(array->elementType)
                  << formatShape(array->shape) << ", the argument is " << type
                  << "; write the file with that shape and type";
  ArrayRef<char> bytes(reinterpret_cast<const char *>(array->words.data()),
                       array->words.size() * sizeof(uint32_t));
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

struct BakeArgumentsPass
    : public tpu::impl::TPUBakeArgumentsBase<BakeArgumentsPass> {
  using TPUBakeArgumentsBase::TPUBakeArgumentsBase;

  void runOnOperation() override {
    func::FuncOp func = lookupEntry(getOperation(), entryName, getArgument());
    if (!func)
      return signalPassFailure();
    if (func.isExternal()) {
      func.emitError() << "tpu-bake-arguments: @" << func.getName()
                       << " has no body to bake arguments into";
      return signalPassFailure();
    }
    // Its calls would pass the arguments it no longer takes.
    if (!SymbolTable::symbolKnownUseEmpty(func, getOperation())) {
      func.emitError() << "tpu-bake-arguments: @" << func.getName()
                       << " is called in the module; bake the arguments of "
                          "the entry, which nothing calls";
      return signalPassFailure();
    }
    unsigned numArguments = func.getNumArguments();
    llvm::BitVector baked(numArguments);
    OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
    for (const std::string &entry : arguments) {
      auto [indexText, path] = StringRef(entry).split('=');
      unsigned index;
      if (path.empty() || indexText.getAsInteger(10, index)) {
        func.emitError() << "tpu-bake-arguments: '" << entry
                         << "' is not INDEX=FILE.npy (e.g. 1=w1.npy)";
        return signalPassFailure();
      }
      if (index >= numArguments) {
        func.emitError() << "tpu-bake-arguments: argument " << index << " of @"
                         << func.getName() << " does not exist; it has "
                         << numArguments << " arguments";
        return signalPassFailure();
      }
      if (baked.test(index)) {
        func.emitError() << "tpu-bake-arguments: argument " << index << " of @"
                         << func.getName() << " is baked twice";
        return signalPassFailure();
      }
      BlockArgument argument = func.getArgument(index);
      auto type = dyn_cast<RankedTensorType>(argument.getType());
      FailureOr<DenseElementsAttr> values =
          type ? readValues(func, index, type, path)
               : FailureOr<DenseElementsAttr>(
                     func.emitError()
                     << "tpu-bake-arguments: argument " << index << " of @"
                     << func.getName() << " is " << argument.getType()
                     << "; only tensors can be baked");
      if (failed(values))
        return signalPassFailure();
      argument.replaceAllUsesWith(
          arith::ConstantOp::create(builder, argument.getLoc(), *values));
      baked.set(index);
    }
    if (failed(func.eraseArguments(baked)))
      return signalPassFailure();
  }
};

} // namespace
