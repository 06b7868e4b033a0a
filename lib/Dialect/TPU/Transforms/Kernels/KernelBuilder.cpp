//===- KernelBuilder.cpp - What the kernels are built from ----------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tpu/Support/TiledLayout.h"

#include <functional>

using namespace mlir;
using namespace tpu;

Value KernelBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(*this, value);
}

Value KernelBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(*this, x, y);
}

Value KernelBuilder::add(Value x, int64_t y) {
  return y == 0 ? x : add(x, index(y));
}

Value KernelBuilder::sub(Value x, Value y) {
  return arith::SubIOp::create(*this, x, y);
}

Value KernelBuilder::mul(Value x, int64_t y) {
  return y == 1 ? x : arith::MulIOp::create(*this, x, index(y)).getResult();
}

Value KernelBuilder::min(Value x, Value y) {
  return arith::MinSIOp::create(*this, x, y);
}

Value KernelBuilder::min(Value x, int64_t y) { return min(x, index(y)); }

Value KernelBuilder::lessThan(Value x, Value y) {
  return arith::CmpIOp::create(*this, arith::CmpIPredicate::slt, x, y);
}

Value KernelBuilder::select(Value cond, Value x, Value y) {
  return arith::SelectOp::create(*this, cond, x, y);
}

scf::ForOp KernelBuilder::forLoop(Value lb, Value ub, int64_t step,
                                  function_ref<void(Value)> body) {
  Value stepValue = index(step);
  OpBuilder::InsertionGuard guard(*this);
  scf::LoopNest nest =
      scf::buildLoopNest(*this, getLoc(), lb, ub, stepValue,
                         [&](OpBuilder &nested, Location, ValueRange ivs) {
                           OpBuilder::InsertionGuard bodyGuard(*this);
                           setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                           body(ivs.front());
                         });
  return nest.loops.front();
}

scf::ForOp KernelBuilder::forLoop(int64_t ub, int64_t step,
                                  function_ref<void(Value)> body) {
  Value lb = index(0);
  return forLoop(lb, index(ub), step, body);
}

Value KernelBuilder::forLoopUnrolled(Value count, int64_t unroll,
                                     function_ref<void(Value, int64_t)> body,
                                     function_ref<void()> between,
                                     int64_t lastIterations, int64_t scale,
                                     Value origin) {
  Value iterations = divide(count, unroll);
  Value unrolledEnd = mul(iterations, unroll);
  auto unrolled = [&](Value iv) { body(iv, unroll); };
  auto fromOrigin = [&](Value bound) {
    return origin ? add(origin, bound) : bound;
  };
  // Scaled bounds are one multiply of what the unscaled ones are made
  // from: tpu-canonicalize folds only the ops it was given, so where the
  // count becomes a constant late (a loop around that ran once), a
  // multiply of a multiply, which it would merge into a new op, would
  // stay, and so would a loop that never runs.
  Value start = origin ? origin : index(0);
  Value splitScaled = start;
  if (between) {
    Value tail = min(unrolledEnd, lastIterations * unroll);
    Value split = sub(unrolledEnd, tail);
    Value splitEnd = fromOrigin(mul(split, scale));
    forLoop(start, splitEnd, unroll * scale, unrolled);
    splitScaled = splitEnd;
    between();
  }
  Value end =
      fromOrigin(scale == 1 ? unrolledEnd : mul(iterations, unroll * scale));
  forLoop(splitScaled, end, unroll * scale, unrolled);
  // From an origin, the left-over blocks' end is made from the unrolled
  // part's: where the unroll divides a count that folds late, the bounds
  // are then one value, and the loop that never runs goes.
  Value countEnd = origin ? add(end, mul(sub(count, unrolledEnd), scale))
                          : mul(count, scale);
  forLoop(end, countEnd, scale, [&](Value iv) { body(iv, 1); });
  return unrolledEnd;
}

scf::ForOp KernelBuilder::forEachChunk(int64_t total, int64_t chunk,
                                       function_ref<void(Value, Value)> body) {
  return forLoop(total, chunk, [&](Value first) {
    body(first, chunkCount(total, chunk, first));
  });
}

Value KernelBuilder::chunkCount(int64_t total, int64_t chunk, Value first) {
  if (total % chunk == 0)
    return index(chunk);
  return min(sub(index(total), first), chunk);
}

Value KernelBuilder::linearIndex(ArrayRef<Value> indices,
                                 ArrayRef<int64_t> sizes) {
  Value linear = index(0);
  for (auto [i, size] : llvm::zip_equal(indices, sizes))
    linear = add(mul(linear, size), i);
  return linear;
}

scf::ForOp
KernelBuilder::forEachIndex(ArrayRef<int64_t> dims,
                            function_ref<void(ArrayRef<Value>)> body) {
  assert(!dims.empty() && "a loop needs a dimension");
  SmallVector<Value> indices;
  std::function<scf::ForOp()> nest = [&]() {
    return forLoop(dims[indices.size()], 1, [&](Value index) {
      indices.push_back(index);
      if (indices.size() == dims.size())
        body(indices);
      else
        nest();
      indices.pop_back();
    });
  };
  return nest();
}

void KernelBuilder::forEachTile(int64_t count, bool lastIsPartial,
                                function_ref<void(Value, bool)> body) {
  int64_t whole = lastIsPartial ? count - 1 : count;
  forLoop(whole, 1, [&](Value i) { body(i, false); });
  if (whole < count)
    body(index(whole), true);
}

/// if (cond) thenBody() [else elseBody()], the parts weighted
/// `thenWeight` to `elseWeight` (none when both are 0).
static void buildIf(KernelBuilder &b, Value cond, function_ref<void()> thenBody,
                    function_ref<void()> elseBody, int32_t thenWeight,
                    int32_t elseWeight) {
  auto ifOp = scf::IfOp::create(b, cond, bool(elseBody));
  if (thenWeight != elseWeight)
    ifOp->setAttr(TPUDialect::getBranchWeightsAttrName(),
                  b.getDenseI32ArrayAttr({thenWeight, elseWeight}));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  thenBody();
  if (elseBody) {
    b.setInsertionPointToStart(ifOp.elseBlock());
    elseBody();
  }
}

/// The weights ifRarely and ifUsually give the common and the rare part:
/// only their order matters to tpu-lower-to-isa.
constexpr int32_t kCommonWeight = 100, kRareWeight = 1;

void KernelBuilder::ifThen(Value cond, function_ref<void()> thenBody,
                           function_ref<void()> elseBody) {
  buildIf(*this, cond, thenBody, elseBody, 0, 0);
}

void KernelBuilder::ifRarely(Value cond, function_ref<void()> thenBody,
                             function_ref<void()> elseBody) {
  buildIf(*this, cond, thenBody, elseBody, kRareWeight, kCommonWeight);
}

void KernelBuilder::ifUsually(Value cond, function_ref<void()> thenBody,
                              function_ref<void()> elseBody) {
  buildIf(*this, cond, thenBody, elseBody, kCommonWeight, kRareWeight);
}

Value KernelBuilder::allocVmem(int64_t rows) {
  auto type = MemRefType::get(
      {rows, int64_t(kLanes)}, getF32Type(), MemRefLayoutAttrInterface(),
      MemorySpaceAttr::get(getContext(), MemorySpace::VMEM));
  return memref::AllocOp::create(*this, type);
}

void KernelBuilder::dealloc(ArrayRef<Value> buffers) {
  for (Value buffer : buffers)
    memref::DeallocOp::create(*this, buffer);
}

void KernelBuilder::dmaLoad(Value hbm, Value tile, Value stride, Value vmem,
                            Value row, Value count, int64_t sem) {
  DmaLoadOp::create(*this, hbm, tile, stride, vmem, row, count, sem);
}

void KernelBuilder::dmaStore(Value vmem, Value row, Value hbm, Value tile,
                             Value stride, Value count, int64_t sem) {
  DmaStoreOp::create(*this, vmem, row, hbm, tile, stride, count, sem);
}

void KernelBuilder::wait(int64_t sem, int64_t count) {
  DmaWaitOp::create(*this, sem, count);
}

Value KernelBuilder::loadRowToAllSublanes(Value vmem, Value row) {
  return VectorLoadOp::create(*this, vregType(), vmem, row,
                              /*sublane_stride=*/0);
}

void KernelBuilder::storeRows(Value value, int64_t rows, Value fill, Value vmem,
                              Value row) {
  if (rows >= int64_t(kSublanes))
    return store(value, vmem, row);
  store(fill, vmem, row);
  VectorStoreOp::create(*this, value, vmem, row, (1 << rows) - 1);
}

Value KernelBuilder::load(Value vmem, Value row) {
  return VectorLoadOp::create(*this, vregType(), vmem, row);
}

void KernelBuilder::store(Value value, Value vmem, Value row) {
  VectorStoreOp::create(*this, value, vmem, row);
}

Value KernelBuilder::divide(Value x, int64_t powerOfTwo) {
  assert(llvm::isPowerOf2_64(uint64_t(powerOfTwo)) && "a power of two");
  return arith::ShRUIOp::create(*this, x, index(llvm::Log2_64(powerOfTwo)));
}

Value KernelBuilder::halve(Value x) { return divide(x, 2); }

Value KernelBuilder::unpack(Value words, bool high) {
  return UnpackBF16Op::create(*this, words.getType(), words, high);
}

Value KernelBuilder::round(Value v, Rounding rounding) {
  return RoundToBF16Op::create(*this, v.getType(), v,
                               RoundingAttr::get(getContext(), rounding));
}

SmallVector<Value, 3> KernelBuilder::splitToBF16(Value x, size_t parts,
                                                 Rounding rounding) {
  if (parts == 1)
    return {round(x, rounding)};
  Value hi = round(x, rounding);
  if (rounding == Rounding::NearestEven) {
    // v - v is NaN exactly when v is inf or NaN; truncation never
    // overflows.
    auto nonFinite = [&](Value v) -> Value {
      Value diff = arith::SubFOp::create(*this, v, v);
      return arith::CmpFOp::create(*this, arith::CmpFPredicate::UNE, diff,
                                   diff);
    };
    Value truncated = round(x, Rounding::Truncate);
    Value overflowed =
        arith::SelectOp::create(*this, nonFinite(hi), truncated, hi);
    hi = arith::SelectOp::create(*this, nonFinite(x), hi, overflowed);
  }
  SmallVector<Value, 3> result = {hi};
  Value rest = x;
  while (result.size() < parts) {
    rest = arith::SubFOp::create(*this, rest, result.back());
    result.push_back(round(rest, rounding));
  }
  return result;
}

Value KernelBuilder::keepLanes(Value value, int64_t lanes, Value fill) {
  Value mask = LaneMaskOp::create(
      *this,
      VectorType::get({int64_t(kSublanes), int64_t(kLanes)}, getI1Type()),
      index(lanes));
  return arith::SelectOp::create(*this, mask, value, fill);
}

Value KernelBuilder::splat(float value) {
  return arith::ConstantOp::create(*this,
                                   DenseElementsAttr::get(vregType(), value));
}

VectorType KernelBuilder::vregType() {
  return VectorType::get({int64_t(kSublanes), int64_t(kLanes)}, getF32Type());
}

TiledShape tpu::tiledShapeOf(Value buffer) {
  return getTiledShape(cast<ShapedType>(buffer.getType()));
}

bool tpu::isPacked(Value buffer) { return tiledShapeOf(buffer).packing > 1; }

void tpu::partDimensions(ArrayRef<int64_t> lead, ArrayRef<int64_t> dims,
                         SmallVectorImpl<int64_t> &named,
                         SmallVectorImpl<int64_t> &others) {
  for (auto [d, size] : llvm::enumerate(lead))
    (llvm::is_contained(dims, int64_t(d)) ? named : others).push_back(size);
}

SmallVector<Value> tpu::mergeCoordinates(size_t rank, ArrayRef<int64_t> dims,
                                         ArrayRef<Value> named,
                                         ArrayRef<Value> others) {
  SmallVector<Value> merged;
  size_t n = 0, o = 0;
  for (size_t d = 0; d < rank; ++d)
    merged.push_back(llvm::is_contained(dims, int64_t(d)) ? named[n++]
                                                          : others[o++]);
  return merged;
}

int64_t tpu::chunkTiles(int64_t buffers) {
  return std::max<int64_t>(
      1, std::min(kVpuChunkTiles, kVmemRows / (buffers * kSublanes)));
}

int64_t tpu::unitsPerChunk(int64_t unitTiles, int64_t units, int64_t buffers) {
  return std::max<int64_t>(1, std::min(units, chunkTiles(buffers) / unitTiles));
}

/// `count` VMEM staging buffers of `rows` rows each.
static SmallVector<Value> allocStaging(KernelBuilder &b, size_t count,
                                       int64_t rows) {
  SmallVector<Value> buffers;
  for (size_t i = 0; i < count; ++i)
    buffers.push_back(b.allocVmem(rows));
  return buffers;
}

/// buildVpuLoop when a buffer holds packed bf16 (16 x 128 tiles, one vreg
/// of words for 16 rows): the loop runs over bands of 16 rows of each
/// matrix, which an f32 buffer holds in two row tiles (low, high) and a
/// packed one in one. Each band's packed tiles are unpacked into their low
/// and high halves, `compute` runs on each half, and packed outputs pack
/// the two results. When an f32 matrix's row tiles are odd, its last band
/// has no high tile: the high half of the computation sees zeros for it
/// (the rows there are padding of every operand) and stores nothing to it.
static scf::ForOp
buildPackedVpuLoop(KernelBuilder &b, ValueRange inputs, ValueRange outputs,
                   function_ref<SmallVector<Value>(ValueRange)> compute) {
  TiledShape f32 = TiledShape::get(
      std::vector<int64_t>(cast<ShapedType>(inputs[0].getType()).getShape()));
  int64_t colTiles = f32.colTiles();
  int64_t wholeBands = f32.rowTiles() / 2;
  bool partialBand = f32.rowTiles() % 2 != 0;
  // Without a partial band, every buffer's matrices lie band after band,
  // so the bands of all of them are one sequence (fewer, fuller chunks).
  int64_t batches = f32.batch;
  if (!partialBand) {
    wholeBands *= batches;
    batches = 1;
  }
  // Chunks of whole bands, as many as fit VMEM with every buffer staged
  // at two row tiles a band; at least one band.
  int64_t buffers = int64_t(inputs.size() + outputs.size());
  int64_t bandRows = 2 * colTiles * kSublanes;
  int64_t chunk = unitsPerChunk(2 * colTiles, wholeBands, buffers);
  SmallVector<Value> staged = allocStaging(b, inputs.size(), chunk * bandRows);
  SmallVector<Value> staging =
      allocStaging(b, outputs.size(), chunk * bandRows);
  Value one = b.index(1), zero = b.index(0);

  // Bands [band0, band0 + count) of matrix `batch`: DMA in, compute, DMA
  // out. `hasHigh` is false for the partial band.
  auto processBands = [&](Value batch, Value band0, Value count, bool hasHigh) {
    // A buffer's first tile of the chunk, and its tile count.
    auto tiles = [&](Value buffer) {
      TiledShape shape = tiledShapeOf(buffer);
      int64_t perBand = isPacked(buffer) ? colTiles : 2 * colTiles;
      Value bandTile = b.mul(band0, perBand);
      Value first = b.add(b.mul(batch, shape.tilesPerBatch()), bandTile);
      Value n = hasHigh || isPacked(buffer) ? b.mul(count, perBand)
                                            : b.index(colTiles);
      return std::make_pair(first, n);
    };
    for (auto [input, buffer] : llvm::zip(inputs, staged)) {
      auto [first, n] = tiles(input);
      b.dmaLoad(input, first, one, buffer, zero, n, kLoadSem);
    }
    b.wait(kLoadSem, int64_t(inputs.size()));
    auto tileBody = [&](Value band, Value col) {
      // The VMEM row of half `half`'s tile of `buffer`.
      auto rowOf = [&](Value buffer, int64_t half) {
        int64_t perBand = isPacked(buffer) ? colTiles : 2 * colTiles;
        Value tile = b.add(b.mul(band, perBand), col);
        if (!isPacked(buffer))
          tile = b.add(tile, half * colTiles);
        return b.mul(tile, kSublanes);
      };
      SmallVector<Value> packedWords;
      for (auto [input, buffer] : llvm::zip(inputs, staged))
        packedWords.push_back(isPacked(input) ? b.load(buffer, rowOf(input, 0))
                                              : Value());
      SmallVector<SmallVector<Value>> results;
      for (int64_t half = 0; half < 2; ++half) {
        SmallVector<Value> vregs;
        for (auto [input, buffer, words] :
             llvm::zip(inputs, staged, packedWords)) {
          if (words)
            vregs.push_back(b.unpack(words, half == 1));
          else if (half == 1 && !hasHigh)
            vregs.push_back(b.splat(0.0f));
          else
            vregs.push_back(b.load(buffer, rowOf(input, half)));
        }
        results.push_back(compute(vregs));
      }
      for (auto [i, output, buffer] : llvm::enumerate(outputs, staging)) {
        if (isPacked(output)) {
          Value row = rowOf(output, 0);
          Value packed =
              PackBF16Op::create(b, b.vregType(), results[0][i], results[1][i]);
          b.store(packed, buffer, row);
          continue;
        }
        b.store(results[0][i], buffer, rowOf(output, 0));
        if (hasHigh)
          b.store(results[1][i], buffer, rowOf(output, 1));
      }
    };
    // One loop when a band is one tile wide: a loop of one iteration per
    // band would cost its branches for nothing.
    b.forLoop(zero, count, 1, [&](Value band) {
      if (colTiles == 1)
        return tileBody(band, zero);
      b.forLoop(colTiles, 1, [&](Value col) { tileBody(band, col); });
    });
    for (auto [buffer, output] : llvm::zip(staging, outputs)) {
      auto [first, n] = tiles(output);
      b.dmaStore(buffer, zero, output, first, one, n, kStoreSem);
    }
    b.wait(kStoreSem, int64_t(outputs.size()));
  };

  scf::ForOp loop = b.forLoop(batches, 1, [&](Value batch) {
    if (wholeBands > 0)
      b.forEachChunk(wholeBands, chunk, [&](Value band0, Value count) {
        processBands(batch, band0, count, /*hasHigh=*/true);
      });
    if (partialBand)
      processBands(batch, b.index(wholeBands), one, /*hasHigh=*/false);
  });
  b.dealloc(staged);
  b.dealloc(staging);
  return loop;
}

scf::ForOp
tpu::buildVpuLoop(KernelBuilder &b, ValueRange inputs, ValueRange outputs,
                  function_ref<SmallVector<Value>(ValueRange)> compute) {
  if (llvm::any_of(inputs, isPacked) || llvm::any_of(outputs, isPacked))
    return buildPackedVpuLoop(b, inputs, outputs, compute);
  int64_t tiles = tiledShapeOf(inputs[0]).numTiles();
  // Software-pipelined: chunk i + 1's loads go out before chunk i is
  // computed, so the VPU works while the DMA engine moves the next chunk
  // and stores the one before. Each staging buffer holds two chunks (slot
  // i mod 2), all live at once; a chunk is a quarter of the tensor (so
  // that only the first quarter's loads are waited for with nothing to
  // compute), at least kVpuMinPipelineChunk tiles, at most what fits VMEM.
  int64_t buffers = int64_t(inputs.size() + outputs.size());
  int64_t quarter = int64_t(llvm::divideCeil(tiles, kVpuPipelineChunks));
  int64_t chunk = std::min({std::max(quarter, kVpuMinPipelineChunk),
                            unitsPerChunk(1, tiles, 2 * buffers), tiles});
  int64_t chunks = int64_t(llvm::divideCeil(tiles, chunk));
  int64_t slotRows = chunk * kSublanes;
  SmallVector<Value> staged = allocStaging(b, inputs.size(), 2 * slotRows);
  SmallVector<Value> staging = allocStaging(b, outputs.size(), 2 * slotRows);
  Value one = b.index(1);
  // Chunk `index`'s first tile, tile count and staging row.
  auto firstOf = [&](Value index) { return b.mul(index, chunk); };
  auto countOf = [&](Value first) { return b.chunkCount(tiles, chunk, first); };
  auto slotOf = [&](Value index) {
    return b.mul(arith::AndIOp::create(b, index, one).getResult(), slotRows);
  };
  auto loadChunk = [&](Value index) {
    Value first = firstOf(index);
    Value count = countOf(first);
    Value slot = slotOf(index);
    for (auto [input, buffer] : llvm::zip(inputs, staged))
      b.dmaLoad(input, first, one, buffer, slot, count, kLoadSem);
  };
  loadChunk(b.index(0));
  scf::ForOp loop = b.forLoop(chunks, 1, [&](Value index) {
    if (chunks > 1) {
      Value next = b.add(index, 1);
      b.ifThen(b.lessThan(next, b.index(chunks)), [&] { loadChunk(next); });
    }
    // The DMA engine runs in order: chunk i's loads are the oldest out.
    b.wait(kLoadSem, int64_t(inputs.size()));
    // Chunk i - 2's stores read the slot this chunk's results go to.
    if (chunks > 2)
      b.ifThen(b.lessThan(one, index),
               [&] { b.wait(kStoreSem, int64_t(outputs.size())); });
    Value first = firstOf(index);
    Value count = countOf(first);
    Value slot = slotOf(index);
    b.forLoop(b.index(0), count, 1, [&](Value tile) {
      Value row = b.add(slot, b.mul(tile, kSublanes));
      SmallVector<Value> vregs;
      for (Value buffer : staged)
        vregs.push_back(b.load(buffer, row));
      for (auto [value, buffer] : llvm::zip(compute(vregs), staging))
        b.store(value, buffer, row);
    });
    for (auto [buffer, output] : llvm::zip(staging, outputs))
      b.dmaStore(buffer, slot, output, first, one, count, kStoreSem);
  });
  // The stores still out: the last chunk's and the one's before it.
  b.wait(kStoreSem, int64_t(outputs.size()) * std::min<int64_t>(chunks, 2));
  b.dealloc(staged);
  b.dealloc(staging);
  return loop;
}
