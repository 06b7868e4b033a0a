//===- ElementwiseConversion.cpp - Elementwise linalg to tpu.elementwise --===//

#include "tpu/Conversion/LinalgToTPU/LinalgToTPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "tpu/Conversion/TPUToISA/VpuOps.h"

using namespace mlir;
using namespace tpu;

namespace {

/// The float constant `value` is, if it is one.
arith::ConstantOp getFloatConstant(Value value) {
  auto constant = value.getDefiningOp<arith::ConstantOp>();
  return constant && llvm::isa<FloatAttr>(constant.getValue()) ? constant
                                                               : nullptr;
}

/// The scalar of a splat float constant tensor (`x * 0.5` on tensors has
/// one), if `value` is one.
FloatAttr getSplatFloat(Value value) {
  DenseElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat())
    return nullptr;
  return dyn_cast<FloatAttr>(dense.getSplatValue<Attribute>());
}

bool isFloatOrBool(Type type) {
  return type.isF32() || type.isBF16() || type.isInteger(1);
}

/// Why the body cannot run on the VPU, or nothing. bf16 values live in
/// vregs as f32 words: converting between the two is rounding or nothing.
std::optional<std::string> checkBody(linalg::GenericOp op) {
  Block *body = op.getBody();
  for (Operation &inner : body->without_terminator()) {
    std::string name = inner.getName().getStringRef().str();
    for (Value operand : inner.getOperands())
      if (operand.getParentBlock() != body && !getFloatConstant(operand))
        return "its body uses a value defined outside it (in '" + name +
               "'); pass it as an input instead (float constants may be "
               "used)";
    for (Type type : llvm::concat<const Type>(inner.getOperandTypes(),
                                              inner.getResultTypes()))
      if (!isFloatOrBool(type))
        return "'" + name + "' works on " +
               std::string(llvm::isa<IntegerType>(type) ? "integers"
                                                        : "unsupported types") +
               "; the VPU computes on f32 (and bf16 values)";
    if (auto trunc = dyn_cast<arith::TruncFOp>(inner)) {
      if (trunc.getRoundingmodeAttr() || !trunc.getIn().getType().isF32())
        return std::string("'arith.truncf' is supported from f32 to bf16 "
                           "with the default rounding only");
      continue;
    }
    if (auto ext = dyn_cast<arith::ExtFOp>(inner)) {
      if (!ext.getIn().getType().isBF16())
        return std::string("'arith.extf' is supported from bf16 to f32 only");
      continue;
    }
    if (!isVpuOp(&inner))
      return "its body holds '" + name +
             "', which the VPU has no instruction for (docs/ISA.md lists "
             "them)";
  }
  return std::nullopt;
}

} // namespace

FailureOr<ElementwiseOp> tpu::convertElementwise(RewriterBase &rewriter,
                                                 linalg::GenericOp op) {
  auto fail = [&](const Twine &why) {
    return op.emitError() << "cannot convert this elementwise "
                             "'linalg.generic' to the TPU: "
                          << why;
  };
  if (op.getNumParallelLoops() != op.getNumLoops())
    return rewriter.notifyMatchFailure(op, "not elementwise");
  if (op.getNumDpsInits() != 1)
    return fail(llvm::Twine(op.getNumDpsInits()) +
                " results; one is supported");
  // Inputs may drop loop dimensions (a broadcast), not permute them.
  auto isBroadcast = [](AffineMap map) {
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return false;
    for (unsigned i = 1; i < map.getNumResults(); ++i)
      if (map.getDimPosition(i) <= map.getDimPosition(i - 1))
        return false;
    return true;
  };
  if (!op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
      !llvm::all_of(op.getIndexingMapsArray(), isBroadcast))
    return fail("transposing maps (and constant indices) are not supported "
                "yet; an input's map may drop dimensions (a broadcast), the "
                "result's must be the identity");
  if (!op.hasPureTensorSemantics())
    return fail("it operates on buffers; the TPU compiler takes linalg on "
                "tensors");
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType.hasStaticShape())
    return fail("the TPU compiler needs static shapes");
  for (Value value : llvm::concat<Value>(op.getDpsInputs(), op.getResults())) {
    Type element = getElementTypeOrSelf(value.getType());
    if (!element.isF32() && !element.isBF16()) {
      std::string name;
      llvm::raw_string_ostream(name) << element;
      return fail("element type " + name +
                  " is not supported; the VPU computes on f32 and bf16");
    }
  }
  Block *body = op.getBody();
  if (!body->getArguments().back().use_empty())
    return fail("its body reads the init; only the inputs may be read");
  if (std::optional<std::string> problem = checkBody(op))
    return fail(*problem);

  // A splat constant input becomes its scalar inside the body (one tensor
  // input at least stays: the kernel streams the inputs).
  SmallVector<FloatAttr> splats;
  for (Value input : op.getDpsInputs())
    splats.push_back(getSplatFloat(input));
  if (llvm::all_of(splats, [](FloatAttr splat) { return bool(splat); }))
    splats.assign(splats.size(), nullptr);
  // Inputs whose maps drop dimensions are broadcast to the result's shape;
  // all are checked before anything is built.
  SmallVector<SmallVector<int64_t>> dropped;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<int64_t> &dims = dropped.emplace_back();
    for (unsigned d = 0; d < map.getNumDims(); ++d)
      if (!map.isFunctionOfDim(d))
        dims.push_back(d);
    if (!dims.empty() && !splats[input->getOperandNumber()] &&
        failed(checkBroadcast(op, cast<RankedTensorType>(input->get().getType()),
                              dims, resultType.getShape())))
      return failure();
  }
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inputs;
  for (auto [input, dims, splat] :
       llvm::zip(op.getDpsInputs(), dropped, splats))
    if (!splat)
      inputs.push_back(broadcastTo(rewriter, op.getLoc(), input, dims,
                                   resultType.getShape()));
  auto elementwise =
      ElementwiseOp::create(rewriter, op.getLoc(), resultType, inputs, Value());
  Block *newBody = rewriter.createBlock(&elementwise.getBody());
  IRMapping mapping;
  for (auto [arg, splat] : llvm::zip(body->getArguments().drop_back(), splats))
    mapping.map(arg, splat ? arith::ConstantOp::create(rewriter, arg.getLoc(),
                                                       splat)
                                 .getResult()
                           : newBody->addArgument(arg.getType(), arg.getLoc()));
  // Float constants from outside the body are copied into it.
  for (Operation &inner : body->without_terminator())
    for (Value operand : inner.getOperands())
      if (operand.getParentBlock() != body && !mapping.contains(operand))
        mapping.map(operand,
                    rewriter.clone(*getFloatConstant(operand))->getResult(0));
  for (Operation &inner : body->without_terminator())
    rewriter.clone(inner, mapping);
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  YieldOp::create(rewriter, yield.getLoc(),
                  mapping.lookup(yield.getValues()[0]));
  rewriter.replaceOp(op, elementwise.getResult());
  return elementwise;
}
