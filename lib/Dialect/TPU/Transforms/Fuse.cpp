//===- Fuse.cpp - The tpu-fuse pass ---------------------------------------===//
//
// Elementwise ops fused into their neighbours' kernels, on tensors: a
// producer tpu.elementwise's body into its consumer's, a consumer of a
// matmul into the matmul's epilogue, and a producer of a row reduction
// into the reduction's prologue. Each builds one body from two by cloning:
// the producer's, then the consumer's with the producer's result for the
// element it read. And a matmul's operand splits taken into the matmul,
// which then reads the f32 operands and splits them in VMEM, and its rhs's
// rows of zero padding, which it then fills in VMEM.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace tpu {
#define GEN_PASS_DEF_TPUFUSE
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

Type elementTypeOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

/// Whether every use of `value` is by `user`, or by an op nothing reads
/// (one this walk fused and left dead, which eraseDeadKernels removes
/// after it).
bool onlyUsedBy(Value value, Operation *user) {
  return llvm::all_of(value.getUsers(), [&](Operation *other) {
    return other == user || isOpTriviallyDead(other);
  });
}

/// Whether `resize` makes either minor dimension larger.
bool grows(ResizeOp resize) {
  ArrayRef<int64_t> from =
      cast<ShapedType>(resize.getSource().getType()).getShape();
  ArrayRef<int64_t> to =
      cast<ShapedType>(resize.getResult().getType()).getShape();
  return to.back() > from.back() ||
         to.drop_back().back() > from.drop_back().back();
}

/// Whether `broadcast` repeats a rank-1 row over every other dimension
/// (a bias).
bool isBroadcastRow(BroadcastOp broadcast) {
  auto source = cast<ShapedType>(broadcast.getSource().getType());
  int64_t rank = cast<ShapedType>(broadcast.getResult().getType()).getRank();
  return source.getRank() == 1 &&
         int64_t(broadcast.getDimensions().size()) == rank - 1 &&
         !llvm::is_contained(broadcast.getDimensions(), rank - 1);
}

/// Clones the ops of `body` before `builder`'s insertion point with its
/// arguments mapped to `arguments`; returns the value it yields.
Value inlineBody(OpBuilder &builder, Block &body, ValueRange arguments) {
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookup(body.getTerminator()->getOperand(0));
}

/// Fills `block` (whose arguments are the producer's value's inputs, then
/// `consumer`'s other inputs) with the producer's computation, given by
/// `produce`, and then `consumer`'s body with what `produce` returns for
/// every input `fused` says is the producer's.
void buildFusedBody(OpBuilder &builder, Block &block, ElementwiseOp consumer,
                    llvm::function_ref<bool(unsigned)> fused,
                    unsigned producerArgs,
                    llvm::function_ref<Value(ValueRange)> produce) {
  builder.setInsertionPointToStart(&block);
  Value produced = produce(block.getArguments().take_front(producerArgs));
  SmallVector<Value> consumerArgs;
  unsigned next = producerArgs;
  for (unsigned i = 0; i < consumer.getInputs().size(); ++i)
    consumerArgs.push_back(fused(i) ? produced : block.getArgument(next++));
  Value result = inlineBody(builder, consumer.getBody().front(), consumerArgs);
  YieldOp::create(builder, consumer.getLoc(), result);
}

/// With `report`, a remark on `fused` saying what it joined, and a note
/// at the op whose kernel it joined.
void reportFused(bool report, Operation *fused, Operation *into,
                 const Twine &what) {
  if (!report)
    return;
  InFlightDiagnostic remark = fused->emitRemark() << "tpu-fuse: " << what;
  remark.attachNote(into->getLoc())
      << "the " << into->getName() << " it joined";
}

} // namespace

FailureOr<ElementwiseOp> tpu::fuseElementwiseProducer(RewriterBase &rewriter,
                                                      ElementwiseOp consumer,
                                                      bool report) {
  ElementwiseOp producer;
  for (Value input : consumer.getInputs())
    if (auto op = input.getDefiningOp<ElementwiseOp>();
        op && onlyUsedBy(input, consumer)) {
      producer = op;
      break;
    }
  if (!producer)
    return rewriter.notifyMatchFailure(consumer, "no elementwise producer "
                                                 "read by it alone");
  Value produced = producer.getResult();
  auto fused = [&](unsigned i) { return consumer.getInputs()[i] == produced; };
  SmallVector<Value> inputs(producer.getInputs());
  for (auto [i, input] : llvm::enumerate(consumer.getInputs()))
    if (!fused(i))
      inputs.push_back(input);
  rewriter.setInsertionPoint(consumer);
  auto op = ElementwiseOp::create(rewriter, consumer.getLoc(),
                                  consumer.getResult().getType(), inputs,
                                  Value());
  Block &block = op.getBody().emplaceBlock();
  for (Value input : inputs)
    block.addArgument(elementTypeOf(input), consumer.getLoc());
  Block &producerBody = producer.getBody().front();
  buildFusedBody(rewriter, block, consumer, fused,
                 producer.getInputs().size(), [&](ValueRange args) {
                   return inlineBody(rewriter, producerBody, args);
                 });
  reportFused(report, producer, consumer,
              "fused into the body of its tpu.elementwise consumer (its "
              "result no longer goes to HBM)");
  rewriter.replaceOp(consumer, op.getResult());
  return op;
}

FailureOr<MatmulPassesOp> tpu::fuseIntoMatmulEpilogue(RewriterBase &rewriter,
                                                      ElementwiseOp consumer,
                                                      bool report) {
  if (!elementTypeOf(consumer.getResult()).isF32())
    return rewriter.notifyMatchFailure(consumer, "a matmul's result is f32");
  // A row broadcast over the result's rows (a bias) is read as the row
  // itself, into every sublane.
  auto readAsRow = [&](Value input) {
    auto broadcast = input.getDefiningOp<BroadcastOp>();
    return broadcast && onlyUsedBy(input, consumer) &&
           isBroadcastRow(broadcast);
  };
  // The epilogue reads its other inputs tile for tile with the f32
  // result; a bf16 one is packed, two rows to a word. (A row is one row
  // of words either way.)
  if (llvm::any_of(consumer.getInputs(), [&](Value input) {
        return elementTypeOf(input).isBF16() && !readAsRow(input);
      }))
    return rewriter.notifyMatchFailure(consumer, "a bf16 input is packed");
  // The matmul's result, read through the resize that drops its padding.
  MatmulPassesOp matmul;
  ResizeOp resize;
  Value read;
  for (Value input : consumer.getInputs()) {
    Value source = input;
    // A resize that drops padding, not one that grows (whose new elements
    // are zero, not the epilogue of zero).
    auto viaResize = input.getDefiningOp<ResizeOp>();
    if (viaResize && onlyUsedBy(input, consumer) && !grows(viaResize))
      source = viaResize.getSource();
    auto op = source.getDefiningOp<MatmulPassesOp>();
    if (!op || !onlyUsedBy(source, source == input ? consumer.getOperation()
                                                   : viaResize.getOperation()))
      continue;
    matmul = op;
    resize = source == input ? ResizeOp() : viaResize;
    read = input;
    break;
  }
  if (!matmul)
    return rewriter.notifyMatchFailure(consumer, "no matmul read by it alone");
  auto fused = [&](unsigned i) { return consumer.getInputs()[i] == read; };
  Location loc = consumer.getLoc();
  auto paddedType = cast<RankedTensorType>(matmul.getResult().getType());
  rewriter.setInsertionPoint(consumer);
  // The epilogue's inputs: the matmul's own, then the consumer's others,
  // grown to the matmul's padded shape; a row broadcast over the result's
  // rows (a bias) as the row itself (its lane tiles are the padded
  // result's), read into every sublane, and the broadcast gone.
  SmallVector<Value> epilogueInputs(matmul.getEpilogueInputs());
  auto grow = [&](Value input, ArrayRef<int64_t> shape) -> Value {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getShape() == shape)
      return input;
    return ResizeOp::create(rewriter, loc, type.clone(shape), input, Value())
        .getResult();
  };
  for (auto [i, input] : llvm::enumerate(consumer.getInputs())) {
    if (fused(i))
      continue;
    if (readAsRow(input)) {
      epilogueInputs.push_back(
          input.getDefiningOp<BroadcastOp>().getSource());
      continue;
    }
    epilogueInputs.push_back(grow(input, paddedType.getShape()));
  }
  auto op = MatmulPassesOp::create(
      rewriter, matmul.getLoc(), paddedType, matmul.getLhs(), matmul.getRhs(),
      matmul.getAcc(), epilogueInputs, Value(), matmul.getNanFixedTermsAttr(),
      matmul.getLhsPartsAttr(), matmul.getRhsPartsAttr(),
      matmul.getSplitAttr());
  op->setDiscardableAttrs(matmul->getDiscardableAttrDictionary());
  Block &block = op.getEpilogue().emplaceBlock();
  block.addArgument(rewriter.getF32Type(), loc);
  for (Value input : epilogueInputs)
    block.addArgument(elementTypeOf(input), loc);
  unsigned matmulArgs = 1 + matmul.getEpilogueInputs().size();
  buildFusedBody(rewriter, block, consumer, fused, matmulArgs,
                 [&](ValueRange args) -> Value {
                   if (!matmul.hasEpilogue())
                     return args.front();
                   return inlineBody(rewriter, matmul.getEpilogue().front(),
                                     args);
                 });
  reportFused(report, consumer, matmul,
              "fused into the epilogue of the tpu.matmul_passes it reads "
              "(the matmul's result no longer goes to HBM)");
  rewriter.setInsertionPoint(consumer);
  Value result = op.getResult();
  if (resize)
    result = ResizeOp::create(rewriter, loc, consumer.getResult().getType(),
                              result, Value())
                 .getResult();
  rewriter.replaceOp(consumer, result);
  return op;
}

LogicalResult tpu::fuseSplitsIntoMatmul(RewriterBase &rewriter,
                                        MatmulPassesOp matmul, bool report) {
  if (matmul.hasBufferSemantics())
    return rewriter.notifyMatchFailure(matmul, "splits are fused on tensors");
  size_t terms = matmul.getLhs().size();
  SmallVector<int64_t> lhsParts, rhsParts;
  for (unsigned term = 0; term < terms; ++term) {
    lhsParts.push_back(matmul.getLhsPart(term));
    rhsParts.push_back(matmul.getRhsPart(term));
  }
  RoundingAttr rounding = matmul.getSplitAttr();
  // (operand, part, split) for each operand read from a split taken in.
  SmallVector<std::tuple<OpOperand *, int64_t *, SplitOp>> taken;
  auto take = [&](MutableArrayRef<OpOperand> operands,
                  MutableArrayRef<int64_t> parts) {
    for (auto [operand, part] : llvm::zip(operands, parts)) {
      auto split = operand.get().getDefiningOp<SplitOp>();
      // One part is a plain rounding, not the hi of a split.
      if (!split || split.getParts().size() < 2 ||
          (rounding && split.getRoundingAttr() != rounding) ||
          !llvm::all_of(split.getParts(),
                        [&](Value p) { return onlyUsedBy(p, matmul); }))
        continue;
      rounding = split.getRoundingAttr();
      taken.emplace_back(&operand, &part, split);
    }
  };
  take(matmul.getLhsMutable(), lhsParts);
  take(matmul.getRhsMutable(), rhsParts);
  if (taken.empty())
    return rewriter.notifyMatchFailure(matmul, "no operand is a split's "
                                               "part read by it alone");
  SmallPtrSet<Operation *, 2> reported;
  rewriter.modifyOpInPlace(matmul, [&] {
    for (auto [operand, part, split] : taken) {
      *part = cast<OpResult>(operand->get()).getResultNumber();
      operand->set(split.getInput());
    }
    matmul.setLhsParts(lhsParts);
    matmul.setRhsParts(rhsParts);
    matmul.setSplitAttr(rounding);
  });
  for (auto [operand, part, split] : taken)
    if (reported.insert(split).second)
      reportFused(report, split, matmul,
                  "fused into the tpu.matmul_passes that reads its parts "
                  "(each tile is split in VMEM on the way to the MXU; the "
                  "parts no longer go to HBM)");
  return success();
}

LogicalResult tpu::fuseRhsPaddingIntoMatmul(RewriterBase &rewriter,
                                            MatmulPassesOp matmul,
                                            bool report) {
  if (matmul.hasBufferSemantics())
    return rewriter.notifyMatchFailure(matmul, "padding is fused on tensors");
  int64_t k = cast<ShapedType>(matmul.getLhs()[0].getType()).getShape().back();
  // Every term's rhs has the same shape, so every one must shorten alike.
  std::optional<SmallVector<int64_t>> shortShape;
  SmallVector<ResizeOp> resizes;
  for (Value rhs : matmul.getRhs()) {
    // A resize that grows the rows to K, read by this matmul alone (else
    // its copy stays for the others).
    auto resize = rhs.getDefiningOp<ResizeOp>();
    if (!resize || !onlyUsedBy(resize.getResult(), matmul))
      return rewriter.notifyMatchFailure(
          matmul, "an rhs is not a resize the matmul alone reads");
    auto source = cast<ShapedType>(resize.getSource().getType());
    ArrayRef<int64_t> to = cast<ShapedType>(rhs.getType()).getShape();
    int64_t sourceRows = source.getShape()[to.size() - 2];
    if (to[to.size() - 2] != k || sourceRows > k)
      return rewriter.notifyMatchFailure(matmul,
                                         "an rhs resize does not pad K");
    SmallVector<int64_t> shape(to);
    int64_t &rows = shape[shape.size() - 2];
    rows = llvm::alignTo(sourceRows, getTiledShape(source).tileRows());
    if (rows >= k || k - rows >= int64_t(kMxuDim) ||
        (shortShape && *shortShape != shape))
      return rewriter.notifyMatchFailure(
          matmul, "no rhs rows to drop within the last K tile");
    shortShape = shape;
    if (!llvm::is_contained(resizes, resize))
      resizes.push_back(resize);
  }
  for (ResizeOp resize : resizes) {
    Value source = resize.getSource();
    auto type = cast<RankedTensorType>(source.getType());
    Value shortRhs = source;
    if (type.getShape() != ArrayRef<int64_t>(*shortShape)) {
      rewriter.setInsertionPoint(resize);
      shortRhs = ResizeOp::create(rewriter, resize.getLoc(),
                                  type.clone(*shortShape), source, Value())
                     .getResult();
    }
    rewriter.modifyOpInPlace(matmul, [&] {
      for (OpOperand &operand : matmul.getRhsMutable())
        if (operand.get() == resize.getResult())
          operand.set(shortRhs);
    });
    reportFused(report, resize, matmul,
                "its zero rows fused into the tpu.matmul_passes that reads "
                "it (the kernel zero-fills the last K tile's missing rows "
                "in VMEM; they no longer go through HBM)");
  }
  return success();
}

FailureOr<ReduceOp> tpu::fuseIntoReductionPrologue(RewriterBase &rewriter,
                                                   ReduceOp reduce,
                                                   bool report) {
  auto producer = reduce.getSource().getDefiningOp<ElementwiseOp>();
  if (!producer || !reduce.getPrologue().empty() ||
      !onlyUsedBy(producer.getResult(), reduce))
    return rewriter.notifyMatchFailure(reduce, "no elementwise producer read "
                                               "by it alone");
  // The prologue takes one element: the producer must read one value.
  Value input = producer.getInputs().front();
  if (llvm::any_of(producer.getInputs(),
                   [&](Value other) { return other != input; }) ||
      !elementTypeOf(input).isF32())
    return rewriter.notifyMatchFailure(reduce, "the producer reads more than "
                                               "one f32 value");
  rewriter.setInsertionPoint(reduce);
  auto op = ReduceOp::create(rewriter, reduce.getLoc(),
                             reduce.getResult().getType(), input, Value(),
                             reduce.getKindAttr(), reduce.getInitAttr());
  Block &block = op.getPrologue().emplaceBlock();
  Value element = block.addArgument(rewriter.getF32Type(), reduce.getLoc());
  rewriter.setInsertionPointToStart(&block);
  SmallVector<Value> args(producer.getInputs().size(), element);
  Value result = inlineBody(rewriter, producer.getBody().front(), args);
  YieldOp::create(rewriter, reduce.getLoc(), result);
  reportFused(report, producer, reduce,
              "fused into the prologue of the tpu.reduce that reads it (its "
              "result no longer goes to HBM)");
  rewriter.replaceOp(reduce, op.getResult());
  return op;
}

namespace {

/// The pattern that applies one of the fusions above, `fuse(rewriter, op,
/// report)`, to each OpT.
template <typename OpT, auto fuse>
struct FusePattern : public OpRewritePattern<OpT> {
  FusePattern(MLIRContext *context, bool report)
      : OpRewritePattern<OpT>(context), report(report) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    return failure(failed(fuse(rewriter, op, report)));
  }
  bool report;
};

using FuseReduction = FusePattern<ReduceOp, fuseIntoReductionPrologue>;

/// A matmul's split operands taken in, then its rhs padding.
struct FuseIntoMatmul : public OpRewritePattern<MatmulPassesOp> {
  FuseIntoMatmul(MLIRContext *context, bool report)
      : OpRewritePattern(context), report(report) {}
  LogicalResult matchAndRewrite(MatmulPassesOp op,
                                PatternRewriter &rewriter) const override {
    bool splits = succeeded(fuseSplitsIntoMatmul(rewriter, op, report));
    bool padding = succeeded(fuseRhsPaddingIntoMatmul(rewriter, op, report));
    return success(splits || padding);
  }
  bool report;
};

struct FuseElementwise : public OpRewritePattern<ElementwiseOp> {
  FuseElementwise(MLIRContext *context, bool report)
      : OpRewritePattern(context), report(report) {}
  LogicalResult matchAndRewrite(ElementwiseOp op,
                                PatternRewriter &rewriter) const override {
    // A chain first becomes one op, which then joins a matmul: one walk,
    // in program order, does both, as each op is visited after its
    // producers.
    bool changed = false;
    FailureOr<ElementwiseOp> fused;
    while (succeeded(fused = fuseElementwiseProducer(rewriter, op, report))) {
      op = *fused;
      changed = true;
    }
    if (succeeded(fuseIntoMatmulEpilogue(rewriter, op, report)))
      changed = true;
    return success(changed);
  }
  bool report;
};

struct FusePass : public tpu::impl::TPUFuseBase<FusePass> {
  using TPUFuseBase::TPUFuseBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFusePatterns(patterns, report);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    eraseDeadKernels(getOperation());
  }
};

} // namespace

void tpu::eraseDeadKernels(Operation *root) {
  // Last first, so that a producer's only reader is gone before it is
  // looked at. Kernel ops on tensors have no side effects.
  SmallVector<Operation *> kernels;
  root->walk([&](Operation *op) {
    if (op->hasTrait<KernelOpTrait>())
      kernels.push_back(op);
  });
  for (Operation *op : llvm::reverse(kernels))
    if (isOpTriviallyDead(op))
      op->erase();
}

void tpu::populateFusePatterns(RewritePatternSet &patterns, bool report) {
  patterns.add<FuseElementwise, FuseReduction, FuseIntoMatmul>(
      patterns.getContext(), report);
}
