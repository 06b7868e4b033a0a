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
#include "mlir/IR/Builders.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Dialect/TPU/IR/Entry.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"

namespace tpu {
#define GEN_PASS_DEF_TPULOWERTOISA
#include "tpu/Conversion/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

/// The entry's arguments and results as the program's signature: planned
/// f32 HBM buffers, named arg0, ..., result0, ...
LogicalResult getSignature(func::FuncOp func, isa::Program &program) {
  auto signature = [&](Value value,
                       std::string name) -> FailureOr<isa::TensorSignature> {
    auto type = dyn_cast<MemRefType>(value.getType());
    IntegerAttr address = type ? getPlannedAddress(value) : IntegerAttr();
    if (!address || !type.getElementType().isF32())
      return func.emitError()
             << "tpu-lower-to-isa: " << name << " of @" << func.getName()
             << " must be a planned f32 HBM buffer (run tpu-bufferize, "
                "tpu-lower-to-mxu and tpu-plan-memory first), got "
             << value.getType();
    isa::TensorSignature tensor;
    tensor.name = name;
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

/// `func` as a program, one instruction per bundle.
FailureOr<isa::Program> lowerEntry(func::FuncOp func) {
  isa::Program program;
  program.chip = getChipOf(func);
  program.entry = func.getName().str();
  if (auto macs =
          func->getAttrOfType<IntegerAttr>(TPUDialect::getUsefulMacsAttrName()))
    program.usefulMacs = uint64_t(macs.getInt());
  if (auto macs = func->getAttrOfType<IntegerAttr>(
          TPUDialect::getUsefulF32MacsAttrName()))
    program.usefulF32Macs = uint64_t(macs.getInt());
  if (failed(getSignature(func, program)))
    return failure();

  RegisterAllocator registers(func);
  CodeBuffer code;
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
    FailureOr<isa::Program> program = lowerEntry(func);
    if (failed(program))
      return signalPassFailure();
    OpBuilder builder(func);
    isa::ir::buildProgram(builder, func.getLoc(), *program);
    func.erase();
  }
};

} // namespace
