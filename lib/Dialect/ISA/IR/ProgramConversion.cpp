//===- ProgramConversion.cpp - tpu_isa.program <-> isa::Program -----------===//
//
// The one bridge between the ISA-level MLIR and the in-memory Program that
// the binary format, the listing, the simulator and the bundler share.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/ISA/IR/ISAOps.h"

#include "mlir/IR/Builders.h"
#include "tpu/Dialect/TPU/IR/SourceOp.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"

using namespace mlir;
using namespace tpu;
using namespace tpu::isa::ir;

/// The element type a TensorAttr may have (its verifier allows no other).
static isa::ElementType toElementType(Type type) {
  if (type.isF32())
    return isa::ElementType::F32;
  return type.isBF16() ? isa::ElementType::BF16 : isa::ElementType::I32;
}

static Type fromElementType(Builder &builder, isa::ElementType type) {
  switch (type) {
  case isa::ElementType::F32:
    return builder.getF32Type();
  case isa::ElementType::BF16:
    return builder.getBF16Type();
  case isa::ElementType::I32:
    break;
  }
  return builder.getI32Type();
}

static isa::TensorSignature toSignature(TensorAttr attr) {
  isa::TensorSignature tensor;
  tensor.name = attr.getName().str();
  tensor.elementType = toElementType(attr.getType().getElementType());
  tensor.shape.assign(attr.getType().getShape().begin(),
                      attr.getType().getShape().end());
  tensor.hbmTile = uint32_t(attr.getHbmTile());
  return tensor;
}

static TensorAttr fromSignature(MLIRContext *context,
                                const isa::TensorSignature &tensor) {
  Builder builder(context);
  Type elementType = fromElementType(builder, tensor.elementType);
  return TensorAttr::get(context, tensor.name,
                         RankedTensorType::get(tensor.shape, elementType),
                         tensor.hbmTile);
}

std::optional<isa::SourceLocation>
tpu::isa::ir::getSourceLocation(Location loc) {
  NameLoc name = getSourceOpName(loc);
  if (!name)
    return std::nullopt;
  isa::SourceLocation source{name.getName().str(), "", 0, 0};
  auto position = name.getChildLoc()->findInstanceOf<FileLineColRange>();
  // A position in no file is no position (the binary's rule).
  if (position && !position.getFilename().empty()) {
    source.file = position.getFilename().str();
    source.line = position.getStartLine();
    source.column = position.getStartColumn();
  }
  return source;
}

Location tpu::isa::ir::getLocation(MLIRContext *context,
                                   const isa::SourceLocation &source) {
  Location position =
      source.file.empty()
          ? Location(UnknownLoc::get(context))
          : Location(FileLineColLoc::get(context, source.file, source.line,
                                         source.column));
  return NameLoc::get(StringAttr::get(context, source.opName), position);
}

uint32_t SourceLocationTable::getIndex(Location loc) {
  auto [cached, isNew] = cache.try_emplace(loc, isa::kNoSource);
  if (!isNew)
    return cached->second;
  std::optional<isa::SourceLocation> source = getSourceLocation(loc);
  if (!source)
    return isa::kNoSource;
  auto [it, inserted] = indices.emplace(*source, uint32_t(locations.size()));
  if (inserted)
    locations.push_back(*std::move(source));
  return cached->second = it->second;
}

isa::Program tpu::isa::ir::readProgram(ProgramOp programOp) {
  isa::Program program;
  program.chip = getChipOf(programOp);
  program.entry = programOp.getSymName().str();
  program.usefulMacs = uint64_t(programOp.getUsefulMacs());
  program.usefulF32Macs = uint64_t(programOp.getUsefulF32Macs());
  for (Attribute attr : programOp.getArguments())
    program.arguments.push_back(toSignature(cast<TensorAttr>(attr)));
  for (Attribute attr : programOp.getResults())
    program.results.push_back(toSignature(cast<TensorAttr>(attr)));
  SourceLocationTable sources(program.sourceLocations);
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
    for (InstOp inst : cast<BundleOp>(op).getBody().front().getOps<InstOp>()) {
      bundle.instructions.push_back(inst.getInstruction());
      bundle.instructions.back().source = sources.getIndex(inst.getLoc());
    }
    program.bundles.push_back(std::move(bundle));
  }
  return program;
}

FailureOr<isa::Program> tpu::isa::ir::toProgram(ProgramOp programOp) {
  isa::Program program = readProgram(programOp);
  if (absl::Status status = isa::verifyProgram(program); !status.ok())
    return emitError(programOp.getLoc())
           << "cannot be encoded: " << std::string(status.message());
  return program;
}

ProgramOp tpu::isa::ir::buildProgram(OpBuilder &builder, Location loc,
                                     const isa::Program &program) {
  MLIRContext *context = builder.getContext();
  SmallVector<Attribute> arguments, results;
  for (const isa::TensorSignature &tensor : program.arguments)
    arguments.push_back(fromSignature(context, tensor));
  for (const isa::TensorSignature &tensor : program.results)
    results.push_back(fromSignature(context, tensor));
  auto programOp = ProgramOp::create(
      builder, loc, builder.getStringAttr(program.entry),
      builder.getArrayAttr(arguments), builder.getArrayAttr(results),
      builder.getI64IntegerAttr(int64_t(program.usefulMacs)),
      builder.getI64IntegerAttr(int64_t(program.usefulF32Macs)));
  OpBuilder::InsertionGuard guard(builder);
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
  SmallVector<Location> sources;
  for (const isa::SourceLocation &source : program.sourceLocations)
    sources.push_back(getLocation(context, source));
  for (const isa::Bundle &bundle : program.bundles) {
    OpBuilder::InsertionGuard bundleGuard(builder);
    auto bundleOp = BundleOp::create(builder, loc);
    builder.createBlock(&bundleOp.getBody());
    for (const isa::Instruction &inst : bundle.instructions) {
      const isa::InstInfo &info = inst.info();
      ArrayRef<int64_t> operands(inst.operands.data(), info.getNumOperands());
      Location instLoc =
          inst.source == isa::kNoSource ? loc : sources[inst.source];
      InstOp::create(builder, instLoc, builder.getStringAttr(info.mnemonic),
                     builder.getDenseI64ArrayAttr(operands));
    }
  }
  return programOp;
}
