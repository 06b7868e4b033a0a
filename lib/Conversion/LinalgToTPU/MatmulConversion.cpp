//===- MatmulConversion.cpp - linalg matrix products to tpu.matmul --------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace tpu;

bool tpu::isZeroFill(Value init) {
  // A zero tensor constant (`arith.constant dense<0.0>`) is the same init.
  auto fill = init.getDefiningOp<linalg::FillOp>();
  Value value = fill ? fill.getInputs()[0] : init;
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

static std::string toString(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

std::optional<std::string> tpu::getContractionOperandProblem(Type type,
                                                             bool isResult) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return std::string("operates on buffers; the TPU compiler takes linalg "
                       "on tensors");
  if (!tensor.hasStaticShape())
    return "has the dynamic shape " + toString(type) +
           "; the TPU compiler needs static shapes";
  Type element = tensor.getElementType();
  if (isResult ? !element.isF32() : !(element.isF32() || element.isBF16()))
    return "has element type " + toString(element) +
           "; the TPU matmul takes f32 or bf16 operands and accumulates in "
           "f32";
  return std::nullopt;
}

FailureOr<Precision>
tpu::checkContraction(linalg::LinalgOp op,
                      std::array<StringRef, 2> inputNames,
                      Precision defaultPrecision) {
  Value init = op.getDpsInitOperand(0)->get();
  for (auto [value, what, isResult] :
       {std::tuple{op.getDpsInputOperand(0)->get(), inputNames[0], false},
        std::tuple{op.getDpsInputOperand(1)->get(), inputNames[1], false},
        std::tuple{init, StringRef("init"), true}})
    if (std::optional<std::string> problem =
            getContractionOperandProblem(value.getType(), isResult))
      return op.emitError() << "cannot convert '" << op->getName() << "': its "
                            << what << " " << *problem;
  // The dialect verifier has checked that tpu.precision is a precision.
  if (auto attr =
          op->getAttrOfType<PrecisionAttr>(TPUDialect::getPrecisionAttrName()))
    return attr.getValue();
  return defaultPrecision;
}

bool tpu::isMatmulLike(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::MatvecOp>(op);
}

FailureOr<MatmulOp> tpu::convertMatmul(RewriterBase &rewriter,
                                       linalg::LinalgOp op,
                                       Precision defaultPrecision) {
  if (!isMatmulLike(op))
    return rewriter.notifyMatchFailure(op, "not a matrix product");
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
      matmul && matmul.hasUserDefinedMaps())
    return op.emitError() << "'linalg.matmul' with user-defined indexing "
                             "maps (transposed or broadcast operands) is "
                             "not supported yet; transpose the operands "
                             "first";
  if (auto batch = dyn_cast<linalg::BatchMatmulOp>(op.getOperation());
      batch && batch.hasUserDefinedMaps())
    return op.emitError() << "'linalg.batch_matmul' with user-defined "
                             "indexing maps is not supported yet";
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  FailureOr<Precision> precision =
      checkContraction(op, {"lhs", "rhs"}, defaultPrecision);
  if (failed(precision))
    return failure();

  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  bool isMatvec = isa<linalg::MatvecOp>(op.getOperation());
  bool fromZero = isZeroFill(init);
  // A matrix-vector product is a matmul by a K x 1 matrix.
  auto asColumn = [&](Value vector) -> Value {
    auto type = cast<RankedTensorType>(vector.getType());
    auto column = type.clone({type.getDimSize(0), 1});
    return ReshapeOp::create(rewriter, loc, column, vector, Value())
        .getResult();
  };
  if (isMatvec) {
    rhs = asColumn(rhs);
    if (!fromZero)
      init = asColumn(init);
  }
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  SmallVector<int64_t> shape(lhsType.getShape().drop_back());
  shape.push_back(rhsType.getShape().back());
  auto matmul = MatmulOp::create(
      rewriter, loc, RankedTensorType::get(shape, rewriter.getF32Type()), lhs,
      rhs, fromZero ? Value() : init,
      PrecisionAttr::get(rewriter.getContext(), *precision));
  Value result = matmul.getResult();
  if (isMatvec)
    result = ReshapeOp::create(rewriter, loc, op->getResult(0).getType(),
                               result, Value())
                 .getResult();
  rewriter.replaceOp(op, result);
  return matmul;
}
