//===- TransposeConversion.cpp - linalg.transpose to tpu ops --------------===//
//
// A permutation of the leading dimensions is tpu.permute_matrices (whole
// matrices move); a swap of the last two is tpu.transpose; both, the one
// then the other.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

using namespace mlir;
using namespace tpu;

LogicalResult tpu::convertTranspose(RewriterBase &rewriter,
                                    linalg::TransposeOp op) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "cannot convert this 'linalg.transpose' to the "
                             "TPU: "
                          << why;
  };
  if (!op.hasPureTensorSemantics())
    return fail("it operates on buffers; the TPU compiler takes linalg on "
                "tensors");
  ArrayRef<int64_t> permutation = op.getPermutation();
  int64_t rank = int64_t(permutation.size());
  // The identity moves nothing.
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, rank))) {
    rewriter.replaceOp(op, op.getInput());
    return success();
  }
  // The leading dimensions permuted among themselves, the last two kept or
  // swapped.
  ArrayRef<int64_t> leading =
      permutation.take_front(std::max<int64_t>(rank - 2, 0));
  bool leadingStay = llvm::all_of(
      leading, [&](int64_t d) { return d < rank - 2; });
  bool keepsMinor = rank >= 2 && permutation[rank - 2] == rank - 2 &&
                    permutation[rank - 1] == rank - 1;
  bool swapsMinor = rank >= 2 && permutation[rank - 1] == rank - 2 &&
                    permutation[rank - 2] == rank - 1;
  if (!leadingStay || !(keepsMinor || swapsMinor))
    return fail("a permutation that moves the last two dimensions among "
                "the leading ones needs a relayout the compiler does not "
                "have yet; it takes permutations of the leading dimensions "
                "that keep or swap the last two");
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value value = op.getInput();
  auto type = cast<RankedTensorType>(value.getType());
  if (!llvm::equal(leading, llvm::seq<int64_t>(0, rank - 2))) {
    SmallVector<int64_t> shape;
    for (int64_t d : leading)
      shape.push_back(type.getDimSize(d));
    shape.append(type.getShape().end() - 2, type.getShape().end());
    value = PermuteMatricesOp::create(rewriter, loc, type.clone(shape), value,
                                      Value(),
                                      rewriter.getDenseI64ArrayAttr(leading))
                .getResult();
  }
  if (swapsMinor && !keepsMinor)
    value = TransposeOp::create(rewriter, loc, op->getResult(0).getType(),
                                value, Value())
                .getResult();
  rewriter.replaceOp(op, value);
  return success();
}
