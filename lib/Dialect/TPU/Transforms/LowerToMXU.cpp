//===- LowerToMXU.cpp - Tensor ops to loops of MXU, VPU and DMA ops -------===//
//
// Bufferizes the entry function (tensors become HBM buffers in the device's
// tiled layout, DESIGN.md 1) and writes each tensor op as a loop nest over
// tiles that moves data between HBM and VMEM with DMA and computes on the
// MXUs and the VPU. docs/Compiler.md draws the loop nests.
//
// Why these tile sizes: a chunk of LHS rows fills the MXU result buffer (128
// slots of 8 rows, halved when a NaN-fixed group needs its own slots), so
// every weight tile latched is reused for up to 1024 rows; the working set is
// a few MiB whatever the matrix size, and is halved until it fits VMEM.
//
//===----------------------------------------------------------------------===//

#include "tpu/Dialect/TPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/ISA/ISA.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

namespace tpu {
#define GEN_PASS_DEF_TPULOWERTOMXU
#include "tpu/Dialect/TPU/Transforms/Passes.h.inc"
} // namespace tpu

using namespace mlir;
using namespace tpu;

namespace {

constexpr int64_t kTileRows = kSublanes;
constexpr int64_t kWeightRows = kMxuDim; // VMEM rows of one weight tile
constexpr int64_t kResultSlots = isa::kMxuResultSlots;
/// Tiles an elementwise kernel moves per DMA.
constexpr int64_t kElementwiseChunkTiles = 512;

enum Semaphore : int64_t { kLoadSem = 0, kStoreSem = 1, kAccSem = 2 };

TiledShape tiledShapeOf(Type type) {
  return TiledShape::get(cast<ShapedType>(type).getShape().vec());
}

MemRefType hbmType(ShapedType type) {
  return MemRefType::get(
      type.getShape(), type.getElementType(), MemRefLayoutAttrInterface(),
      MemorySpaceAttr::get(type.getContext(), MemorySpace::HBM));
}

/// Index arithmetic and loops, built at one insertion point.
struct KernelBuilder {
  OpBuilder &b;
  Location loc;

  Value c(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value add(Value x, int64_t y) { return y == 0 ? x : add(x, c(y)); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
  }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value min(Value x, int64_t y) {
    return arith::MinSIOp::create(b, loc, x, c(y));
  }
  Value lessThan(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// for (iv = lb; iv < ub; iv += step) body(iv)
  void loop(Value lb, Value ub, int64_t step,
            const std::function<void(Value)> &body) {
    auto forOp = scf::ForOp::create(b, loc, lb, ub, c(step));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forOp.getBody());
    body(forOp.getInductionVar());
  }
  void loop(int64_t ub, int64_t step, const std::function<void(Value)> &body) {
    loop(c(0), c(ub), step, body);
  }
  void ifThen(Value cond, const std::function<void()> &thenBody,
              const std::function<void()> &elseBody = nullptr) {
    auto ifOp = scf::IfOp::create(b, loc, cond, bool(elseBody));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    thenBody();
    if (elseBody) {
      b.setInsertionPointToStart(ifOp.elseBlock());
      elseBody();
    }
  }
  Value vmem(int64_t rows) {
    auto type = MemRefType::get(
        {rows, int64_t(kLanes)}, b.getF32Type(), MemRefLayoutAttrInterface(),
        MemorySpaceAttr::get(b.getContext(), MemorySpace::VMEM));
    return memref::AllocOp::create(b, loc, type);
  }
  void free(ArrayRef<Value> buffers) {
    for (Value buffer : buffers)
      memref::DeallocOp::create(b, loc, buffer);
  }
  void dmaLoad(Value hbm, Value tile, Value stride, Value vmem, Value row,
               Value count, int64_t sem) {
    DmaLoadOp::create(b, loc, hbm, tile, stride, vmem, row, count, sem);
  }
  void dmaStore(Value vmem, Value row, Value hbm, Value tile, Value stride,
                Value count, int64_t sem) {
    DmaStoreOp::create(b, loc, vmem, row, hbm, tile, stride, count, sem);
  }
  void wait(int64_t sem, int64_t count) {
    DmaWaitOp::create(b, loc, sem, count);
  }
  Value load(Value vmem, Value row) {
    return VectorLoadOp::create(b, loc, vregType(), vmem, row);
  }
  void store(Value value, Value vmem, Value row) {
    VectorStoreOp::create(b, loc, value, vmem, row);
  }
  /// Each element of `v` rounded to bf16, kept in f32.
  Value round(Value v, Rounding rounding) {
    return RoundToBF16Op::create(b, loc, v.getType(), v,
                                 RoundingAttr::get(b.getContext(), rounding));
  }
  VectorType vregType() {
    return VectorType::get({int64_t(kSublanes), int64_t(kLanes)},
                           b.getF32Type());
  }
};

/// The lowering of one entry function. Everything it learns lives here, so
/// each run of the pass starts from nothing.
struct EntryLowering {
  unsigned mxus = 1;
  /// Tensor values and the HBM buffers holding them.
  IRMapping buffers;

  LogicalResult lowerFunction(func::FuncOp func) {
    if (!func.getBody().hasOneBlock())
      return func.emitError() << "tpu-lower-to-mxu: the entry must be a "
                                 "single block (no control flow)";
    Block &body = func.getBody().front();
    FunctionType type = func.getFunctionType();
    SmallVector<Type> argTypes, resultTypes;
    for (auto [index, argType] : llvm::enumerate(type.getInputs())) {
      if (failed(checkBoundaryType(func, argType, "argument", index)))
        return failure();
      argTypes.push_back(hbmType(cast<ShapedType>(argType)));
    }
    for (auto [index, resultType] : llvm::enumerate(type.getResults())) {
      if (failed(checkBoundaryType(func, resultType, "result", index)))
        return failure();
      resultTypes.push_back(hbmType(cast<ShapedType>(resultType)));
    }
    // The buffers go after the tensors, which are erased at the end.
    for (auto [index, newType] : llvm::enumerate(argTypes)) {
      BlockArgument arg = body.getArgument(index);
      buffers.map(arg, body.addArgument(newType, arg.getLoc()));
    }

    // Leftovers of the front end (the zero fill a converted matmul no longer
    // reads) compute nothing anyone uses.
    SmallVector<Operation *> ops;
    for (Operation &op : body.without_terminator())
      ops.push_back(&op);
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();

    int64_t usefulMacs = 0;
    SmallVector<Operation *> lowered;
    for (Operation &op : body.without_terminator()) {
      OpBuilder builder(&op);
      KernelBuilder kb{builder, op.getLoc()};
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(&op)
              .Case([&](MatmulPassesOp op) {
                if (auto macs = op->getAttrOfType<IntegerAttr>(
                        TPUDialect::getUsefulMacsAttrName()))
                  usefulMacs += macs.getInt();
                return lowerMatmul(kb, op);
              })
              .Case([&](SplitOp op) {
                return lowerSplit(kb, op.getInput(), op.getParts(),
                                  op.getRounding());
              })
              .Case([&](arith::TruncFOp op) -> LogicalResult {
                if (!isF32ToBF16(op.getIn().getType(), op.getType()))
                  return op.emitError() << "tpu-lower-to-mxu: only f32 to "
                                           "bf16 truncation is supported";
                return lowerSplit(kb, op.getIn(), op->getResults(),
                                  Rounding::NearestEven);
              })
              .Case([&](arith::ExtFOp op) -> LogicalResult {
                if (!isF32ToBF16(op.getType(), op.getIn().getType()))
                  return op.emitError() << "tpu-lower-to-mxu: only bf16 to "
                                           "f32 extension is supported";
                // bf16 is kept one value per 32-bit word, as the f32 with
                // the same value: extending it is free.
                buffers.map(
                    op.getResult(),
                    TiledViewOp::create(kb.b, kb.loc,
                                        hbmType(cast<ShapedType>(op.getType())),
                                        lookup(op.getIn())));
                return success();
              })
              .Case([&](tensor::PadOp op) { return lowerPad(kb, op); })
              .Case([&](tensor::ExpandShapeOp op) {
                return lowerReshape(kb, op, op.getSrc(), op.getResult());
              })
              .Case([&](tensor::CollapseShapeOp op) {
                return lowerReshape(kb, op, op.getSrc(), op.getResult());
              })
              .Case(
                  [&](tensor::ExtractSliceOp op) { return lowerSlice(kb, op); })
              .Case([&](arith::ConstantOp op) -> LogicalResult {
                if (llvm::isa<TensorType>(op.getType()))
                  return op.emitError()
                         << "tpu-lower-to-mxu: tensor constants are not "
                            "supported yet; pass the values as an argument";
                return success(); // scalars (padding values) fold away
              })
              .Default([&](Operation *op) -> LogicalResult {
                return op->emitError()
                       << "tpu-lower-to-mxu: cannot compile '" << op->getName()
                       << "' for the TPU; supported are the ops "
                          "tpu-convert-linalg, tpu-pad-to-tiles and "
                          "tpu-expand-precision produce";
              });
      if (failed(result))
        return failure();
      lowered.push_back(&op);
    }

    auto ret = cast<func::ReturnOp>(body.getTerminator());
    SmallVector<Value> results;
    for (Value value : ret.getOperands())
      results.push_back(lookup(value));
    OpBuilder builder(ret);
    func::ReturnOp::create(builder, ret.getLoc(), results);
    ret.erase();
    for (Operation *op : llvm::reverse(lowered)) {
      op->dropAllUses();
      op->erase();
    }
    body.eraseArguments(0, type.getNumInputs());
    func.setType(FunctionType::get(func.getContext(), argTypes, resultTypes));
    func->setAttr(TPUDialect::getUsefulMacsAttrName(),
                  builder.getI64IntegerAttr(usefulMacs));
    return success();
  }

  static LogicalResult checkBoundaryType(func::FuncOp func, Type type,
                                         StringRef what, size_t index) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return func.emitError()
             << "tpu-lower-to-mxu: " << what << " " << index << " of @"
             << func.getName() << " has type " << type
             << "; the TPU takes statically shaped tensors";
    if (!tensor.getElementType().isF32())
      return func.emitError()
             << "tpu-lower-to-mxu: " << what << " " << index << " of @"
             << func.getName() << " is " << type
             << "; the runtime moves f32 tensors (.npy has no bf16): use "
                "f32 and convert inside the function with arith.truncf";
    return success();
  }

  static bool isF32ToBF16(Type wide, Type narrow) {
    return getElementTypeOrSelf(wide).isF32() &&
           getElementTypeOrSelf(narrow).isBF16();
  }

  Value lookup(Value tensor) { return buffers.lookup(tensor); }

  Value allocHbm(KernelBuilder &kb, Value tensor) {
    Value buffer = memref::AllocOp::create(
        kb.b, kb.loc, hbmType(cast<ShapedType>(tensor.getType())));
    buffers.map(tensor, buffer);
    return buffer;
  }

  //===--------------------------------------------------------------------===//
  // Layout changes: zero padding and slicing back
  //===--------------------------------------------------------------------===//

  /// `result` is `source` with rows or columns added or dropped at the high
  /// end. When both have the same tiles, the buffer is shared: the tiled
  /// image already holds the zero padding (the runtime writes it, and
  /// kernels compute zeros there). Otherwise whole row tiles are copied.
  LogicalResult relayout(KernelBuilder &kb, Operation *op, Value source,
                         Value result) {
    TiledShape from = tiledShapeOf(source.getType());
    TiledShape to = tiledShapeOf(result.getType());
    if (from.batch != to.batch || from.colTiles() != to.colTiles())
      return op->emitError()
             << "tpu-lower-to-mxu: can only pad or slice rows and the "
                "columns inside the last (8,128) tile, from "
             << source.getType() << " to " << result.getType();
    if (from.rowTiles() == to.rowTiles()) {
      Value buffer = lookup(source);
      MemRefType type = hbmType(cast<ShapedType>(result.getType()));
      if (buffer.getType() != type)
        buffer = TiledViewOp::create(kb.b, kb.loc, type, buffer);
      buffers.map(result, buffer);
      return success();
    }
    int64_t cols = to.colTiles();
    if (cols * kTileRows > kVmemRows)
      return op->emitError() << "tpu-lower-to-mxu: rows of " << cols
                             << " tiles do not fit VMEM";
    Value src = lookup(source), dst = allocHbm(kb, result);
    int64_t rows = std::min(from.rowTiles(), to.rowTiles());
    Value staging = kb.vmem(cols * kTileRows);
    Value count = kb.c(cols), one = kb.c(1), zero = kb.c(0);
    kb.loop(from.batch, 1, [&](Value batch) {
      kb.loop(rows, 1, [&](Value row) {
        Value srcTile =
            kb.mul(kb.add(kb.mul(batch, from.rowTiles()), row), cols);
        Value dstTile = kb.mul(kb.add(kb.mul(batch, to.rowTiles()), row), cols);
        kb.dmaLoad(src, srcTile, one, staging, zero, count, kLoadSem);
        kb.wait(kLoadSem, 1);
        kb.dmaStore(staging, zero, dst, dstTile, one, count, kStoreSem);
        kb.wait(kStoreSem, 1);
      });
    });
    kb.free(staging);
    return success();
  }

  LogicalResult lowerPad(KernelBuilder &kb, tensor::PadOp op) {
    if (!matchPattern(op.getConstantPaddingValue(), m_AnyZeroFloat()) ||
        !llvm::all_of(op.getStaticLow(), [](int64_t x) { return x == 0; }))
      return op.emitError() << "tpu-lower-to-mxu: only zero padding at the "
                               "high end (what tpu-pad-to-tiles adds) is "
                               "supported";
    return relayout(kb, op, op.getSource(), op.getResult());
  }

  LogicalResult lowerSlice(KernelBuilder &kb, tensor::ExtractSliceOp op) {
    if (!op.hasZeroOffset() || !op.hasUnitStride() ||
        op.getSourceType().getRank() != op.getResultType().getRank())
      return op.emitError() << "tpu-lower-to-mxu: only slices from the "
                               "origin with unit strides (what "
                               "tpu-pad-to-tiles adds) are supported";
    return relayout(kb, op, op.getSource(), op.getResult());
  }

  //===--------------------------------------------------------------------===//
  // Vectors and columns
  //===--------------------------------------------------------------------===//

  /// A rank-1 tensor of n elements is laid out as one row of lanes (1 x n);
  /// the n x 1 matrix a matrix-vector product multiplies by is one lane of
  /// rows. Reshaping between them moves every element: each 128 elements
  /// are one 128 x 128 transpose on the XLU. Other reshapes are supported
  /// when they keep the tiled image.
  LogicalResult lowerReshape(KernelBuilder &kb, Operation *op, Value source,
                             Value result) {
    auto from = cast<RankedTensorType>(source.getType());
    auto to = cast<RankedTensorType>(result.getType());
    bool toColumn =
        from.getRank() == 1 && to.getRank() == 2 && to.getDimSize(1) == 1;
    bool toVector =
        from.getRank() == 2 && from.getDimSize(1) == 1 && to.getRank() == 1;
    TiledShape fromTiles = tiledShapeOf(from), toTiles = tiledShapeOf(to);
    if (!toColumn && !toVector) {
      if (fromTiles.batch == toTiles.batch && fromTiles.rows == toTiles.rows &&
          fromTiles.cols == toTiles.cols) {
        buffers.map(result, TiledViewOp::create(kb.b, kb.loc, hbmType(to),
                                                lookup(source)));
        return success();
      }
      return op->emitError()
             << "tpu-lower-to-mxu: cannot reshape " << from << " to " << to
             << ": only reshapes that keep the (8,128) tiles, and between a "
                "vector and a column (as linalg.matvec uses), are supported";
    }
    Value src = lookup(source), dst = allocHbm(kb, result);
    int64_t elements = toColumn ? from.getDimSize(0) : to.getDimSize(0);
    int64_t blocks = (elements + kMxuDim - 1) / kMxuDim;
    int64_t columnTiles = (elements + kTileRows - 1) / kTileRows;
    int64_t tilesPerBlock = kMxuDim / kTileRows;
    Value in = kb.vmem(kMxuDim), out = kb.vmem(kMxuDim);
    Value zero = kb.c(0), one = kb.c(1);
    Value zeros = arith::ConstantOp::create(
        kb.b, kb.loc, DenseElementsAttr::get(kb.vregType(), 0.0f));
    // Rows of `in` no DMA writes must be zero: they become the lanes of the
    // block that hold no element.
    auto clear = [&](int64_t firstTile) {
      kb.loop(kb.c(firstTile), kb.c(tilesPerBlock), 1, [&](Value tile) {
        kb.store(zeros, in, kb.mul(tile, kTileRows));
      });
    };
    if (toColumn)
      clear(1);
    kb.loop(blocks, 1, [&](Value block) {
      Value firstColumnTile = kb.mul(block, tilesPerBlock);
      Value count =
          kb.min(kb.sub(kb.c(columnTiles), firstColumnTile), tilesPerBlock);
      if (toColumn)
        kb.dmaLoad(src, block, one, in, zero, one, kLoadSem);
      else {
        clear(0);
        kb.dmaLoad(src, firstColumnTile, one, in, zero, count, kLoadSem);
      }
      kb.wait(kLoadSem, 1);
      TransposeBlockOp::create(kb.b, kb.loc, in, zero, out, zero);
      if (toColumn)
        kb.dmaStore(out, zero, dst, firstColumnTile, one, count, kStoreSem);
      else
        kb.dmaStore(out, zero, dst, block, one, one, kStoreSem);
      kb.wait(kStoreSem, 1);
    });
    kb.free({in, out});
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Elementwise on the VPU: bf16 splits and rounding
  //===--------------------------------------------------------------------===//

  /// x rounded to bf16 by `rounding`; with nearest-even, a finite x that
  /// would round up to inf is truncated instead (DESIGN.md 4's FLT_MAX
  /// guard), so hi stays finite and x - hi exact.
  Value roundHi(KernelBuilder &kb, Value x, Rounding rounding) {
    Value rounded = kb.round(x, rounding);
    if (rounding == Rounding::Truncate)
      return rounded; // truncation never overflows
    Value truncated = kb.round(x, Rounding::Truncate);
    // v - v is NaN exactly when v is inf or NaN.
    auto nonFinite = [&](Value v) -> Value {
      Value diff = arith::SubFOp::create(kb.b, kb.loc, v, v);
      return arith::CmpFOp::create(kb.b, kb.loc, arith::CmpFPredicate::UNE,
                                   diff, diff);
    };
    Value overflowed = arith::SelectOp::create(kb.b, kb.loc, nonFinite(rounded),
                                               truncated, rounded);
    return arith::SelectOp::create(kb.b, kb.loc, nonFinite(x), rounded,
                                   overflowed);
  }

  /// The parts of one vector: 1 (a plain rounding), 2 (hi, lo) or 3 (hi,
  /// mid, lo).
  SmallVector<Value, 3> splitVector(KernelBuilder &kb, Value x, size_t parts,
                                    Rounding rounding) {
    if (parts == 1)
      return {kb.round(x, rounding)};
    Value hi = roundHi(kb, x, rounding);
    Value rest = arith::SubFOp::create(kb.b, kb.loc, x, hi);
    Value next = kb.round(rest, rounding);
    if (parts == 2)
      return {hi, next};
    Value rest2 = arith::SubFOp::create(kb.b, kb.loc, rest, next);
    return {hi, next, kb.round(rest2, rounding)};
  }

  LogicalResult lowerSplit(KernelBuilder &kb, Value input, ValueRange parts,
                           Rounding rounding) {
    Value src = lookup(input);
    SmallVector<Value, 3> outs;
    for (Value part : parts)
      outs.push_back(allocHbm(kb, part));
    int64_t tiles = tiledShapeOf(input.getType()).numTiles();
    int64_t chunk = std::min(tiles, kElementwiseChunkTiles);
    Value in = kb.vmem(chunk * kTileRows);
    SmallVector<Value, 3> staging;
    for (size_t i = 0; i < outs.size(); ++i)
      staging.push_back(kb.vmem(chunk * kTileRows));
    Value one = kb.c(1), zero = kb.c(0);
    kb.loop(tiles, chunk, [&](Value first) {
      Value count = kb.min(kb.sub(kb.c(tiles), first), chunk);
      kb.dmaLoad(src, first, one, in, zero, count, kLoadSem);
      kb.wait(kLoadSem, 1);
      kb.loop(zero, count, 1, [&](Value tile) {
        Value row = kb.mul(tile, kTileRows);
        SmallVector<Value, 3> values =
            splitVector(kb, kb.load(in, row), outs.size(), rounding);
        for (auto [value, buffer] : llvm::zip(values, staging))
          kb.store(value, buffer, row);
      });
      for (auto [buffer, out] : llvm::zip(staging, outs))
        kb.dmaStore(buffer, zero, out, first, one, count, kStoreSem);
      kb.wait(kStoreSem, int64_t(outs.size()));
    });
    kb.free(in);
    kb.free(staging);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Matmul on the MXUs
  //===--------------------------------------------------------------------===//

  /// Weight-stationary: for each chunk of LHS row blocks and each group of
  /// one 128-column block per MXU, every term runs the K tiles in order:
  /// DMA the next K tile's LHS column and weight blocks (double-buffered),
  /// latch the weights, and push every row block of the chunk through every
  /// MXU into its result slot. The epilogue pops the slots, fixes NaNs in
  /// the small-term group, adds the main group and the accumulator, and DMAs
  /// the result blocks out.
  LogicalResult lowerMatmul(KernelBuilder &kb, MatmulPassesOp op) {
    auto resultType = cast<RankedTensorType>(op.getType());
    TiledShape lhs = tiledShapeOf(op.getLhs()[0].getType());
    TiledShape rhs = tiledShapeOf(op.getRhs()[0].getType());
    TiledShape out = tiledShapeOf(resultType);
    if (lhs.cols % kMxuDim != 0 || rhs.cols % kLanes != 0 ||
        lhs.rows % kSublanes != 0)
      return op.emitError()
             << "tpu-lower-to-mxu: operands must be padded to whole tiles "
                "(run tpu-pad-to-tiles first), got "
             << op.getLhs()[0].getType() << " x " << op.getRhs()[0].getType();
    int64_t rowBlocks = lhs.rowTiles(), kTiles = lhs.colTiles(),
            nBlocks = rhs.colTiles();
    size_t terms = op.getLhs().size();
    int64_t nanFixed = op.getNanFixedTerms();
    int64_t groups = nanFixed > 0 ? 2 : 1;

    // Chunk of row blocks: as many as the result slots hold, halved until
    // the working set fits VMEM.
    int64_t chunk = std::min(rowBlocks, kResultSlots / groups);
    bool hasAcc = bool(op.getAcc());
    auto vmemRows = [&](int64_t blocks) {
      int64_t perMxu = blocks * kTileRows * (hasAcc ? 2 : 1);
      return 2 * blocks * kTileRows + 2 * mxus * kWeightRows + mxus * perMxu;
    };
    while (vmemRows(chunk) > kVmemRows && chunk > 1)
      chunk /= 2;
    if (vmemRows(chunk) > kVmemRows)
      return op.emitError() << "tpu-lower-to-mxu: the matmul's working set "
                               "does not fit VMEM";
    int64_t chunkRows = chunk * kTileRows;
    int64_t mainSlots = groups == 2 ? chunk : 0;

    SmallVector<Value> lhsBuffers, rhsBuffers;
    for (Value v : op.getLhs())
      lhsBuffers.push_back(lookup(v));
    for (Value v : op.getRhs())
      rhsBuffers.push_back(lookup(v));
    Value acc = hasAcc ? lookup(op.getAcc()) : Value();
    TiledShape accShape =
        hasAcc ? tiledShapeOf(op.getAcc().getType()) : TiledShape();
    Value result = allocHbm(kb, op.getResult());

    Value lhsVmem = kb.vmem(2 * chunkRows);
    Value rhsVmem = kb.vmem(2 * mxus * kWeightRows);
    Value outVmem = kb.vmem(mxus * chunkRows);
    Value accVmem = hasAcc ? kb.vmem(mxus * chunkRows) : Value();

    Value zero = kb.c(0), one = kb.c(1), eight = kb.c(kTileRows);
    Value nBlocksV = kb.c(nBlocks), kTilesV = kb.c(kTiles);
    kb.loop(lhs.batch, 1, [&](Value batch) {
      Value lhsBatch = kb.mul(batch, lhs.tilesPerBatch());
      Value rhsBatch = kb.mul(batch, rhs.tilesPerBatch());
      Value outBatch = kb.mul(batch, out.tilesPerBatch());
      kb.loop(rowBlocks, chunk, [&](Value row0) {
        Value blocks = kb.min(kb.sub(kb.c(rowBlocks), row0), chunk);
        kb.loop(nBlocks, mxus, [&](Value col0) {
          for (size_t term = 0; term < terms; ++term) {
            bool firstOfGroup = term == 0 || int64_t(term) == nanFixed;
            int64_t slotBase = int64_t(term) < nanFixed ? 0 : mainSlots;
            // DMAs of K tile `k` into buffer half `half`.
            auto issueLoads = [&](Value k, Value half) {
              Value lhsTile =
                  kb.add(kb.add(lhsBatch, kb.mul(row0, lhs.colTiles())), k);
              kb.dmaLoad(lhsBuffers[term], lhsTile, kb.c(lhs.colTiles()),
                         lhsVmem, kb.mul(half, chunkRows), blocks, kLoadSem);
              for (unsigned m = 0; m < mxus; ++m) {
                Value col = kb.add(col0, m);
                // An MXU past the last column block moves nothing, so the
                // wait below counts the same transfers every time.
                Value count = kb.select(kb.lessThan(col, nBlocksV),
                                        kb.c(kMxuDim / kTileRows), zero);
                Value rhsTile =
                    kb.add(kb.add(rhsBatch, kb.mul(k, (kMxuDim / kTileRows) *
                                                          rhs.colTiles())),
                           col);
                Value row =
                    kb.add(kb.mul(half, mxus * kWeightRows), m * kWeightRows);
                kb.dmaLoad(rhsBuffers[term], rhsTile, kb.c(rhs.colTiles()),
                           rhsVmem, row, count, kLoadSem);
              }
            };
            issueLoads(zero, zero);
            kb.loop(kTiles, 1, [&](Value k) {
              Value half = arith::AndIOp::create(kb.b, kb.loc, k, one);
              Value next = kb.add(k, 1);
              kb.ifThen(kb.lessThan(next, kTilesV),
                        [&] { issueLoads(next, kb.sub(one, half)); });
              kb.wait(kLoadSem, 1 + mxus);
              for (unsigned m = 0; m < mxus; ++m)
                MxuLoadWeightsOp::create(
                    kb.b, kb.loc, rhsVmem,
                    kb.add(kb.mul(half, mxus * kWeightRows), m * kWeightRows),
                    eight, m);
              Value lhsRow = kb.mul(half, chunkRows);
              auto pushAll = [&](bool accumulate) {
                kb.loop(zero, blocks, 1, [&](Value block) {
                  Value rows = kb.load(
                      lhsVmem, kb.add(lhsRow, kb.mul(block, kTileRows)));
                  Value slot = kb.add(block, slotBase);
                  for (unsigned m = 0; m < mxus; ++m)
                    MxuPushOp::create(kb.b, kb.loc, rows, slot, m, accumulate);
                });
              };
              if (!firstOfGroup)
                return pushAll(true);
              Value isFirst = arith::CmpIOp::create(
                  kb.b, kb.loc, arith::CmpIPredicate::eq, k, zero);
              kb.ifThen(
                  isFirst, [&] { pushAll(false); }, [&] { pushAll(true); });
            });
          }
          emitEpilogue(kb, nanFixed > 0, mainSlots, col0, nBlocksV, blocks,
                       row0, batch, chunkRows, outVmem, accVmem, acc, accShape,
                       result, out, outBatch);
        });
      });
    });
    kb.free({lhsVmem, rhsVmem, outVmem});
    if (accVmem)
      kb.free(accVmem);
    return success();
  }

  void emitEpilogue(KernelBuilder &kb, bool fixNaN, int64_t mainSlots,
                    Value col0, Value nBlocksV, Value blocks, Value row0,
                    Value batch, int64_t chunkRows, Value outVmem,
                    Value accVmem, Value acc, TiledShape accShape, Value result,
                    TiledShape out, Value outBatch) {
    Value zero = kb.c(0);
    for (unsigned m = 0; m < mxus; ++m) {
      Value col = kb.add(col0, m);
      Value active = kb.lessThan(col, nBlocksV);
      Value stagingRow = kb.c(m * chunkRows);
      kb.ifThen(active, [&] {
        if (acc) {
          Value accTile = kb.add(kb.add(kb.mul(batch, accShape.tilesPerBatch()),
                                        kb.mul(row0, accShape.colTiles())),
                                 col);
          kb.dmaLoad(acc, accTile, kb.c(accShape.colTiles()), accVmem,
                     stagingRow, blocks, kAccSem);
          kb.wait(kAccSem, 1);
        }
        kb.loop(zero, blocks, 1, [&](Value block) {
          Value value = MxuPopOp::create(kb.b, kb.loc, kb.vregType(),
                                         kb.add(block, mainSlots), m);
          if (fixNaN) {
            Value small =
                MxuPopOp::create(kb.b, kb.loc, kb.vregType(), block, m);
            Value isNaN = arith::CmpFOp::create(
                kb.b, kb.loc, arith::CmpFPredicate::UNE, small, small);
            Value zeros = arith::ConstantOp::create(
                kb.b, kb.loc, DenseElementsAttr::get(kb.vregType(), 0.0f));
            small = arith::SelectOp::create(kb.b, kb.loc, isNaN, zeros, small);
            value = arith::AddFOp::create(kb.b, kb.loc, small, value);
          }
          Value row = kb.add(stagingRow, kb.mul(block, kTileRows));
          if (acc)
            value = arith::AddFOp::create(kb.b, kb.loc, value,
                                          kb.load(accVmem, row));
          kb.store(value, outVmem, row);
        });
      });
      Value count = kb.select(active, blocks, zero);
      Value outTile =
          kb.add(kb.add(outBatch, kb.mul(row0, out.colTiles())), col);
      kb.dmaStore(outVmem, stagingRow, result, outTile, kb.c(out.colTiles()),
                  count, kStoreSem);
    }
    kb.wait(kStoreSem, mxus);
  }
};

struct LowerToMXUPass : public tpu::impl::TPULowerToMXUBase<LowerToMXUPass> {
  using TPULowerToMXUBase::TPULowerToMXUBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = module.lookupSymbol<func::FuncOp>(entryName);
    if (!entry) {
      module.emitError() << "tpu-lower-to-mxu: no func.func @" << entryName
                         << " to compile (name the entry with entry=NAME)";
      return signalPassFailure();
    }
    if (!chipName.empty()) {
      std::optional<ChipKind> chip = lookupChip(chipName);
      if (!chip) {
        module.emitError() << "tpu-lower-to-mxu: unknown chip '" << chipName
                           << "'; expected v2, v3 or v4";
        return signalPassFailure();
      }
      auto declared =
          module->getAttrOfType<ChipAttr>(TPUDialect::getChipAttrName());
      if (declared && declared.getKind() != *chip) {
        module.emitError() << "tpu-lower-to-mxu: the module is for "
                           << getChipInfo(declared.getKind()).name
                           << " (tpu.chip) but chip=" << chipName
                           << " was asked for; drop one of them";
        return signalPassFailure();
      }
      module->setAttr(TPUDialect::getChipAttrName(),
                      ChipAttr::get(module.getContext(), *chip));
    }
    EntryLowering lowering;
    lowering.mxus = getChipInfo(getChipOf(module)).mxusPerCore;
    if (failed(lowering.lowerFunction(entry)))
      return signalPassFailure();
  }
};

} // namespace
