//===- TPUOps.cpp - tpu dialect operations --------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tpu;

/// `[2, 3]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return text;
}

/// The shape rules a matmul's operands share, for tpu.matmul and each term
/// of tpu.matmul_passes: [batch..., M, K] x [batch..., K, N] -> [batch..., M,
/// N], with an accumulator (if any) of the result's shape.
static LogicalResult verifyMatmulShapes(Operation *op, Type lhsTy, Type rhsTy,
                                        Type resultTy, Value acc) {
  auto emitOpError = [&]() { return op->emitOpError(); };
  auto lhsType = cast<RankedTensorType>(lhsTy);
  auto rhsType = cast<RankedTensorType>(rhsTy);
  ArrayRef<int64_t> lhs = lhsType.getShape();
  ArrayRef<int64_t> rhs = rhsType.getShape();
  if (lhs.size() < 2)
    return emitOpError() << "lhs must have rank >= 2 ([batch...,] M, K), got "
                         << lhsType;
  if (rhs.size() < 2)
    return emitOpError() << "rhs must have rank >= 2 ([batch...,] K, N), got "
                         << rhsType;
  if (lhs.size() != rhs.size())
    return emitOpError() << "lhs and rhs must have the same rank (the same "
                            "batch dimensions), got "
                         << lhsType << " and " << rhsType;
  size_t batchRank = lhs.size() - 2;
  ArrayRef<int64_t> lhsBatch = lhs.take_front(batchRank);
  ArrayRef<int64_t> rhsBatch = rhs.take_front(batchRank);
  if (lhsBatch != rhsBatch)
    return emitOpError() << "batch dimensions differ: lhs has "
                         << formatShape(lhsBatch) << ", rhs has "
                         << formatShape(rhsBatch);
  int64_t m = lhs[batchRank], k = lhs[batchRank + 1];
  int64_t rhsK = rhs[batchRank], n = rhs[batchRank + 1];
  if (k != rhsK)
    return emitOpError() << "contraction dimensions differ: lhs is M x K = "
                         << m << " x " << k << " but rhs is K x N = " << rhsK
                         << " x " << n;
  SmallVector<int64_t> expected(lhsBatch);
  expected.append({m, n});
  ArrayRef<int64_t> result = cast<RankedTensorType>(resultTy).getShape();
  if (result != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be [batch..., M, N] = "
                         << formatShape(expected) << ", got "
                         << formatShape(result);
  if (acc) {
    ArrayRef<int64_t> accShape =
        cast<RankedTensorType>(acc.getType()).getShape();
    if (accShape != ArrayRef<int64_t>(expected))
      return emitOpError() << "accumulator shape must match the result "
                           << formatShape(expected) << ", got "
                           << formatShape(accShape);
  }
  return success();
}

LogicalResult MatmulOp::verify() {
  return verifyMatmulShapes(*this, getLhs().getType(), getRhs().getType(),
                            getResult().getType(), getAcc());
}

LogicalResult SplitOp::verify() {
  size_t parts = getParts().size();
  if (parts != 2 && parts != 3)
    return emitOpError() << "splits into 2 parts (hi, lo) or 3 (hi, mid, lo), "
                            "got "
                         << parts;
  auto inputType = cast<RankedTensorType>(getInput().getType());
  for (Value part : getParts())
    if (cast<RankedTensorType>(part.getType()).getShape() !=
        inputType.getShape())
      return emitOpError() << "every part must have the input's shape "
                           << formatShape(inputType.getShape()) << ", got "
                           << part.getType();
  return success();
}

LogicalResult MatmulPassesOp::verify() {
  size_t terms = getLhs().size();
  if (terms == 0)
    return emitOpError() << "needs at least one term";
  if (getRhs().size() != terms)
    return emitOpError() << "needs as many rhs as lhs operands (one pair per "
                            "term), got "
                         << terms << " and " << getRhs().size();
  int64_t fixed = getNanFixedTerms();
  if (fixed < 0 || fixed >= int64_t(terms))
    return emitOpError() << "nan_fixed_terms must leave at least one term "
                            "outside the NaN-fixed group: expected 0 to "
                         << terms - 1 << ", got " << fixed;
  auto shapeOf = [](Value v) { return cast<ShapedType>(v.getType()).getShape(); };
  for (size_t i = 1; i < terms; ++i)
    if (shapeOf(getLhs()[i]) != shapeOf(getLhs()[0]) ||
        shapeOf(getRhs()[i]) != shapeOf(getRhs()[0]))
      return emitOpError() << "every term must have the first term's shapes "
                           << formatShape(shapeOf(getLhs()[0])) << " x "
                           << formatShape(shapeOf(getRhs()[0])) << ", term "
                           << i << " has " << formatShape(shapeOf(getLhs()[i]))
                           << " x " << formatShape(shapeOf(getRhs()[i]));
  for (size_t i = 0; i < terms; ++i)
    if (failed(verifyMatmulShapes(*this, getLhs()[i].getType(),
                                  getRhs()[i].getType(), getResult().getType(),
                                  getAcc())))
      return failure();
  return success();
}

LogicalResult TiledViewOp::verify() {
  auto tiles = [](MemRefType type) {
    TiledShape shape = TiledShape::get(type.getShape().vec());
    return std::make_tuple(shape.batch, shape.rowTiles(), shape.colTiles());
  };
  MemRefType from = getSource().getType(), to = getResult().getType();
  if (tiles(from) != tiles(to) || from.getMemorySpace() != to.getMemorySpace())
    return emitOpError() << "needs the same (8,128) tiles in the same memory "
                            "space: "
                         << from << " and " << to << " differ";
  return success();
}

#define GET_OP_CLASSES
#include "tpu/Dialect/TPU/IR/TPUOps.cpp.inc"
