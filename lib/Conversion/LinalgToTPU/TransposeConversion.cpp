//===- TransposeConversion.cpp - linalg.transpose to tpu.transpose --------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

using namespace mlir;
using namespace tpu;

FailureOr<TransposeOp> tpu::convertTranspose(RewriterBase &rewriter,
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
  bool swapsMinor = rank >= 2 && permutation[rank - 1] == rank - 2 &&
                    permutation[rank - 2] == rank - 1;
  for (int64_t d = 0; d + 2 < rank; ++d)
    swapsMinor &= permutation[d] == d;
  if (!swapsMinor)
    return fail("only swapping the last two dimensions is supported yet "
                "(leading dimensions in place)");
  rewriter.setInsertionPoint(op);
  auto transpose =
      TransposeOp::create(rewriter, op.getLoc(), op->getResult(0).getType(),
                          op.getInput(), Value());
  rewriter.replaceOp(op, transpose.getResult());
  return transpose;
}
