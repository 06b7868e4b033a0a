//===- WindowsKernel.cpp - tpu.windows by strided vector loads ------------===//
//
// For each image n, output row oh and window row kh, the source image row
// h = oh sh + kh dh - top is DMAed into VMEM, one slab per channel tile:
// the row's columns are the slab's rows, with `left` rows of the pad value
// before them and enough after them for every read. (A row h outside the
// image reads a slab of the pad value instead.) Then each output tile's
// eight columns for window column kw are one v.ld with a sublane stride of
// sw from slab row (first column of the tile) sw + kw dw, stored to a
// staging buffer where the layout wants it and DMAed out: with the taps
// leading, a run of the tiles of each kw; with the taps in lanes, a run of
// the tiles of each output column tile. A row's stores are waited for
// when the next row is about to write the staging buffer.
//
// The pad value is kept out of padding lanes (they stay the source's) and
// the rows past the output's width are zero.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tpu;

FailureOr<scf::ForOp> tpu::lowerWindows(RewriterBase &rewriter, WindowsOp op) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  ArrayRef<int64_t> source =
      cast<ShapedType>(op.getSource().getType()).getShape();
  int64_t n = source[0], h = source[1], w = source[2], c = source[3];
  int64_t kh = op.getWindow()[0], kw = op.getWindow()[1];
  int64_t sh = op.getStrides()[0], sw = op.getStrides()[1];
  int64_t dh = op.getDilations()[0], dw = op.getDilations()[1];
  int64_t top = op.getPadding()[0], left = op.getPadding()[2];
  auto size = *WindowsOp::getOutputSize(source, op.getWindow(), op.getStrides(),
                                        op.getDilations(), op.getPadding());
  int64_t oh = size[0], ow = size[1];
  constexpr int64_t kRows = kSublanes;
  int64_t wTiles = llvm::divideCeil(w, kRows);
  int64_t owTiles = llvm::divideCeil(ow, kRows);
  int64_t cTiles = llvm::divideCeil(c, int64_t(kLanes));
  int64_t cLanes = c % int64_t(kLanes);
  bool leading = op.hasLeadingTaps();

  // A slab: the pad value, the image row from a tile boundary, the pad
  // value up to the last row a read reaches.
  int64_t imageRow = llvm::alignTo(left, kRows);
  int64_t firstRead = imageRow - left;
  int64_t lastRead = firstRead + (owTiles * kRows - 1) * sw + (kw - 1) * dw;
  int64_t slabRows =
      llvm::alignTo(std::max(imageRow + wTiles * kRows, lastRead + 1), kRows);
  // The image's channel-tile slabs, then the pad-value slabs for a row
  // outside the image: one of whole tiles, one for a partial last channel
  // tile (its padding lanes zero).
  int64_t fillSlab = cTiles * slabRows;
  int64_t partialFillSlab = fillSlab + slabRows;
  int64_t stagingTiles = kw * owTiles * cTiles;
  if ((cTiles + 2) * slabRows + stagingTiles * kRows > kVmemRows)
    return op.emitError() << "tpu-lower-to-mxu: the windows of an image row "
                             "of "
                          << op.getSource().getType()
                          << " do not fit VMEM; use narrower images";

  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  Value slabs = b.allocVmem((cTiles + 2) * slabRows);
  Value staging = b.allocVmem(stagingTiles * kRows);
  Value zero = b.index(0), one = b.index(1);
  Value zeros = b.splat(0.0f);
  Value padValue = b.splat(op.getPadValue().convertToFloat());
  Value partialPadValue =
      cLanes ? b.keepLanes(padValue, cLanes, zeros) : padValue;
  auto padValueOf = [&](bool partial) {
    return partial ? partialPadValue : padValue;
  };
  // Rows [first, last) of the slab at `base` set to `value`.
  auto fillRows = [&](Value value, Value base, int64_t first, int64_t last) {
    if (first >= last)
      return;
    Value end = b.index(last);
    Value begin = b.index(first);
    b.forLoop(begin, end, kRows,
              [&](Value row) { b.store(value, slabs, b.add(base, row)); });
  };
  // What no DMA writes: around each image slab, and the pad-value slabs.
  b.forEachTile(cTiles, cLanes != 0, [&](Value ct, bool partial) {
    Value base = b.mul(ct, slabRows);
    fillRows(padValueOf(partial), base, 0, imageRow);
    fillRows(padValueOf(partial), base, imageRow + wTiles * kRows, slabRows);
  });
  // Rows outside the image exist only with padding above or below.
  bool rowsOutside = top > 0 || op.getPadding()[1] > 0;
  if (rowsOutside) {
    fillRows(padValue, b.index(fillSlab), 0, slabRows);
    fillRows(partialPadValue, b.index(partialFillSlab), 0, slabRows);
  }

  int64_t taps = kh * kw;
  // The staging buffer's DMAs out per image row.
  int64_t storesPerRow = leading ? kw : owTiles;
  scf::ForOp loop = b.forEachIndex({n, oh, kh}, [&](ArrayRef<Value> index) {
    Value image = index[0], outRow = index[1], tapRow = index[2];
    Value tapOffset = b.mul(tapRow, dh);
    Value outOffset = b.mul(outRow, sh);
    Value row = b.add(b.add(outOffset, tapOffset), -top);
    // Whether the row is in the image: 0 <= row < h.
    Value isInImage;
    if (rowsOutside) {
      Value minusOne = b.index(-1);
      Value notAbove = b.select(b.lessThan(minusOne, row), one, zero);
      Value height = b.index(h);
      Value inImage = b.select(b.lessThan(row, height), notAbove, zero);
      isInImage = b.lessThan(zero, inImage);
    }
    auto loadRow = [&] {
      Value firstTile = b.mul(b.add(b.mul(image, h), row), wTiles * cTiles);
      b.forLoop(cTiles, 1, [&](Value ct) {
        Value count = b.index(wTiles);
        Value slabRow = b.add(b.mul(ct, slabRows), imageRow);
        Value stride = b.index(cTiles);
        Value tile = b.add(firstTile, ct);
        b.dmaLoad(op.getSource(), tile, stride, slabs, slabRow, count,
                  kLoadSem);
      });
      b.wait(kLoadSem, cTiles);
      // The source's padding columns read as the pad value.
      if (w % kRows != 0)
        b.forEachTile(cTiles, cLanes != 0, [&](Value ct, bool partial) {
          Value last =
              b.add(b.mul(ct, slabRows), imageRow + (wTiles - 1) * kRows);
          b.storeRows(b.load(slabs, last), w % kRows, padValueOf(partial),
                      slabs, last);
        });
    };
    if (rowsOutside)
      b.ifThen(isInImage, loadRow);
    else
      loadRow();
    // The row before's stores read the staging buffer: waited for only
    // now, their latency behind this row's load (which, in the one DMA
    // queue, went out after them).
    b.ifThen(b.lessThan(zero, b.add(b.add(image, outRow), tapRow)),
             [&] { b.wait(kStoreSem, storesPerRow); });
    b.forLoop(kw, 1, [&](Value tapCol) {
      b.forEachTile(cTiles, cLanes != 0, [&](Value ct, bool partial) {
        Value slab = b.mul(ct, slabRows);
        if (rowsOutside)
          slab = b.select(isInImage, slab,
                          b.index(partial ? partialFillSlab : fillSlab));
        Value tapRead = b.add(b.add(slab, b.mul(tapCol, dw)), firstRead);
        b.forEachTile(owTiles, ow % kRows != 0, [&](Value owt, bool last) {
          Value value = VectorLoadOp::create(
              b, b.vregType(), slabs, b.add(tapRead, b.mul(owt, kRows * sw)),
              sw);
          Value tile =
              leading ? b.add(b.mul(b.add(b.mul(tapCol, owTiles), owt), cTiles),
                              ct)
                      : b.add(b.mul(b.add(b.mul(owt, kw), tapCol), cTiles), ct);
          b.storeRows(value, last ? ow % kRows : kRows, zeros, staging,
                      b.mul(tile, kRows));
        });
      });
    });
    // The staged tiles out, each run contiguous in HBM.
    if (leading) {
      b.forLoop(kw, 1, [&](Value tapCol) {
        Value matrix = b.add(
            b.mul(b.add(b.mul(b.add(b.mul(tapRow, kw), tapCol), n), image), oh),
            outRow);
        Value count = b.index(owTiles * cTiles);
        Value tile = b.mul(matrix, owTiles * cTiles);
        Value stagingRow = b.mul(tapCol, owTiles * cTiles * kRows);
        b.dmaStore(staging, stagingRow, op.getOuts(), tile, one, count,
                   kStoreSem);
      });
    } else {
      b.forLoop(owTiles, 1, [&](Value owt) {
        Value rowTile = b.add(b.mul(b.add(b.mul(image, oh), outRow), owTiles),
                              owt);
        Value tapTile = b.mul(tapRow, kw * cTiles);
        Value tile = b.add(b.mul(rowTile, taps * cTiles), tapTile);
        Value count = b.index(kw * cTiles);
        Value stagingRow = b.mul(owt, kw * cTiles * kRows);
        b.dmaStore(staging, stagingRow, op.getOuts(), tile, one, count,
                   kStoreSem);
      });
    }
  });
  // The last row's stores.
  b.wait(kStoreSem, storesPerRow);
  b.dealloc({slabs, staging});
  rewriter.eraseOp(op);
  return loop;
}
