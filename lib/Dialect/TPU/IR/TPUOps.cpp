//===- TPUOps.cpp - tpu dialect operations --------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
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

LogicalResult MatmulOp::verify() {
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
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
  ArrayRef<int64_t> result = getResult().getType().getShape();
  if (result != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be [batch..., M, N] = "
                         << formatShape(expected) << ", got "
                         << formatShape(result);
  if (Value acc = getAcc()) {
    ArrayRef<int64_t> accShape =
        cast<RankedTensorType>(acc.getType()).getShape();
    if (accShape != ArrayRef<int64_t>(expected))
      return emitOpError() << "accumulator shape must match the result "
                           << formatShape(expected) << ", got "
                           << formatShape(accShape);
  }
  return success();
}

#define GET_OP_CLASSES
#include "tpu/Dialect/TPU/IR/TPUOps.cpp.inc"
