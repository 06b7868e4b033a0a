//===- TPUAttrs.cpp - tpu dialect attributes ------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUAttrs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "tpu/Dialect/TPU/IR/TPUDialect.h"
#include "tpu/Support/Precision.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tpu;

//===----------------------------------------------------------------------===//
// Custom directives used by the generated parsers and printers.
//===----------------------------------------------------------------------===//

/// `8x128`: a non-empty list of static sizes.
static ParseResult parseDimensionList(AsmParser &parser,
                                      SmallVector<int64_t> &dims) {
  return parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                   /*withTrailingX=*/false);
}

static void printDimensionList(AsmPrinter &printer, ArrayRef<int64_t> dims) {
  llvm::interleave(dims, printer.getStream(), "x");
}

#include "tpu/Dialect/TPU/IR/TPUEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "tpu/Dialect/TPU/IR/TPUAttrs.cpp.inc"

void TPUDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tpu/Dialect/TPU/IR/TPUAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Precision
//===----------------------------------------------------------------------===//

// The names live in tpu/Support/Precision.h, for tools without MLIR too.
static_assert(int(Precision::Default) == int(MatmulPrecision::Default) &&
                  int(Precision::High) == int(MatmulPrecision::High) &&
                  int(Precision::Highest) == int(MatmulPrecision::Highest),
              "the ODS enum and MatmulPrecision must agree");

std::optional<Precision> tpu::parsePrecisionName(StringRef name) {
  if (std::optional<MatmulPrecision> precision =
          parseMatmulPrecision(std::string_view(name.data(), name.size())))
    return Precision(int(*precision));
  return std::nullopt;
}

StringRef tpu::getPrecisionSpellings() { return getMatmulPrecisionSpellings(); }

Attribute PrecisionAttr::parse(AsmParser &parser, Type) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeywordOrString(&name))
    return {};
  std::optional<Precision> precision = parsePrecisionName(name);
  if (!precision) {
    parser.emitError(loc) << "unknown precision '" << name
                          << "'; expected one of " << getPrecisionSpellings();
    return {};
  }
  if (parser.parseGreater())
    return {};
  return PrecisionAttr::get(parser.getContext(), *precision);
}

void PrecisionAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyPrecision(getValue()) << '>';
}

//===----------------------------------------------------------------------===//
// TiledLayout
//===----------------------------------------------------------------------===//

LogicalResult
TiledLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ArrayRef<int64_t> tile) {
  if (tile.size() != 2)
    return emitError() << "tile must have 2 dimensions (rows x lanes), got "
                       << tile.size();
  if (llvm::any_of(tile, [](int64_t dim) { return dim <= 0; }))
    return emitError() << "tile dimensions must be positive";
  return success();
}

LogicalResult TiledLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() < getTile().size())
    return emitError() << "a tiled layout of " << getTile().size()
                       << " dimensions needs a tensor of at least that rank, "
                          "got rank "
                       << shape.size();
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() > 32)
    return emitError() << "a tiled layout holds integer or float elements of "
                          "at most 32 bits, got "
                       << elementType;
  return success();
}

TiledLayoutAttr TiledLayoutAttr::getNative(Type elementType) {
  unsigned bitWidth = elementType.getIntOrFloatBitWidth();
  assert(bitWidth >= 8 && bitWidth <= 32 && "no native tile for this type");
  // A vreg holds kSublanes rows of 32-bit words; narrower elements pack into
  // a word along the sublane dimension.
  int64_t rows = int64_t(kSublanes) * (32 / bitWidth);
  return get(elementType.getContext(), {rows, int64_t(kLanes)});
}

SmallVector<int64_t>
TiledLayoutAttr::getPaddedShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> padded(shape);
  size_t tiledRank = getTile().size();
  assert(shape.size() >= tiledRank && "tensor rank below tile rank");
  for (size_t i = 0; i < tiledRank; ++i) {
    int64_t &dim = padded[shape.size() - tiledRank + i];
    dim = llvm::alignTo(dim, getTile()[i]);
  }
  return padded;
}

//===----------------------------------------------------------------------===//
// Chip
//===----------------------------------------------------------------------===//

Attribute ChipAttr::parse(AsmParser &parser, Type) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeywordOrString(&name))
    return {};
  std::optional<ChipKind> kind = lookupChip(name);
  if (!kind) {
    parser.emitError(loc) << "unknown chip '" << name << "'; expected one of "
                          << listChipNames();
    return {};
  }
  if (parser.parseGreater())
    return {};
  return ChipAttr::get(parser.getContext(), *kind);
}

void ChipAttr::print(AsmPrinter &printer) const {
  printer << '<' << getInfo().name << '>';
}

const ChipInfo &ChipAttr::getInfo() const { return getChipInfo(getKind()); }

ChipKind tpu::getChipOf(Operation *op) {
  for (Operation *parent = op; parent; parent = parent->getParentOp())
    if (auto chip =
            parent->getAttrOfType<ChipAttr>(TPUDialect::getChipAttrName()))
      return chip.getKind();
  return kDefaultChip;
}
