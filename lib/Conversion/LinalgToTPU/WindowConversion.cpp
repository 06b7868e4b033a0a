//===- WindowConversion.cpp - Convolutions, pooling and image padding -----===//
//
// Each becomes tpu.windows of the image (docs/Compiler.md, "Convolutions"):
// - linalg.conv_2d_nhwc_hwcf: im2col, a tpu.matmul of the windows with the
//   taps in lanes by the filter as a [KH * KW * C, F] matrix every image
//   shares. The channels are first padded with zeros to a multiple of 128
//   (tpu.resize of image and filter), so each tap fills whole lane tiles
//   and whole K tiles of the MXU.
// - linalg.pooling_nhwc_max/min/sum: tpu.reduce_matrices over the taps of
//   the windows with the taps leading, from the init's fill value.
// - tensor.pad of an image's rows and columns: one-tap windows. A pad that
//   only convolutions and poolings read is folded into their windows
//   instead (its padding is theirs), as XLA's convolutions take theirs.
//
//===----------------------------------------------------------------------===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpu;

bool tpu::isWindowOp(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcSumOp>(op);
}

namespace {

/// What tpu.windows needs of a padded image: the image, its padding
/// [top, bottom, left, right] and the value padded with.
struct ImagePadding {
  Value image;
  SmallVector<int64_t, 4> padding = {0, 0, 0, 0};
  APFloat value = APFloat(0.0f);
};

/// `pad` as ImagePadding, or why it cannot be: the TPU pads the rows and
/// columns of an f32 or bf16 NHWC image, by static amounts, with a
/// constant.
FailureOr<ImagePadding> matchImagePad(tensor::PadOp pad, std::string &why) {
  auto type = dyn_cast<RankedTensorType>(pad.getSourceType());
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  auto isStatic = [](ArrayRef<int64_t> sizes) {
    return llvm::none_of(sizes, ShapedType::isDynamic);
  };
  if (!type || type.getRank() != 4 || !type.hasStaticShape() ||
      !isStatic(low) || !isStatic(high) || low[0] || high[0] || low[3] ||
      high[3]) {
    why = "the TPU pads only the rows and columns (dimensions 1 and 2) of a "
          "static NHWC image, by static amounts";
    return failure();
  }
  if (!type.getElementType().isF32() && !type.getElementType().isBF16()) {
    why = "the TPU pads f32 and bf16 images";
    return failure();
  }
  ImagePadding result;
  Value value = pad.getConstantPaddingValue();
  if (!value || !matchPattern(value, m_ConstantFloat(&result.value))) {
    why = "its padding value must be a constant";
    return failure();
  }
  result.image = pad.getSource();
  result.padding = {low[1], high[1], low[2], high[2]};
  return result;
}

/// Whether `user` is a convolution or pooling whose image is `pad`'s
/// result, and takes `padding` as its windows' padding. A convolution of
/// channels that do not fill their lane tiles pads them with zeros, and
/// in its windows the padded channels of a tap outside the image would
/// hold the pad value instead: 0 x an inf pad value is NaN where the
/// model has 0 x 0. So it folds only a finite pad value then (x 0 is a
/// zero, which leaves a sum as it is).
bool foldsPad(Operation *user, tensor::PadOp pad, const ImagePadding &padding) {
  if (!isWindowOp(user) || user->getOperand(0) != pad.getResult() ||
      llvm::count(user->getOperands(), pad.getResult()) != 1)
    return false;
  int64_t channels = pad.getSourceType().getShape().back();
  return !isa<linalg::Conv2DNhwcHwcfOp>(user) ||
         channels % int64_t(kLanes) == 0 || padding.value.isFinite();
}

/// The image a convolution or pooling `op` reads, with a tensor.pad
/// producing it folded in where foldsPad says.
ImagePadding getImage(Operation *op) {
  Value image = op->getOperand(0);
  std::string why;
  if (auto pad = image.getDefiningOp<tensor::PadOp>())
    if (FailureOr<ImagePadding> folded = matchImagePad(pad, why);
        succeeded(folded) && foldsPad(op, pad, *folded))
      return *folded;
  ImagePadding unpadded;
  unpadded.image = image;
  return unpadded;
}

/// Fails with an error on a convolution or pooling `op` whose output is
/// not all of its windows: linalg lets an output leave the last ones out,
/// tpu.windows makes every one.
LogicalResult checkOutputSize(Operation *op, ArrayRef<int64_t> window,
                              ArrayRef<int64_t> strides,
                              ArrayRef<int64_t> dilations) {
  ArrayRef<int64_t> in =
      cast<ShapedType>(op->getOperand(0).getType()).getShape();
  ArrayRef<int64_t> out =
      cast<ShapedType>(op->getResult(0).getType()).getShape();
  std::optional<std::array<int64_t, 2>> size =
      WindowsOp::getOutputSize(in, window, strides, dilations, {0, 0, 0, 0});
  if (size && (*size)[0] == out[1] && (*size)[1] == out[2])
    return success();
  return op->emitError() << "cannot convert this '" << op->getName()
                         << "' to the TPU: its output of " << out[1] << " x "
                         << out[2]
                         << " positions leaves out windows of the image; the "
                            "TPU computes all of them (slice the result to "
                            "drop some)";
}

SmallVector<int64_t> getSizes(DenseIntElementsAttr attr) {
  return llvm::to_vector(attr.getValues<int64_t>());
}

/// The tpu.windows of `image` for a window of `window` with the op's
/// strides and dilations, in the layout `shape` says.
Value createWindows(RewriterBase &rewriter, Location loc,
                    const ImagePadding &image, ArrayRef<int64_t> shape,
                    ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                    ArrayRef<int64_t> dilations) {
  auto type = cast<RankedTensorType>(image.image.getType());
  return WindowsOp::create(
             rewriter, loc, type.clone(shape), image.image, Value(),
             rewriter.getDenseI64ArrayAttr(window),
             rewriter.getDenseI64ArrayAttr(strides),
             rewriter.getDenseI64ArrayAttr(dilations),
             rewriter.getDenseI64ArrayAttr(image.padding),
             rewriter.getF32FloatAttr(image.value.convertToFloat()))
      .getResult();
}

/// `value` with its dimension `dim` grown to `size` (zeros at the high
/// end), or `value` itself when it has that size.
Value growDim(RewriterBase &rewriter, Location loc, Value value, int64_t dim,
              int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getDimSize(dim) == size)
    return value;
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  return ResizeOp::create(rewriter, loc, type.clone(shape), value, Value())
      .getResult();
}

} // namespace

FailureOr<MatmulOp> tpu::convertConvolution(RewriterBase &rewriter,
                                            linalg::Conv2DNhwcHwcfOp op,
                                            Precision defaultPrecision) {
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  FailureOr<Precision> precision =
      checkContraction(op, {"image", "filter"}, defaultPrecision);
  if (failed(precision))
    return failure();

  ArrayRef<int64_t> filterShape =
      cast<RankedTensorType>(filter.getType()).getShape();
  SmallVector<int64_t> strides = getSizes(op.getStrides()),
                       dilations = getSizes(op.getDilations());
  if (failed(checkOutputSize(op, filterShape.take_front(2), strides,
                             dilations)))
    return failure();
  ImagePadding image = getImage(op);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> out = resultType.getShape();
  int64_t kh = filterShape[0], kw = filterShape[1], c = filterShape[2],
          f = filterShape[3];
  int64_t paddedC = llvm::alignTo(c, int64_t(kLanes));

  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  image.image = growDim(rewriter, loc, image.image, 3, paddedC);
  filter = growDim(rewriter, loc, filter, 2, paddedC);
  auto filterType = cast<RankedTensorType>(filter.getType());
  Value filterMatrix =
      ReshapeOp::create(rewriter, loc,
                        filterType.clone({kh * kw * paddedC, f}), filter,
                        Value())
          .getResult();
  Value patches = createWindows(
      rewriter, loc, image, {out[0], out[1], out[2], kh * kw * paddedC},
      {kh, kw}, strides, dilations);
  auto matmul = MatmulOp::create(
      rewriter, loc, resultType, patches, filterMatrix,
      isZeroFill(init) ? Value() : init,
      PrecisionAttr::get(rewriter.getContext(), *precision));
  // The padded channels are no useful work.
  matmul->setAttr(TPUDialect::getUsefulMacsAttrName(),
                  rewriter.getI64IntegerAttr(out[0] * out[1] * out[2] * f *
                                             kh * kw * c));
  rewriter.replaceOp(op, matmul.getResult());
  return matmul;
}

FailureOr<ReduceMatricesOp> tpu::convertPooling(RewriterBase &rewriter,
                                                linalg::LinalgOp op) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "cannot convert this '" << op->getName()
                          << "' to the TPU: " << why;
  };
  ReductionKind kind = isa<linalg::PoolingNhwcMaxOp>(op)   ? ReductionKind::Max
                       : isa<linalg::PoolingNhwcMinOp>(op) ? ReductionKind::Min
                                                           : ReductionKind::Sum;
  Value source = op.getDpsInputOperand(0)->get();
  auto sourceType = dyn_cast<RankedTensorType>(source.getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!sourceType || !resultType || !sourceType.hasStaticShape() ||
      !sourceType.getElementType().isF32() ||
      !resultType.getElementType().isF32())
    return fail("the TPU pools static f32 tensors");
  APFloat init(0.0f);
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  if (!fill || !matchPattern(fill.getInputs()[0], m_ConstantFloat(&init)))
    return fail("its init must be a linalg.fill of a float constant");

  ArrayRef<int64_t> window =
      cast<ShapedType>(op.getDpsInputOperand(1)->get().getType()).getShape();
  ArrayRef<int64_t> out = resultType.getShape();
  SmallVector<int64_t> strides =
      getSizes(cast<DenseIntElementsAttr>(op->getAttr("strides")));
  SmallVector<int64_t> dilations =
      getSizes(cast<DenseIntElementsAttr>(op->getAttr("dilations")));
  if (failed(checkOutputSize(op, window, strides, dilations)))
    return failure();
  ImagePadding image = getImage(op);
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  Value taps = createWindows(
      rewriter, loc, image,
      {window[0], window[1], out[0], out[1], out[2], out[3]}, window,
      strides, dilations);
  auto reduce = ReduceMatricesOp::create(
      rewriter, loc, resultType, taps, Value(),
      rewriter.getDenseI64ArrayAttr({0, 1}),
      ReductionKindAttr::get(rewriter.getContext(), kind),
      rewriter.getF32FloatAttr(init.convertToFloat()));
  rewriter.replaceOp(op, reduce.getResult());
  return reduce;
}

FailureOr<ReshapeOp> tpu::convertPad(RewriterBase &rewriter,
                                     tensor::PadOp op) {
  std::string why;
  FailureOr<ImagePadding> image = matchImagePad(op, why);
  if (failed(image))
    return op.emitError() << "cannot convert this 'tensor.pad' to the TPU: "
                          << why;
  if (!op->use_empty() &&
      llvm::all_of(op->getUsers(), [&](Operation *user) {
        return foldsPad(user, op, *image);
      }))
    return rewriter.notifyMatchFailure(op, "its readers take its padding");
  ArrayRef<int64_t> out = op.getResultType().getShape();
  rewriter.setInsertionPoint(op);
  Value windows = createWindows(rewriter, op.getLoc(), *image,
                                {1, 1, out[0], out[1], out[2], out[3]}, {1, 1},
                                {1, 1}, {1, 1});
  return rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getResultType(), windows,
                                                Value());
}
