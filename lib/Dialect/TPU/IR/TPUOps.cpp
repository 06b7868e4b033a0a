//===- TPUOps.cpp - tpu dialect operations --------------------------------===//

#include "tpu/Dialect/TPU/IR/TPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "tpu/ISA/ISA.h"
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
/// N], or with a K x N rhs that every batch shares (a convolution's
/// filter), with an accumulator (if any) of the result's shape. With
/// `shortRhs` (tpu.matmul_passes), the rhs may lack the last rows of K, which
/// are zero: in whole row tiles, within the last K tile (the MXU's depth).
static LogicalResult verifyMatmulShapes(Operation *op, Type lhsTy, Type rhsTy,
                                        Type resultTy, Value acc,
                                        bool shortRhs = false) {
  auto emitOpError = [&]() { return op->emitOpError(); };
  auto lhsType = cast<ShapedType>(lhsTy);
  auto rhsType = cast<ShapedType>(rhsTy);
  ArrayRef<int64_t> lhs = lhsType.getShape();
  ArrayRef<int64_t> rhs = rhsType.getShape();
  if (lhs.size() < 2)
    return emitOpError() << "lhs must have rank >= 2 ([batch...,] M, K), got "
                         << lhsType;
  if (rhs.size() < 2)
    return emitOpError() << "rhs must have rank >= 2 ([batch...,] K, N), got "
                         << rhsType;
  if (lhs.size() != rhs.size() && rhs.size() != 2)
    return emitOpError() << "lhs and rhs must have the same rank (the same "
                            "batch dimensions), or rhs rank 2 (shared by "
                            "every batch), got "
                         << lhsType << " and " << rhsType;
  size_t batchRank = lhs.size() - 2;
  ArrayRef<int64_t> lhsBatch = lhs.take_front(batchRank);
  ArrayRef<int64_t> rhsBatch = rhs.drop_back(2);
  if (!rhsBatch.empty() && lhsBatch != rhsBatch)
    return emitOpError() << "batch dimensions differ: lhs has "
                         << formatShape(lhsBatch) << ", rhs has "
                         << formatShape(rhsBatch);
  rhs = rhs.take_back(2);
  int64_t m = lhs[batchRank], k = lhs[batchRank + 1];
  int64_t rhsK = rhs[0], n = rhs[1];
  if (k != rhsK && !(shortRhs && rhsK < k))
    return emitOpError() << "contraction dimensions differ: lhs is M x K = "
                         << m << " x " << k << " but rhs is K x N = " << rhsK
                         << " x " << n;
  if (rhsK < k) {
    int64_t tileRows = getTiledShape(rhsType).tileRows();
    if (k - rhsK >= int64_t(kMxuDim) || rhsK % tileRows != 0)
      return emitOpError()
             << "an rhs shorter than K (its missing rows are zero) must end "
                "in the last K tile of "
             << kMxuDim << " rows and fill whole row tiles of " << tileRows
             << " rows: lhs is M x K = " << m << " x " << k
             << " but rhs is K x N = " << rhsK << " x " << n
             << "; pad the rhs to K, or to a multiple of " << tileRows
             << " rows";
  }
  SmallVector<int64_t> expected(lhsBatch);
  expected.append({m, n});
  ArrayRef<int64_t> result = cast<ShapedType>(resultTy).getShape();
  if (result != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape must be [batch..., M, N] = "
                         << formatShape(expected) << ", got "
                         << formatShape(result);
  if (acc) {
    ArrayRef<int64_t> accShape = cast<ShapedType>(acc.getType()).getShape();
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

//===----------------------------------------------------------------------===//
// Kernel ops: tensor form and buffer form
//===----------------------------------------------------------------------===//

/// The form rules every kernel op shares: in tensor form its operands are
/// tensors and it has results and no `outs`; in buffer form its operands are
/// HBM buffers and it writes `outs` and has no results.
static LogicalResult verifyKernelForm(Operation *op, ValueRange inputs,
                                      ValueRange outs) {
  bool bufferForm = !outs.empty();
  if (bufferForm && op->getNumResults() != 0)
    return op->emitOpError()
           << "in buffer form (with outs) has no results, got "
           << op->getNumResults();
  if (!bufferForm && op->getNumResults() == 0)
    return op->emitOpError() << "needs results (tensor form) or outs (buffer "
                                "form)";
  for (Value input : inputs)
    if (llvm::isa<MemRefType>(input.getType()) != bufferForm)
      return op->emitOpError()
             << (bufferForm ? "in buffer form takes HBM buffers"
                            : "in tensor form takes tensors")
             << ", got " << input.getType();
  return success();
}

/// Buffer-form operands are read, `outs` written.
static void addKernelEffects(
    Operation *op, ValueRange outs,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!llvm::isa<MemRefType>(operand.get().getType()))
      continue;
    if (llvm::is_contained(outs, operand.get()))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

static ArrayRef<int64_t> shapeOf(Value value) {
  return cast<ShapedType>(value.getType()).getShape();
}

static Type elementTypeOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// The rules an elementwise body shares, in tpu.elementwise and in a
/// matmul's epilogue: one argument per element it takes, of the types
/// `elementTypes`, and a tpu.yield of `resultType`.
static LogicalResult verifyElementwiseBody(Operation *op, Block &body,
                                           TypeRange elementTypes,
                                           Type resultType) {
  if (body.getNumArguments() != elementTypes.size())
    return op->emitOpError()
           << "the body takes one element per input: " << elementTypes.size()
           << " arguments, got " << body.getNumArguments();
  for (auto [arg, type] : llvm::zip(body.getArguments(), elementTypes))
    if (arg.getType() != type)
      return op->emitOpError()
             << "body argument " << arg.getArgNumber() << " has type "
             << arg.getType() << ", the element type of its input is "
             << type;
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return op->emitOpError() << "the body ends with tpu.yield";
  if (yield.getValue().getType() != resultType)
    return op->emitOpError()
           << "the body yields " << yield.getValue().getType()
           << ", the result's element type is " << resultType;
  return success();
}

LogicalResult SplitOp::verify() {
  if (failed(verifyKernelForm(*this, getInput(), getOuts())))
    return failure();
  ValueRange parts = getPartValues();
  if (parts.empty() || parts.size() > 3)
    return emitOpError() << "splits into 1 part (a rounding), 2 (hi, lo) or 3 "
                            "(hi, mid, lo), got "
                         << parts.size();
  if (!elementTypeOf(getInput()).isF32())
    return emitOpError() << "splits f32 values, got " << getInput().getType();
  for (Value part : parts) {
    if (shapeOf(part) != shapeOf(getInput()))
      return emitOpError() << "every part must have the input's shape "
                           << formatShape(shapeOf(getInput())) << ", got "
                           << part.getType();
    if (!elementTypeOf(part).isBF16())
      return emitOpError() << "parts are bf16, got " << part.getType();
  }
  return success();
}

void SplitOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(*this, getOuts(), effects);
}

LogicalResult MatmulPassesOp::verify() {
  SmallVector<Value> inputs(getLhs());
  inputs.append(getRhs().begin(), getRhs().end());
  if (getAcc())
    inputs.push_back(getAcc());
  inputs.append(getEpilogueInputs().begin(), getEpilogueInputs().end());
  if (failed(verifyKernelForm(
          *this, inputs, getOuts() ? ValueRange(getOuts()) : ValueRange())))
    return failure();
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
  for (size_t i = 1; i < terms; ++i)
    if (shapeOf(getLhs()[i]) != shapeOf(getLhs()[0]) ||
        shapeOf(getRhs()[i]) != shapeOf(getRhs()[0]))
      return emitOpError() << "every term must have the first term's shapes "
                           << formatShape(shapeOf(getLhs()[0])) << " x "
                           << formatShape(shapeOf(getRhs()[0])) << ", term "
                           << i << " has " << formatShape(shapeOf(getLhs()[i]))
                           << " x " << formatShape(shapeOf(getRhs()[i]));
  if (failed(verifySplitParts()))
    return failure();
  Value result = getResultValue();
  if (!elementTypeOf(result).isF32())
    return emitOpError() << "the result is f32, got " << result.getType();
  for (size_t i = 0; i < terms; ++i)
    if (failed(verifyMatmulShapes(*this, getLhs()[i].getType(),
                                  getRhs()[i].getType(), result.getType(),
                                  getAcc(), /*shortRhs=*/true)))
      return failure();
  // A row: one rank-1 row of the result's lane tiles.
  auto isRow = [&](Value input) {
    ArrayRef<int64_t> shape = shapeOf(input);
    int64_t lanes = int64_t(kLanes);
    return shape.size() == 1 && llvm::divideCeil(shape[0], lanes) ==
                                    llvm::divideCeil(shapeOf(result).back(),
                                                     lanes);
  };
  for (Value input : getEpilogueInputs())
    if (shapeOf(input) != shapeOf(result) && !isRow(input))
      return emitOpError() << "every epilogue input has the result's shape "
                           << formatShape(shapeOf(result))
                           << ", or is a row of as many lane tiles, got "
                           << input.getType();
  if (!getEpilogueInputs().empty() && !hasEpilogue())
    return emitOpError() << "has epilogue inputs but no epilogue";
  return success();
}

LogicalResult MatmulPassesOp::verifySplitParts() {
  bool lhsParts = bool(getLhsParts()), rhsParts = bool(getRhsParts());
  if (lhsParts != rhsParts || lhsParts != bool(getSplit()))
    return emitOpError() << "lhs_parts, rhs_parts and split go together: "
                            "give all three, or none for terms that read "
                            "their operands as they are";
  if (!lhsParts)
    return success();
  size_t terms = getLhs().size();
  auto verifySide = [&](StringRef side, ArrayRef<int64_t> parts,
                        ValueRange operands) -> LogicalResult {
    if (parts.size() != terms)
      return emitOpError() << side << "_parts has one part per term: expected "
                           << terms << ", got " << parts.size();
    for (auto [term, part] : llvm::enumerate(parts)) {
      if (part < -1 || part > 2)
        return emitOpError()
               << side << "_parts: a part is 0, 1 or 2 (hi, mid, lo of the "
               << "operand's split) or -1 (the operand as it is), got "
               << part;
      Type type = operands[term].getType();
      if (part >= 0 && !elementTypeOf(operands[term]).isF32())
        return emitOpError() << "term " << term << " reads part " << part
                             << " of its " << side
                             << ", so the operand must be f32 (its split's "
                                "input), got "
                             << type;
    }
    return success();
  };
  if (failed(verifySide("lhs", *getLhsParts(), getLhs())))
    return failure();
  return verifySide("rhs", *getRhsParts(), getRhs());
}

LogicalResult MatmulPassesOp::verifyRegions() {
  if (!hasEpilogue())
    return success();
  if (!getEpilogue().hasOneBlock())
    return emitOpError() << "the epilogue is one block";
  // The sum, then an element of each epilogue input.
  SmallVector<Type> elementTypes = {Float32Type::get(getContext())};
  for (Value input : getEpilogueInputs())
    elementTypes.push_back(elementTypeOf(input));
  return verifyElementwiseBody(*this, getEpilogue().front(), elementTypes,
                               elementTypeOf(getResultValue()));
}

void MatmulPassesOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(*this, getOuts() ? ValueRange(getOuts()) : ValueRange(),
                   effects);
}

LogicalResult ResizeOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  if (from.size() != to.size() || from.size() < 2 ||
      from.drop_back(2) != to.drop_back(2) ||
      elementTypeOf(getSource()) != elementTypeOf(result))
    return emitOpError() << "resizes the two minor dimensions of a rank >= 2 "
                            "shape, keeping the rest and the element type: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  ArrayRef<int64_t> dims = getDimensions();
  int64_t rank = int64_t(to.size());
  if (elementTypeOf(getSource()) != elementTypeOf(result))
    return emitOpError() << "keeps the element type: " << getSource().getType()
                         << " to " << result.getType();
  if (from.size() + dims.size() != to.size())
    return emitOpError() << "adds " << dims.size() << " dimension(s) to a rank "
                         << from.size() << " source, so the result has rank "
                         << from.size() + dims.size() << ", not " << rank;
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0 || dims[i] >= rank || (i > 0 && dims[i] <= dims[i - 1]))
      return emitOpError() << "dimensions must be increasing and in [0, "
                           << rank << ")";
  for (int64_t d = 0, s = 0; d < rank; ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    if (from[s] != to[d])
      return emitOpError() << "result dimension " << d << " is " << to[d]
                           << " but the source's dimension " << s << " is "
                           << from[s];
    ++s;
  }
  if (llvm::is_contained(dims, rank - 1))
    return emitOpError() << "cannot add the last dimension: repeating a value "
                            "across lanes is not supported yet";
  if (rank >= 2 && llvm::is_contained(dims, rank - 2) && from.size() != 1)
    return emitOpError() << "adds the second-to-last dimension (a row "
                            "broadcast), which needs a rank-1 source, got "
                         << getSource().getType();
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  if (from.empty() || to.size() != from.size() ||
      from.drop_back() != to.drop_back() || to.back() != 1 ||
      !elementTypeOf(getSource()).isF32() || !elementTypeOf(result).isF32())
    return emitOpError() << "reduces the last dimension of an f32 shape to "
                            "1, keeping the rest: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  if (getPrologue().empty())
    return success();
  if (!getPrologue().hasOneBlock())
    return emitOpError() << "the prologue is one block";
  Type f32 = Float32Type::get(getContext());
  return verifyElementwiseBody(*this, getPrologue().front(), {f32}, f32);
}

LogicalResult ReduceColumnsOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  if (from.size() < 2 || to.size() != from.size() ||
      from.drop_back(2) != to.drop_back(2) || from.back() != to.back() ||
      to.drop_back().back() != 1 || !elementTypeOf(getSource()).isF32() ||
      !elementTypeOf(result).isF32())
    return emitOpError() << "reduces the second-to-last dimension of an f32 "
                            "shape to 1, keeping the rest: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

bool WindowsOp::hasLeadingTaps() {
  return shapeOf(getResultValue()).size() == 6;
}

std::optional<std::array<int64_t, 2>>
WindowsOp::getOutputSize(ArrayRef<int64_t> source, ArrayRef<int64_t> window,
                         ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                         ArrayRef<int64_t> padding) {
  std::array<int64_t, 2> size;
  for (int i = 0; i < 2; ++i) {
    int64_t padded = source[1 + i] + padding[2 * i] + padding[2 * i + 1];
    int64_t extent = dilations[i] * (window[i] - 1) + 1;
    if (padded < extent)
      return std::nullopt;
    size[i] = (padded - extent) / strides[i] + 1;
  }
  return size;
}

LogicalResult WindowsOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  ArrayRef<int64_t> source = shapeOf(getSource());
  Value result = getResultValue();
  ArrayRef<int64_t> to = shapeOf(result);
  if (source.size() != 4)
    return emitOpError() << "takes an image batch [N, H, W, C], got "
                         << getSource().getType();
  auto positive = [](ArrayRef<int64_t> values, size_t size) {
    return values.size() == size &&
           llvm::all_of(values, [](int64_t v) { return v >= 1; });
  };
  if (!positive(getWindow(), 2) || !positive(getStrides(), 2) ||
      !positive(getDilations(), 2))
    return emitOpError() << "window, strides and dilations are two positive "
                            "sizes each (rows, columns)";
  if (getPadding().size() != 4 ||
      llvm::any_of(getPadding(), [](int64_t p) { return p < 0; }))
    return emitOpError() << "padding is [top, bottom, left, right], none "
                            "negative";
  std::optional<std::array<int64_t, 2>> size = getOutputSize(
      source, getWindow(), getStrides(), getDilations(), getPadding());
  if (!size)
    return emitOpError() << "a window is larger than the padded image "
                         << getSource().getType();
  int64_t n = source[0], c = source[3];
  int64_t kh = getWindow()[0], kw = getWindow()[1];
  SmallVector<int64_t> leading = {kh, kw, n, (*size)[0], (*size)[1], c};
  SmallVector<int64_t> inLanes = {n, (*size)[0], (*size)[1], kh * kw * c};
  if (to != ArrayRef<int64_t>(leading) && to != ArrayRef<int64_t>(inLanes))
    return emitOpError() << "result must be " << formatShape(leading)
                         << " (the taps leading) or " << formatShape(inLanes)
                         << " (the taps in lanes), got " << result.getType();
  if (to.size() == 4 && c % int64_t(kLanes) != 0)
    return emitOpError() << "puts the taps in lanes only when each fills "
                            "whole lane tiles: C must be a multiple of "
                         << int64_t(kLanes) << ", got " << getSource().getType();
  if (elementTypeOf(result) != elementTypeOf(getSource()))
    return emitOpError() << "keeps the element type, got "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult ReduceMatricesOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  ArrayRef<int64_t> dims = getDimensions();
  SmallVector<int64_t> kept;
  for (auto [d, size] : llvm::enumerate(from))
    if (!llvm::is_contained(dims, int64_t(d)))
      kept.push_back(size);
  bool leading = llvm::all_of(dims, [&](int64_t d) {
    return d >= 0 && d + 2 < int64_t(from.size());
  });
  if (dims.empty() || !llvm::is_sorted(dims) ||
      llvm::adjacent_find(dims) != dims.end() || !leading)
    return emitOpError() << "reduces distinct leading dimensions (neither of "
                            "the last two), in ascending order; got ["
                         << dims << "] of " << getSource().getType();
  if (ArrayRef<int64_t>(kept) != to || !elementTypeOf(getSource()).isF32() ||
      !elementTypeOf(result).isF32())
    return emitOpError() << "makes an f32 shape without the reduced "
                            "dimensions: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult BroadcastLanesOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  if (from.empty() || from.back() != 1 || to.size() != from.size() ||
      from.drop_back() != to.drop_back() ||
      elementTypeOf(getSource()) != elementTypeOf(result))
    return emitOpError() << "widens a last dimension of 1, keeping the rest "
                            "and the element type: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult InsertRowsOp::verify() {
  SmallVector<Value> inputs = {getSource()};
  if (getDest())
    inputs.push_back(getDest());
  if (failed(verifyKernelForm(*this, inputs, getOutsRange())))
    return failure();
  Value result = getResultValue();
  if (getExtract() && getDest())
    return emitOpError() << "extracts from its source, or inserts into its "
                            "dest; not both";
  // The big side holds the box of the small side's shape.
  ArrayRef<int64_t> small = shapeOf(getExtract() ? result : getSource());
  ArrayRef<int64_t> big = shapeOf(getExtract() ? getSource() : result);
  if (getDest() && shapeOf(getDest()) != big)
    return emitOpError() << "the dest has the result's shape "
                         << formatShape(big) << ", got "
                         << getDest().getType();
  ArrayRef<int64_t> offsets = getOffsets();
  bool fits = small.size() == big.size() && !small.empty() &&
              small.back() == big.back() &&
              offsets.size() == small.size() - 1;
  for (size_t d = 0; fits && d < offsets.size(); ++d)
    fits = offsets[d] >= 0 && offsets[d] + small[d] <= big[d];
  if (!fits)
    return emitOpError() << "the box of " << formatShape(small)
                         << " at offsets [" << offsets
                         << "] (every dimension but the last, which stays "
                            "whole) must lie in "
                         << formatShape(big);
  for (Value value : inputs)
    if (elementTypeOf(value) != elementTypeOf(result))
      return emitOpError() << "keeps the element type, got "
                           << value.getType() << " for " << result.getType();
  return success();
}

void InsertRowsOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(*this, getOutsRange(), effects);
}

/// Checks that `permutation` orders the first `count` dimensions of `op`'s
/// source (`which` names them in the message) and that its result is the
/// source with those dimensions so permuted and the rest kept.
template <typename Op>
static LogicalResult verifyPermutation(Op op, size_t count, StringRef which) {
  Value result = op.getResultValue();
  ArrayRef<int64_t> from = shapeOf(op.getSource()), to = shapeOf(result);
  ArrayRef<int64_t> permutation = op.getPermutation();
  SmallVector<int64_t> sorted(permutation);
  llvm::sort(sorted);
  if (permutation.size() != count ||
      !llvm::equal(sorted, llvm::seq<int64_t>(0, count)))
    return op.emitOpError()
           << "permutation must order the " << count << " " << which << " of "
           << op.getSource().getType() << ", got [" << permutation << "]";
  SmallVector<int64_t> expected;
  for (int64_t d : permutation)
    expected.push_back(from[d]);
  expected.append(from.begin() + count, from.end());
  if (to != ArrayRef<int64_t>(expected) ||
      elementTypeOf(op.getSource()) != elementTypeOf(result))
    return op.emitOpError() << "result must be " << formatShape(expected)
                            << " of the source's element type, got "
                            << result.getType();
  return success();
}

LogicalResult PermuteMatricesOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  ArrayRef<int64_t> from = shapeOf(getSource());
  if (from.size() < 3)
    return emitOpError() << "permutes the leading dimensions of a rank >= 3 "
                            "shape, got "
                         << getSource().getType();
  return verifyPermutation(*this, from.size() - 2, "leading dimensions");
}

LogicalResult PermuteRowsOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  ArrayRef<int64_t> from = shapeOf(getSource());
  if (from.size() < 2)
    return emitOpError() << "permutes the rows of a rank >= 2 shape, got "
                         << getSource().getType();
  if (failed(verifyPermutation(*this, from.size() - 1,
                               "dimensions before the last")))
    return failure();
  if (getPermutation().back() == int64_t(from.size()) - 2)
    return emitOpError() << "keeps the rows in place; that is "
                            "tpu.permute_matrices";
  if (llvm::is_contained(from, 0))
    return emitOpError() << "has no rows to move in "
                         << getSource().getType();
  return success();
}

LogicalResult TransposeOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  Value result = getResultValue();
  ArrayRef<int64_t> from = shapeOf(getSource()), to = shapeOf(result);
  size_t rank = from.size();
  if (rank < 2 || to.size() != rank || from.drop_back(2) != to.drop_back(2) ||
      from[rank - 1] != to[rank - 2] || from[rank - 2] != to[rank - 1] ||
      elementTypeOf(getSource()) != elementTypeOf(result))
    return emitOpError() << "swaps the two minor dimensions of a rank >= 2 "
                            "shape, keeping the rest and the element type: "
                         << getSource().getType() << " to " << result.getType();
  return success();
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyKernelForm(*this, getSource(), getOutsRange())))
    return failure();
  auto from = cast<ShapedType>(getSource().getType());
  auto to = cast<ShapedType>(getResultValue().getType());
  if (from.getNumElements() != to.getNumElements() ||
      from.getElementType() != to.getElementType())
    return emitOpError() << "keeps the elements and their type: "
                         << getSource().getType() << " to "
                         << getResultValue().getType() << " differ";
  return success();
}

namespace {

bool keepsTiledImage(ArrayRef<int64_t> fromShape, ArrayRef<int64_t> toShape,
                     int64_t packing = 1) {
  TiledShape from = TiledShape::get(fromShape.vec(), packing);
  TiledShape to = TiledShape::get(toShape.vec(), packing);
  if (from.cols != to.cols)
    return false;
  if (from.batch == to.batch && from.rows == to.rows)
    return true;
  // Rows that fill their tiles on both sides lie one after another, matrix
  // after matrix: merging the rows dimension with leading ones (or
  // splitting it) moves nothing.
  return from.rows % from.tileRows() == 0 && to.rows % to.tileRows() == 0 &&
         from.batch * from.rows == to.batch * to.rows;
}

/// Whether the reshape keeps the last dimension and regroups the rows (the
/// same sequence, in row-major order, on both sides) into matrices of
/// another height, one side's a multiple of the other's.
bool regroupsRows(ArrayRef<int64_t> fromShape, ArrayRef<int64_t> toShape) {
  TiledShape from = TiledShape::get(fromShape.vec());
  TiledShape to = TiledShape::get(toShape.vec());
  int64_t small = std::min(from.rows, to.rows);
  int64_t large = std::max(from.rows, to.rows);
  return from.cols == to.cols && from.batch * from.rows == to.batch * to.rows &&
         small > 0 && large % small == 0;
}

std::optional<bool> isVectorToColumn(ArrayRef<int64_t> from,
                                     ArrayRef<int64_t> to) {
  if (from.size() == 1 && to.size() == 2 && to[1] == 1)
    return true;
  if (from.size() == 2 && from[1] == 1 && to.size() == 1)
    return false;
  return std::nullopt;
}

} // namespace

bool ReshapeOp::keepsTiledImage() {
  return ::keepsTiledImage(shapeOf(getSource()), shapeOf(getResultValue()),
                           getPacking(elementTypeOf(getSource())));
}

std::optional<bool> ReshapeOp::isVectorToColumn() {
  return ::isVectorToColumn(shapeOf(getSource()), shapeOf(getResultValue()));
}

bool ReshapeOp::regroupsRows() {
  return ::regroupsRows(shapeOf(getSource()), shapeOf(getResultValue()));
}

bool ReshapeOp::hasBufferForm(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  return ::keepsTiledImage(from, to) || ::isVectorToColumn(from, to) ||
         ::regroupsRows(from, to);
}

LogicalResult ElementwiseOp::verify() {
  if (failed(
          verifyKernelForm(*this, getInputs(),
                           getOuts() ? ValueRange(getOuts()) : ValueRange())))
    return failure();
  Value result = getResultValue();
  for (Value input : getInputs())
    if (shapeOf(input) != shapeOf(result))
      return emitOpError() << "every input has the result's shape "
                           << formatShape(shapeOf(result)) << ", got "
                           << input.getType();
  return success();
}

LogicalResult ElementwiseOp::verifyRegions() {
  SmallVector<Type> elementTypes;
  for (Value input : getInputs())
    elementTypes.push_back(elementTypeOf(input));
  return verifyElementwiseBody(*this, getBody().front(), elementTypes,
                               elementTypeOf(getResultValue()));
}

void ElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  addKernelEffects(*this, getOuts() ? ValueRange(getOuts()) : ValueRange(),
                   effects);
}

//===----------------------------------------------------------------------===//
// Loop level
//===----------------------------------------------------------------------===//

LogicalResult TiledViewOp::verify() {
  // Row tiles of all matrices, and column tiles: a padded or sliced
  // tensor, or one whose whole row tiles are split into matrices or
  // merged, keeps them.
  auto tiles = [](MemRefType type) {
    TiledShape shape = getTiledShape(type);
    return std::make_pair(shape.batch * shape.rowTiles(), shape.colTiles());
  };
  MemRefType from = getSource().getType(), to = getResult().getType();
  if (tiles(from) != tiles(to) || from.getMemorySpace() != to.getMemorySpace())
    return emitOpError() << "needs the same tiles in the same memory "
                            "space: "
                         << from << " and " << to << " differ";
  if (from.getElementType() != to.getElementType())
    return emitOpError() << "keeps the element type; got " << from << " to "
                         << to;
  return success();
}

#define GET_OP_CLASSES
#include "tpu/Dialect/TPU/IR/TPUOps.cpp.inc"
