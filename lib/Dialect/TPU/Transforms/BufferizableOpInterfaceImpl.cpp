//===- BufferizableOpInterfaceImpl.cpp - How tpu ops bufferize ------------===//
//
// Every tpu kernel op reads its operands and writes a new buffer of its
// own, so no op ever writes into another's: One-Shot Analysis never needs
// a copy. The result buffers are HBM allocations in the tiled layout; a
// tpu.resize or tpu.reshape that keeps the tiled image is instead a view
// of its source (docs/Compiler.md, "Buffers").
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace tpu;

namespace {

/// Whether an elementwise body gives zero for zero inputs, found by
/// folding it.
bool mapsZeroToZero(Block &body) {
  DenseMap<Value, Attribute> known;
  for (BlockArgument arg : body.getArguments())
    known[arg] = FloatAttr::get(arg.getType(), 0.0);
  for (Operation &inner : body.without_terminator()) {
    SmallVector<Attribute> operands;
    for (Value operand : inner.getOperands())
      operands.push_back(known.lookup(operand));
    SmallVector<OpFoldResult> results;
    if (failed(inner.fold(operands, results)) ||
        results.size() != inner.getNumResults())
      return false;
    for (auto [result, folded] : llvm::zip(inner.getResults(), results)) {
      auto attr = dyn_cast<Attribute>(folded);
      if (!attr)
        return false;
      known[result] = attr;
    }
  }
  auto value = dyn_cast_or_null<FloatAttr>(
      known.lookup(body.getTerminator()->getOperand(0)));
  return value && value.getValue().isZero();
}

/// Whether a resize drops elements of either minor dimension: they stay
/// in the tiled image, as padding of the result.
bool shrinks(ResizeOp resize) {
  ArrayRef<int64_t> from =
      cast<ShapedType>(resize.getSource().getType()).getShape();
  ArrayRef<int64_t> to = cast<ShapedType>(resize->getResult(0).getType())
                             .getShape();
  return to.back() < from.back() ||
         to.drop_back().back() < from.drop_back().back();
}

/// Which values of the entry's block have zeros in the padding of their
/// tiled image, found in one pass in program order (a single block is its
/// own topological order). Arguments do (the runtime writes them), and so
/// does everything the kernels compute from zero-padded operands, except:
/// - an elementwise op whose body does not give zero for zeros: its
///   padding is its body applied to its inputs' padding (0 / 0 is NaN);
///   so is a matmul's with such an epilogue;
/// - a resize that shrinks: the elements it drops become padding, and
///   nothing says they are zero (a matmul's padded rows times an inf are
///   NaN);
/// - a reduction of matrices, unless a sum from zero: its padding is its
///   init combined with the sources' (max(2, 0) is 2).
class ZeroPadding {
public:
  bool of(Value tensor) const {
    auto known = zeroPadded.find(tensor);
    return known == zeroPadded.end() || known->second;
  }
  void visit(Operation *op) {
    bool result = true;
    if (auto elementwise = dyn_cast<ElementwiseOp>(op))
      result = mapsZeroToZero(elementwise.getBody().front()) &&
               llvm::all_of(elementwise.getInputs(),
                            [&](Value input) { return of(input); });
    else if (auto matmul = dyn_cast<MatmulPassesOp>(op);
             matmul && matmul.hasEpilogue())
      result = mapsZeroToZero(matmul.getEpilogue().front()) &&
               llvm::all_of(matmul.getEpilogueInputs(),
                            [&](Value input) { return of(input); });
    else if (auto resize = dyn_cast<ResizeOp>(op))
      result = !shrinks(resize) && of(resize.getSource());
    else if (auto reduce = dyn_cast<ReduceMatricesOp>(op))
      result = reduce.getKind() == ReductionKind::Sum &&
               reduce.getInit().isZero() && of(reduce.getSource());
    else if (auto insert = dyn_cast<InsertRowsOp>(op))
      result = of(insert.getSource()) &&
               (!insert.getDest() || of(insert.getDest()));
    else if (isa<ReshapeOp, SplitOp, BroadcastOp, ReduceOp, BroadcastLanesOp,
                 TransposeOp, WindowsOp, PermuteMatricesOp, PermuteRowsOp>(
                 op))
      result = of(op->getOperand(0));
    for (Value value : op->getResults())
      zeroPadded[value] = result;
  }

private:
  DenseMap<Value, bool> zeroPadded;
};

bool sameTiles(Value a, Value b) {
  auto tiles = [](Value v) {
    TiledShape shape = getTiledShape(cast<ShapedType>(v.getType()));
    return std::make_tuple(shape.batch, shape.rowTiles(), shape.colTiles());
  };
  return tiles(a) == tiles(b);
}

/// Whether `op` (a resize or reshape in tensor form) bufferizes to a view
/// of its source.
bool isView(Operation *op) {
  // A vector and a column always go through the kernel, even the one
  // element long ones whose images agree.
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return !reshape.isVectorToColumn() && reshape.keepsTiledImage();
  // A resize that grows turns the source's padding into elements: a view
  // only when that padding is zero; else the kernel zeroes it.
  auto resize = cast<ResizeOp>(op);
  ArrayRef<int64_t> from =
      cast<ShapedType>(resize.getSource().getType()).getShape();
  ArrayRef<int64_t> to =
      cast<ShapedType>(resize.getResult().getType()).getShape();
  bool grows = to.back() > from.back() ||
               to.drop_back().back() > from.drop_back().back();
  return sameTiles(resize.getSource(), resize.getResult()) &&
         (!grows || resize.getZeroPaddedSource());
}

/// The model all kernel ops share. `Op` provides the buffer form's builder
/// through `createBufferForm`.
template <typename Op, typename Derived>
struct KernelOpInterface
    : public BufferizableOpInterface::ExternalModel<Derived, Op> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    return true;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &opOperand,
                               const AnalysisState &state) const {
    return false;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &state) const {
    return {};
  }

  bool bufferizesToAllocation(Operation *op, Value value) const { return true; }

  FailureOr<BufferLikeType> getBufferType(Operation *op, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    return cast<BufferLikeType>(
        getTiledHbmType(cast<ShapedType>(value.getType())));
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto kernel = cast<Op>(op);
    // The operands' buffers, in operand order.
    SmallVector<Value> buffers;
    for (Value operand : op->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    SmallVector<Value> outs;
    for (Value result : op->getResults())
      outs.push_back(memref::AllocOp::create(
          rewriter, op->getLoc(),
          getTiledHbmType(cast<ShapedType>(result.getType()))));
    Operation *bufferForm =
        Derived::createBufferForm(rewriter, kernel, buffers, outs);
    bufferForm->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    replaceOpWithBufferizedValues(rewriter, op, outs);
    return success();
  }
};

struct SplitOpInterface : KernelOpInterface<SplitOp, SplitOpInterface> {
  static Operation *createBufferForm(RewriterBase &rewriter, SplitOp op,
                                     ValueRange buffers, ValueRange outs) {
    return SplitOp::create(rewriter, op.getLoc(), TypeRange(), buffers[0], outs,
                           op.getRoundingAttr());
  }
};

struct MatmulPassesOpInterface
    : KernelOpInterface<MatmulPassesOp, MatmulPassesOpInterface> {
  static Operation *createBufferForm(RewriterBase &rewriter, MatmulPassesOp op,
                                     ValueRange buffers, ValueRange outs) {
    size_t terms = op.getLhs().size();
    size_t accs = op.getAcc() ? 1 : 0;
    auto bufferForm = MatmulPassesOp::create(
        rewriter, op.getLoc(), Type(), buffers.take_front(terms),
        buffers.slice(terms, terms), accs ? buffers[2 * terms] : Value(),
        buffers.drop_front(2 * terms + accs), outs[0],
        op.getNanFixedTermsAttr(), op.getLhsPartsAttr(), op.getRhsPartsAttr(),
        op.getSplitAttr());
    rewriter.inlineRegionBefore(op.getEpilogue(), bufferForm.getEpilogue(),
                                bufferForm.getEpilogue().end());
    return bufferForm;
  }
};

struct InsertRowsOpInterface
    : KernelOpInterface<InsertRowsOp, InsertRowsOpInterface> {
  static Operation *createBufferForm(RewriterBase &rewriter, InsertRowsOp op,
                                     ValueRange buffers, ValueRange outs) {
    return InsertRowsOp::create(
        rewriter, op.getLoc(), Type(), buffers[0],
        op.getDest() ? buffers[1] : Value(), outs[0], op.getOffsetsAttr(),
        op.getExtractAttr());
  }
};

struct ElementwiseOpInterface
    : KernelOpInterface<ElementwiseOp, ElementwiseOpInterface> {
  static Operation *createBufferForm(RewriterBase &rewriter, ElementwiseOp op,
                                     ValueRange buffers, ValueRange outs) {
    auto bufferForm =
        ElementwiseOp::create(rewriter, op.getLoc(), Type(), buffers, outs[0]);
    rewriter.inlineRegionBefore(op.getBody(), bufferForm.getBody(),
                                bufferForm.getBody().end());
    return bufferForm;
  }
};

/// A one-operand kernel op (TPUOps.td's TPU_UnaryKernelOp): its buffer
/// form is the same op on the source's buffer, writing `outs`, with the
/// same attributes and regions (a reduction's prologue).
template <typename Op>
Operation *createUnaryBufferForm(RewriterBase &rewriter, Op op,
                                 ValueRange buffers, ValueRange outs) {
  Operation *bufferForm =
      Op::create(rewriter, op.getLoc(), TypeRange(),
                 ValueRange{buffers[0], outs[0]}, op->getAttrs());
  for (auto [from, to] :
       llvm::zip(op->getRegions(), bufferForm->getRegions()))
    rewriter.inlineRegionBefore(from, to, to.end());
  return bufferForm;
}

template <typename Op>
struct UnaryKernelOpInterface
    : KernelOpInterface<Op, UnaryKernelOpInterface<Op>> {
  static Operation *createBufferForm(RewriterBase &rewriter, Op op,
                                     ValueRange buffers, ValueRange outs) {
    return createUnaryBufferForm(rewriter, op, buffers, outs);
  }
};

template <typename... Ops>
void attachUnaryKernelModels(MLIRContext *context) {
  (Ops::template attachInterface<UnaryKernelOpInterface<Ops>>(*context), ...);
}

/// tpu.resize and tpu.reshape: a view of the source where the tiled image
/// stays, else a kernel that moves the data.
template <typename Op>
struct RelayoutOpInterface : KernelOpInterface<Op, RelayoutOpInterface<Op>> {
  using Base = KernelOpInterface<Op, RelayoutOpInterface<Op>>;

  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &state) const {
    if (!isView(op))
      return {};
    return {{op->getResult(0), BufferRelation::Unknown}};
  }

  bool bufferizesToAllocation(Operation *op, Value value) const {
    return !isView(op);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    if (!isView(op))
      return Base::bufferize(op, rewriter, options, state);
    FailureOr<Value> source =
        getBuffer(rewriter, cast<Op>(op).getSource(), options, state);
    if (failed(source))
      return failure();
    rewriter.setInsertionPoint(op);
    replaceOpWithNewBufferizedOp<TiledViewOp>(
        rewriter, op,
        getTiledHbmType(cast<ShapedType>(op->getResult(0).getType())), *source);
    return success();
  }

  static Operation *createBufferForm(RewriterBase &rewriter, Op op,
                                     ValueRange buffers, ValueRange outs) {
    return createUnaryBufferForm(rewriter, op, buffers, outs);
  }
};

} // namespace

LogicalResult tpu::prepareBufferization(Block &entryBlock) {
  ZeroPadding padding;
  SmallVector<Operation *> toWiden;
  for (Operation &op : entryBlock) {
    if (auto resize = dyn_cast<ResizeOp>(op))
      resize.setZeroPaddedSource(padding.of(resize.getSource()));
    // A view moves nothing, so packed bf16 is fine; a kernel that moves
    // words takes its bf16 as f32.
    if (movesWords(&op) && !(isa<ResizeOp, ReshapeOp>(op) && isView(&op)))
      toWiden.push_back(&op);
    if (auto reshape = dyn_cast<ReshapeOp>(op)) {
      if (!ReshapeOp::hasBufferForm(
              cast<ShapedType>(reshape.getSource().getType()).getShape(),
              cast<ShapedType>(reshape.getType(0)).getShape()))
        return op.emitError()
               << "tpu-bufferize: cannot reshape "
               << reshape.getSource().getType() << " to "
               << reshape.getType(0)
               << ": only reshapes that keep the last dimension (and merge "
                  "or split the others so that one side's matrices have a "
                  "multiple of the other's rows), and between a vector and "
                  "a column (as linalg.matvec uses), are supported";
    }
    padding.visit(&op);
  }
  // Extending and rounding keep zeros, so what padding.visit found holds.
  IRRewriter rewriter(entryBlock.getParentOp()->getContext());
  for (Operation *op : toWiden)
    (void)widenBF16(rewriter, op);
  return success();
}

void tpu::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, TPUDialect *) {
    SplitOp::attachInterface<SplitOpInterface>(*context);
    MatmulPassesOp::attachInterface<MatmulPassesOpInterface>(*context);
    ElementwiseOp::attachInterface<ElementwiseOpInterface>(*context);
    InsertRowsOp::attachInterface<InsertRowsOpInterface>(*context);
    attachUnaryKernelModels<BroadcastOp, ReduceOp, ReduceColumnsOp,
                            ReduceMatricesOp, TransposeOp, BroadcastLanesOp,
                            WindowsOp, PermuteMatricesOp, PermuteRowsOp>(
        context);
    ResizeOp::attachInterface<RelayoutOpInterface<ResizeOp>>(*context);
    ReshapeOp::attachInterface<RelayoutOpInterface<ReshapeOp>>(*context);
  });
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
}

OneShotBufferizationOptions tpu::getBufferizationOptions(func::FuncOp entry) {
  OneShotBufferizationOptions options;
  options.bufferizeFunctionBoundaries = true;
  // The entry's arguments and results are the runtime's tiled HBM images;
  // so is every buffer in it.
  options.functionArgTypeConverterFn =
      [](TensorLikeType type, Attribute, func::FuncOp,
         const BufferizationOptions &) -> BufferLikeType {
    return cast<BufferLikeType>(getTiledHbmType(cast<ShapedType>(type)));
  };
  options.inferFunctionResultLayout = false;
  options.unknownTypeConverterFn = [](TensorType type, Attribute,
                                      const BufferizationOptions &) {
    return BaseMemRefType(getTiledHbmType(type));
  };
  Operation *entryOp = entry;
  options.opFilter.allowOperation([entryOp](Operation *op) {
    return op == entryOp || entryOp->isProperAncestor(op);
  });
  return options;
}
