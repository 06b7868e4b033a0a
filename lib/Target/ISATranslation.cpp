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

static isa::TensorSignature toSignature(TensorAttr attr) {
  isa::TensorSignature tensor;
  tensor.name = attr.getName().str();
  tensor.elementType = attr.getType().getElementType().isF32()
                           ? isa::ElementType::F32
                           : isa::ElementType::I32;
  tensor.shape.assign(attr.getType().getShape().begin(),
                      attr.getType().getShape().end());
  tensor.hbmTile = uint32_t(attr.getHbmTile());
  return tensor;
}

static TensorAttr fromSignature(MLIRContext *context,
                                const isa::TensorSignature &tensor) {
  Builder builder(context);
  Type elementType = tensor.elementType == isa::ElementType::F32
                         ? Type(builder.getF32Type())
                         : Type(builder.getI32Type());
  return TensorAttr::get(context, tensor.name,
                         RankedTensorType::get(tensor.shape, elementType),
                         tensor.hbmTile);
}

FailureOr<isa::Program> tpu::exportProgram(ModuleOp module) {
  SmallVector<ProgramOp> programs(module.getOps<ProgramOp>());
  if (programs.size() != 1)
    return emitError(module.getLoc())
           << "expected exactly one tpu_isa.program in the module, found "
           << programs.size()
           << " (lower the input with tpu-opt --tpu-compile first)";
  ProgramOp programOp = programs.front();
  isa::Program program;
  program.chip = getChipOf(programOp);
  program.entry = programOp.getSymName().str();
  program.usefulMacs = uint64_t(programOp.getUsefulMacs());
  for (Attribute attr : programOp.getArguments())
    program.arguments.push_back(toSignature(cast<TensorAttr>(attr)));
  for (Attribute attr : programOp.getResults())
    program.results.push_back(toSignature(cast<TensorAttr>(attr)));
  for (Operation &op : programOp.getBody().front()) {
    if (auto data = dyn_cast<HbmDataOp>(op)) {
      isa::HbmConstant constant;
      constant.hbmTile = uint32_t(data.getHbmTile());
      auto dense = cast<DenseIntOrFPElementsAttr>(data.getValue());
      if (llvm::isa<FloatType>(dense.getElementType()))
        for (APFloat value : dense.getValues<APFloat>())
          constant.words.push_back(
              uint32_t(value.bitcastToAPInt().getZExtValue()));
      else
        for (APInt value : dense.getValues<APInt>())
          constant.words.push_back(uint32_t(value.getZExtValue()));
      program.constants.push_back(std::move(constant));
      continue;
    }
    isa::Bundle bundle;
    for (InstOp inst : cast<BundleOp>(op).getBody().front().getOps<InstOp>())
      bundle.instructions.push_back(inst.getInstruction());
    program.bundles.push_back(std::move(bundle));
  }
  if (std::optional<std::string> error = isa::verifyProgram(program))
    return emitError(programOp.getLoc()) << "cannot be encoded: " << *error;
  return program;
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
  SmallVector<Attribute> arguments, results;
  for (const isa::TensorSignature &tensor : program.arguments)
    arguments.push_back(fromSignature(context, tensor));
  for (const isa::TensorSignature &tensor : program.results)
    results.push_back(fromSignature(context, tensor));
  auto programOp = ProgramOp::create(
      builder, loc, builder.getStringAttr(program.entry),
      builder.getArrayAttr(arguments), builder.getArrayAttr(results),
      builder.getI64IntegerAttr(int64_t(program.usefulMacs)));
  builder.createBlock(&programOp.getBody());
  for (const isa::HbmConstant &constant : program.constants) {
    auto type = RankedTensorType::get({int64_t(constant.words.size())},
                                      builder.getI32Type());
    SmallVector<APInt> words;
    for (uint32_t word : constant.words)
      words.emplace_back(32, word);
    HbmDataOp::create(builder, loc, DenseElementsAttr::get(type, words),
                      builder.getI64IntegerAttr(constant.hbmTile));
  }
  for (const isa::Bundle &bundle : program.bundles) {
    OpBuilder::InsertionGuard guard(builder);
    auto bundleOp = BundleOp::create(builder, loc);
    builder.createBlock(&bundleOp.getBody());
    for (const isa::Instruction &inst : bundle.instructions) {
      const isa::InstInfo &info = inst.info();
      ArrayRef<int64_t> operands(inst.operands.data(), info.getNumOperands());
      InstOp::create(builder, loc, builder.getStringAttr(info.mnemonic),
                     builder.getDenseI64ArrayAttr(operands));
    }
  }
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
        std::string error;
        std::optional<isa::Program> program = isa::readBinary(bytes, error);
        if (!program) {
          emitError(
              FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0))
              << error;
          return {};
        }
        return importProgram(*program, context);
      },
      registerDialects);
}
