//===- LowerToISA.cpp - Loop-level tpu IR to a tpu_isa.program ------------===//
//
// Replaces the planned entry function with a tpu_isa.program, in three
// parts: instruction selection (InstructionSelector), register allocation
// (RegisterAllocator) and control-flow linearization (Linearizer). The
// program has one instruction per bundle, correct but slow; tpu-bundle
// packs it.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/Passes.h"

#include "InstructionSelector.h"
#include "Linearizer.h"
#include "RegisterAllocator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/ADT/SetVector.h"

namespace tpu {
#define GEN_PASS_DEF_TPULOWERTOISA
#include "tpu/Conversion/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// The entry's arguments and results as the program's signature: planned
/// f32 or bf16 HBM buffers, named arg0, ..., result0, ...
LogicalResult getSignature(func::FuncOp func, isa::Program &program) {
  auto signature = [&](Value value,
                       std::string name) -> FailureOr<isa::TensorSignature> {
    auto type = dyn_cast<MemRefType>(value.getType());
    IntegerAttr address = type ? getPlannedAddress(value) : IntegerAttr();
    if (!address ||
        (!type.getElementType().isF32() && !type.getElementType().isBF16()))
      return func.emitError()
             << "tpu-lower-to-isa: " << name << " of @" << func.getName()
             << " must be a planned f32 or bf16 HBM buffer (run "
                "tpu-bufferize, tpu-lower-to-mxu and tpu-plan-memory "
                "first), got "
             << value.getType();
    isa::TensorSignature tensor;
    tensor.name = name;
    tensor.elementType = type.getElementType().isBF16()
                             ? isa::ElementType::BF16
                             : isa::ElementType::F32;
    tensor.shape = type.getShape().vec();
    tensor.hbmTile = uint32_t(address.getInt());
    return tensor;
  };
  for (BlockArgument arg : func.getArguments()) {
    auto tensor = signature(arg, "arg" + std::to_string(arg.getArgNumber()));
    if (failed(tensor))
      return failure();
    program.arguments.push_back(*tensor);
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [index, value] : llvm::enumerate(ret.getOperands())) {
    auto tensor = signature(value, "result" + std::to_string(index));
    if (failed(tensor))
      return failure();
    program.results.push_back(*tensor);
  }
  return success();
}

/// The words of `value`'s tiled image (tpu/Support/TiledLayout.h), zero
/// padded: f32 as its bits, bf16 packed two to a word.
std::vector<uint32_t> getTiledImage(DenseElementsAttr value) {
  TiledShape tiled = getTiledShape(cast<ShapedType>(value.getType()));
  std::vector<uint32_t> words(size_t(tiled.numTiles()) * kWordsPerTile, 0);
  int64_t index = 0;
  for (APFloat element : value.getValues<APFloat>())
    tiled.setElement(words, index++,
                     uint32_t(element.bitcastToAPInt().getZExtValue()));
  return words;
}

/// The constants the entry reads, as HBM data at their planned tiles; each
/// global once.
LogicalResult getConstants(func::FuncOp func, isa::Program &program,
                           SetVector<memref::GlobalOp> &globals) {
  WalkResult walk = func.walk([&](memref::GetGlobalOp read) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        read, read.getNameAttr());
    auto value = global ? dyn_cast_or_null<DenseElementsAttr>(
                              global.getInitialValueAttr())
                        : DenseElementsAttr();
    IntegerAttr address = getPlannedAddress(read);
    if (!value || !global.getConstant() || !address) {
      read.emitError() << "tpu-lower-to-isa: " << read.getName()
                       << " must be a planned constant global with dense "
                          "values (run tpu-bufferize and tpu-plan-memory "
                          "first)";
      return WalkResult::interrupt();
    }
    if (globals.insert(global))
      program.constants.push_back(
          {uint32_t(address.getInt()), getTiledImage(value)});
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// `func` as a program, one instruction per bundle.
FailureOr<isa::Program> lowerEntry(func::FuncOp func,
                                   SetVector<memref::GlobalOp> &globals) {
  isa::Program program;
  program.chip = getChipOf(func);
  program.entry = func.getName().str();
  if (auto macs =
          func->getAttrOfType<IntegerAttr>(TPUDialect::getUsefulMacsAttrName()))
    program.usefulMacs = uint64_t(macs.getInt());
  if (auto macs = func->getAttrOfType<IntegerAttr>(
          TPUDialect::getUsefulF32MacsAttrName()))
    program.usefulF32Macs = uint64_t(macs.getInt());
  if (failed(getSignature(func, program)) ||
      failed(getConstants(func, program, globals)))
    return failure();

  RegisterAllocator registers(func);
  CodeBuffer code(program.sourceLocations);
  // The entry's own instructions (the prologue, the halt) are the
  // function's.
  CodeBuffer::SourceScope scope(code, func.getLoc());
  InstructionSelector selector(registers, code);
  code.emit(isa::Opcode::SLi, {kOneReg, 1});
  Linearizer(selector, registers, code).linearize(func.getBody().front());
  if (registers.failed())
    return failure();
  for (const isa::Instruction &inst : code.finish())
    program.bundles.push_back(isa::Bundle{{inst}});
  if (absl::Status status = isa::verifyProgram(program); !status.ok())
    return func.emitError()
           << "tpu-lower-to-isa: the program cannot be encoded: "
           << std::string(status.message());
  return program;
}

struct LowerToISAPass : public tpu::impl::TPULowerToISABase<LowerToISAPass> {
  using TPULowerToISABase::TPULowerToISABase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp func = lookupEntry(module, entryName, getArgument());
    if (!func)
      return signalPassFailure();
    SetVector<memref::GlobalOp> globals;
    FailureOr<isa::Program> program = lowerEntry(func, globals);
    if (failed(program))
      return signalPassFailure();
    OpBuilder builder(func);
    isa::ir::buildProgram(builder, func.getLoc(), *program);
    func.erase();
    // Their values are the program's now.
    for (memref::GlobalOp global : globals)
      if (SymbolTable::symbolKnownUseEmpty(global, module))
        global.erase();
  }
};

} // namespace
