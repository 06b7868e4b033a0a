//===- ISATranslation.cpp - tpu_isa MLIR <-> Program ----------------------===//

#include "tpu/Target/ISATranslation.h"

#include "mlir/IR/Builders.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"
#include "tpu/ISA/Assembly.h"
#include "tpu/ISA/Binary.h"
#include "tpu/InitAllDialects.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace tpu;
using namespace tpu::isa::ir;

FailureOr<isa::Program> tpu::exportProgram(ModuleOp module) {
  SmallVector<ProgramOp> programs(module.getOps<ProgramOp>());
  if (programs.size() != 1)
    return emitError(module.getLoc())
           << "expected exactly one tpu_isa.program in the module, found "
           << programs.size()
           << " (lower the input with tpu-opt --tpu-compile first)";
  return toProgram(programs.front());
}

OwningOpRef<ModuleOp> tpu::importProgram(const isa::Program &program,
                                         MLIRContext *context) {
  context->loadDialect<TPUDialect, ISADialect>();
  OpBuilder builder(context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  (*module)->setAttr(TPUDialect::getChipAttrName(),
                     ChipAttr::get(context, program.chip));
  builder.setInsertionPointToEnd(module->getBody());
  buildProgram(builder, loc, program);
  return module;
}

void tpu::registerISATranslations() {
  // Accept what tpu-opt accepts, so that exporting a program that was not
  // lowered yet says so instead of failing to parse.
  auto registerDialects = [](DialectRegistry &registry) {
    registerAllDialects(registry);
  };
  // Both exports take the module's program and write it in their format.
  using Writer = void (*)(const isa::Program &, raw_ostream &);
  auto exporter = [](Writer write) {
    return [write](Operation *op, raw_ostream &output) -> LogicalResult {
      auto module = dyn_cast<ModuleOp>(op);
      if (!module)
        return op->emitError("expected a builtin.module");
      FailureOr<isa::Program> program = exportProgram(module);
      if (failed(program))
        return failure();
      write(*program, output);
      return success();
    };
  };
  static TranslateFromMLIRRegistration exportBinary(
      "export-tpu-bin", "write the tpu_isa program as a .tpu binary",
      exporter([](const isa::Program &program, raw_ostream &output) {
        std::vector<uint8_t> bytes = isa::writeBinary(program);
        output.write(reinterpret_cast<const char *>(bytes.data()),
                     bytes.size());
      }),
      registerDialects);
  static TranslateFromMLIRRegistration exportAssembly(
      "export-tpu-asm", "write the tpu_isa program as an assembly listing",
      exporter([](const isa::Program &program, raw_ostream &output) {
        output << isa::printAssembly(program);
      }),
      registerDialects);
  static TranslateToMLIRRegistration importBinary(
      "import-tpu-bin", "read a .tpu binary into tpu_isa MLIR",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        std::vector<uint8_t> bytes(buffer->getBufferStart(),
                                   buffer->getBufferEnd());
        absl::StatusOr<isa::Program> program = isa::readBinary(bytes);
        if (!program.ok()) {
          emitError(
              FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0))
              << std::string(program.status().message());
          return {};
        }
        return importProgram(*program, context);
      },
      registerDialects);
}
