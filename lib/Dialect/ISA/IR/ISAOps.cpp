//===- ISAOps.cpp - tpu_isa dialect ---------------------------------------===//

#include "tpu/Dialect/ISA/IR/ISAOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "tpu/Dialect/TPU/IR/TPUAttrs.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpu::isa::ir;

#include "tpu/Dialect/ISA/IR/ISADialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tpu/Dialect/ISA/IR/ISAAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tpu/Dialect/ISA/IR/ISAOps.cpp.inc"

void ISADialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tpu/Dialect/ISA/IR/ISAOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tpu/Dialect/ISA/IR/ISAAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TensorAttr
//===----------------------------------------------------------------------===//

LogicalResult TensorAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, RankedTensorType type,
                                 int64_t hbmTile) {
  if (!type.hasStaticShape())
    return emitError() << "tensor '" << name
                       << "' must have a static shape, got " << type;
  if (!type.getElementType().isF32() && !type.getElementType().isBF16() &&
      !type.getElementType().isSignlessInteger(32))
    return emitError() << "tensor '" << name
                       << "' must have f32, bf16 or i32 elements, got "
                       << type.getElementType();
  if (hbmTile < 0 || hbmTile > UINT32_MAX)
    return emitError() << "tensor '" << name << "' has HBM tile " << hbmTile
                       << ", outside [0, 2^32)";
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

StringRef ProgramOp::getDefaultDialect() { return "tpu_isa"; }

LogicalResult ProgramOp::verifyRegions() {
  bool seenBundle = false;
  for (Operation &op : getBody().front()) {
    if (llvm::isa<BundleOp>(op)) {
      seenBundle = true;
    } else if (llvm::isa<HbmDataOp>(op)) {
      if (seenBundle)
        return op.emitOpError("must come before the program's bundles");
    } else {
      return op.emitOpError("cannot be in a tpu_isa.program; it holds only "
                            "tpu_isa.hbm_data and tpu_isa.bundle ops");
    }
  }
  if (!seenBundle)
    return emitOpError("needs at least one bundle (end it with halt)");
  // The rules are isa::verifyProgram's, checked part by part so that each
  // error points at its bundle or instruction.
  Program program = readProgram(*this);
  if (absl::Status status = verifySignature(program); !status.ok())
    return emitOpError() << std::string(status.message());
  size_t numBundles = program.bundles.size();
  for (auto [bundleOp, bundle] :
       llvm::zip(getBody().front().getOps<BundleOp>(), program.bundles)) {
    if (absl::Status status = verifyBundle(bundle); !status.ok())
      return bundleOp.emitOpError() << std::string(status.message());
    for (auto [instOp, inst] : llvm::zip(
             bundleOp.getBody().front().getOps<InstOp>(), bundle.instructions))
      if (absl::Status status =
              verifyInstructionInProgram(inst, program.chip, numBundles);
          !status.ok())
        return instOp.emitOpError() << std::string(status.message());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// HbmDataOp
//===----------------------------------------------------------------------===//

LogicalResult HbmDataOp::verify() {
  if (!llvm::isa<DenseIntOrFPElementsAttr>(getValue()))
    return emitOpError() << "needs a dense integer or float elements "
                            "attribute, got "
                         << getValue();
  Type elementType = getValue().getElementType();
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() != 32)
    return emitOpError() << "holds 32-bit words; got elements of type "
                         << elementType;
  int64_t tile = getHbmTileAttr().getInt();
  if (tile < 0 || tile > UINT32_MAX)
    return emitOpError() << "HBM tile " << tile << " is outside [0, 2^32)";
  return success();
}

//===----------------------------------------------------------------------===//
// BundleOp
//===----------------------------------------------------------------------===//

StringRef BundleOp::getDefaultDialect() { return "tpu_isa"; }

LogicalResult BundleOp::verifyRegions() {
  for (Operation &op : getBody().front())
    if (!llvm::isa<InstOp>(op))
      return op.emitOpError("cannot be in a tpu_isa.bundle; it holds only "
                            "tpu_isa.inst ops");
  // The slot rules need the program (the chip, the branch targets): the
  // program verifies its bundles.
  return success();
}

//===----------------------------------------------------------------------===//
// InstOp
//===----------------------------------------------------------------------===//

tpu::isa::Instruction InstOp::getInstruction() {
  isa::Instruction inst;
  if (const isa::InstInfo *info = isa::lookupMnemonic(getMnemonic()))
    inst.opcode = info->opcode;
  ArrayRef<int64_t> operands = getOperands();
  for (size_t i = 0; i < operands.size() && i < isa::kMaxOperands; ++i)
    inst.operands[i] = operands[i];
  return inst;
}

LogicalResult InstOp::verify() {
  const isa::InstInfo *info = isa::lookupMnemonic(getMnemonic());
  if (!info)
    return emitOpError() << "unknown instruction '" << getMnemonic()
                         << "' (docs/ISA.md lists the instruction set)";
  if (getOperands().size() != info->getNumOperands())
    return emitOpError() << "'" << getMnemonic() << "' takes "
                         << info->getNumOperands() << " operand(s), got "
                         << getOperands().size();
  if (absl::Status status = isa::verifyInstruction(getInstruction());
      !status.ok())
    return emitOpError() << std::string(status.message());
  return success();
}

ParseResult InstOp::parse(OpAsmParser &parser, OperationState &result) {
  std::string mnemonic;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&mnemonic))
    return failure();
  const isa::InstInfo *info = isa::lookupMnemonic(mnemonic);
  if (!info)
    return parser.emitError(loc) << "unknown instruction '" << mnemonic
                                 << "' (docs/ISA.md lists the instruction set)";
  SmallVector<int64_t> operands;
  for (unsigned i = 0, e = info->getNumOperands(); i < e; ++i) {
    if (i > 0 && parser.parseComma())
      return failure();
    SMLoc operandLoc = parser.getCurrentLocation();
    std::string text;
    StringRef keyword;
    if (succeeded(parser.parseOptionalKeyword(&keyword))) {
      text = keyword.str();
    } else {
      APInt value;
      OptionalParseResult parsed = parser.parseOptionalInteger(value);
      if (!parsed.has_value() || failed(*parsed))
        return parser.emitError(operandLoc)
               << "'" << mnemonic << "' operand #" << i
               << ": expected a register, a bundle target or an integer";
      text = value.getBitWidth() > 64 ? "overflow"
                                      : std::to_string(value.getSExtValue());
    }
    absl::StatusOr<int64_t> value = isa::parseOperand(info->operands[i], text);
    if (!value.ok())
      return parser.emitError(operandLoc)
             << "'" << mnemonic << "' operand #" << i << ": "
             << std::string(value.status().message());
    operands.push_back(*value);
  }
  Builder &builder = parser.getBuilder();
  result.addAttribute(getMnemonicAttrName(result.name),
                      builder.getStringAttr(mnemonic));
  result.addAttribute(getOperandsAttrName(result.name),
                      builder.getDenseI64ArrayAttr(operands));
  return parser.parseOptionalAttrDict(result.attributes);
}

void InstOp::print(OpAsmPrinter &printer) {
  isa::Instruction inst = getInstruction();
  printer << ' ' << isa::formatInstruction(inst);
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getMnemonicAttrName(), getOperandsAttrName()});
}
