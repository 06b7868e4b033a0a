//===- MatmulKernel.cpp - tpu.matmul_passes on the MXUs -------------------===//
//
// Weight-stationary: for each chunk of LHS row blocks and each group of one
// 128-column block per MXU, the K tiles run in order: DMA the next K tile's
// LHS column and weight blocks (double-buffered), each buffer once however
// many terms read it; then for every term, in an order that shares latches
// (termOrder), latch its weights and push every row block of the chunk
// through every MXU into its result slot. The parts of the f32 operands the
// terms read (lhs_parts, rhs_parts) are split in VMEM: the LHS rows in the
// first term's push loop, the next tile's weights in the last term's
// (splitsLhsInPushes, splitsWeightsAhead), or, with the weights loaded two
// K tiles ahead, in a term's before it, the last term staging them and
// splitting the next tile's first LHS rows (weightsTwoAhead), so the
// rounding shares bundles with the pushes. The epilogue pops the slots, fixes
// NaNs in the small-term group, adds the main group and the accumulator, and
// DMAs the result blocks out, or leaves the DMAs to the next group's first K
// tiles when all at once they would stall its loads (shouldDeferStores). Where
// popping is all the epilogue does, the next group's first K tile pops a
// group's slots as it pushes, each block just before overwriting it
// (popsInNextGroup), and only a chunk's last group has an epilogue (with
// popsAcrossChunks, only the kernel's last).
// docs/Compiler.md draws the loop nest.
//
// An RHS shorter than K (tpu-fuse took in its zero padding) has only the
// row tiles it holds loaded in the last K tile; the rest of that tile's
// weight rows are zeroed in VMEM once its loads are in, so no rows of
// zeros are read from HBM.
//
// Why these tile sizes: a chunk of LHS row blocks fills the MXU result
// buffer (the chip's slots of 8 rows, 128, halved when a NaN-fixed group
// needs its own slots), so every weight tile latched is reused for up to
// 1024 rows; the working set is a few MiB whatever the matrix size, and the
// chunk is halved until it fits VMEM, then widened to the largest multiple
// of 8 row blocks that fits (fitChunk).
//
// When the weights take more than one group of column blocks, the chunk's
// LHS can instead stay in VMEM, every K tile of every LHS buffer, loaded
// during the first group and reused by the others: the LHS is read from
// HBM once rather than once per group, but the chunk may have to shrink to
// fit, which reads the weights more often and latches each for fewer rows.
// plan() estimates both plans' cycles (estimateCycles) and takes the
// faster, or on a tie the one that reads fewer bytes.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tpu/Dialect/TPU/Transforms/Transforms.h"
#include "tpu/ISA/ISA.h"
#include "tpu/Support/TiledLayout.h"

#include <functional>
#include <limits>

using namespace mlir;
using namespace tpu;

namespace {

constexpr int64_t kTileRows = kSublanes;
/// DMAs a column group's results go out in when the next group's K tiles
/// issue them: two per MXU (its block's first and second half of rows), so
/// that each piece is about a third of a K tile's DMA time at 2048^3 on
/// v4.
constexpr int64_t kStoresPerMxu = 2;
constexpr int64_t kWeightRows = kMxuDim; // VMEM rows of one weight tile
/// Row blocks (vregs) per iteration of the push and split loops: 8 pays
/// the loop's head (the first load's address and latency) once per 64
/// cycles of a push loop on any chip; 16 runs out of vector registers
/// where a push loop also splits.
constexpr int64_t kUnroll = 8;
static_assert((kWeightRows / kTileRows) % kUnroll == 0,
              "the weights split ahead go kUnroll vregs at a time");
/// Cycles from a push loop's taken branch to its next iteration's first
/// push when the first load's address is an add: the branch's bubble, the
/// add and the load's 3 cycles of latency.
constexpr int64_t kPushLoopHeadCycles = 5;
/// Unrolled push iterations that stream while the next K tile's weights,
/// staged before them, shift in (stagesAcrossTiles, stagesSplitAhead): a
/// weight load takes a cycle per row of the tile, a push a cycle per row
/// of its block, on each MXU alike, so 16 row blocks, 2 iterations.
constexpr int64_t kStageAheadIterations = kMxuDim / (kUnroll * kTileRows);
/// Unrolled iterations at the end of the last term's push loop that also
/// split the next K tile's first LHS rows (splitsFirstLhsAhead): one, its
/// kUnroll blocks, after a wait for that tile's LHS between the loop's
/// parts.
constexpr int64_t kLhsAheadIterations = 1;
/// How far, in row blocks, the kernel's last K tile pops its own results
/// behind its pushes (storesInLastTile): a push's result is in its slot
/// R + C - 2 cycles after its last row enters the array and the pushes of
/// an MXU come 8 cycles apart, so 33 blocks, rounded down to whole
/// unrolled iterations, 32: the first pop waits for its slot, 7 cycles,
/// in a bundle that also pushes, and every push after it comes as much
/// later, so no later pop waits. Rounded up, 40, the stores started 64
/// cycles later to save those 7 (1000^3 v3 DEFAULT 38,196 -> 38,142).
constexpr int64_t kOwnPopLagBlocks =
    (kMxuPipelineCycles + kMxuPushCycles) / kMxuPushCycles / kUnroll * kUnroll;
/// The row blocks of each MXU's result a DMA takes there, as they are
/// popped: small, so that the stores start early, and few, so that the
/// DMA queue does not stall a bundle that pushes: one an MXU per 16 of
/// its row blocks (the plan keeps them under kMaxOutstandingDmas; pieces
/// of 8 were 47 cycles faster at 2048^3 but 48 DMAs) but the first.
constexpr int64_t kOwnStoreBlocks = 2 * kUnroll;
/// The first piece is an unrolled iteration's blocks, so that the stores
/// start 40 blocks into the tile (on v4 its 32 KiB take 56 cycles of DMA,
/// which the next piece's 128 cycles of pushes refill; each DMA is slower
/// than the pops from then on): 1000^3 v3 DEFAULT 38,142 -> 38,082.
constexpr int64_t kOwnFirstStoreBlocks = kUnroll;
/// The K tiles of a group (or the groups of a chunk) from which a part
/// of the K loop that runs in one of them (the first or the last) goes out
/// of line (ifOneTile, ifOneGroup): the others then take no branch, and
/// that one takes two (there and back), so it pays from 4 on.
constexpr int64_t kOutOfLineFrom = 4;
/// What a term of the test that finds the K tiles with a push loop of
/// their own costs each K tile (the kernel's last tile, storesInLastTile:
/// a subtract and a min beside the latches; the pieced tiles,
/// piecesLhsTiles: a min), with a branch that shares the first-tile
/// test's; measured over 1000^3 to 2048x3072x2048: under a cycle where
/// two or more MXUs' latches have bundles to share, 4 to 6 with one
/// MXU's.
constexpr double kOwnLoopTestCycles = 1.0;
constexpr double kOwnLoopTestCyclesOneMxu = 5.0;

/// The LHS row blocks of 8 one VMEM tile of `lhs` holds: 1 for f32; 2 for
/// packed bf16, but 1 when each matrix is one block (8 rows: the low half
/// of its own tile).
int64_t blocksPerTile(Value lhs) {
  TiledShape shape = tiledShapeOf(lhs);
  return shape.packing > 1 && shape.rows > kSublanes ? 2 : 1;
}

/// body(row, n) for the vregs [0, count) of a buffer, kUnroll at a time
/// (forLoopUnrolled): the n vregs from row `row`.
void forEachVregRow(KernelBuilder &b, Value count,
                    function_ref<void(Value, int64_t)> body) {
  b.forLoopUnrolled(count, kUnroll, [&](Value vreg, int64_t n) {
    body(b.mul(vreg, kTileRows), n);
  });
}

/// Whether an epilogue input is a row (rank 1: one row of tiles), read one
/// tile per column block into every sublane of each block.
bool isRow(Value input) {
  return cast<ShapedType>(input.getType()).getRank() == 1;
}

/// Whether the batches of the LHS, result and accumulator are one matrix
/// to the kernel: when the RHS is one rank-2 matrix, which every batch of
/// the LHS shares (a convolution's filter), and whole row tiles of all
/// batches lie one after another in every LHS term, so that row blocks
/// fill the MXU's result slots across batches.
bool mergesBatches(MatmulPassesOp op) {
  if (cast<ShapedType>(op.getRhs()[0].getType()).getRank() != 2)
    return false;
  return llvm::all_of(op.getLhs(), [](Value lhs) {
    TiledShape shape = tiledShapeOf(lhs);
    return shape.rows % (kSublanes * blocksPerTile(lhs)) == 0;
  });
}

/// The shape the kernel sees of an LHS, result or accumulator, in row
/// blocks of 8 (whatever the packing): with merged batches, one matrix.
TiledShape kernelShapeOf(Value buffer, bool mergeBatches) {
  TiledShape shape = tiledShapeOf(buffer);
  if (!mergeBatches)
    return TiledShape::get({shape.batch, shape.rows, shape.cols});
  return TiledShape::get({shape.batch * shape.rows, shape.cols});
}

/// The distinct values of `operands` in order of first use, and each
/// operand's index among them.
void collectDistinct(ValueRange operands, SmallVectorImpl<Value> &distinct,
                     SmallVectorImpl<unsigned> &indexOf) {
  for (Value operand : operands) {
    auto *found = llvm::find(distinct, operand);
    indexOf.push_back(unsigned(found - distinct.begin()));
    if (found == distinct.end())
      distinct.push_back(operand);
  }
}

/// The split parts the terms read of one side's buffers (lhs_parts,
/// rhs_parts), each made in VMEM from the K tile it belongs to and kept in
/// its own slot: (buffer, part) in order of first use.
class PartSlots {
public:
  /// Adds (buffer, part), unless there already or part is -1 (the buffer
  /// as it is).
  void add(unsigned buffer, int64_t part) {
    if (part >= 0 && !llvm::is_contained(slots, std::make_pair(buffer, part)))
      slots.emplace_back(buffer, part);
  }
  int64_t slotOf(unsigned buffer, int64_t part) const {
    return llvm::find(slots, std::make_pair(buffer, part)) - slots.begin();
  }
  /// The parts of `buffer` the terms read, in slot order.
  SmallVector<int64_t, 3> partsOf(unsigned buffer) const {
    SmallVector<int64_t, 3> parts;
    for (auto [slotBuffer, part] : slots)
      if (slotBuffer == buffer)
        parts.push_back(part);
    return parts;
  }
  /// The buffers some term reads a part of.
  int64_t buffersSplit() const {
    SmallVector<unsigned> buffers;
    for (auto [buffer, part] : slots)
      if (!llvm::is_contained(buffers, buffer))
        buffers.push_back(buffer);
    return int64_t(buffers.size());
  }
  int64_t size() const { return int64_t(slots.size()); }

private:
  SmallVector<std::pair<unsigned, int64_t>> slots;
};

/// One matmul's loop nest: its plan (tile sizes, VMEM buffers) and the
/// parts of the nest that need it.
class MatmulKernel {
public:
  MatmulKernel(MatmulPassesOp op, const ChipInfo &chip)
      : op(op), chip(chip), mxus(chip.mxusPerCore),
        resultSlots(chip.mxuResultSlots),
        mergeBatches(mergesBatches(op)),
        lhs(kernelShapeOf(op.getLhs()[0], mergeBatches)),
        out(kernelShapeOf(op.getOuts(), mergeBatches)),
        terms(op.getLhs().size()), nanFixed(op.getNanFixedTerms()),
        hasAcc(bool(op.getAcc())),
        epilogueInputs(op.getEpilogueInputs().size()) {
    collectDistinct(op.getLhs(), lhsBuffers, lhsOf);
    collectDistinct(op.getRhs(), rhsBuffers, rhsOf);
    for (unsigned term = 0; term < terms; ++term) {
      lhsParts.add(lhsOf[term], op.getLhsPart(term));
      rhsParts.add(rhsOf[term], op.getRhsPart(term));
    }
    order = termOrder();
    for (auto [index, term] : llvm::enumerate(order))
      latches.push_back(index == 0 ||
                        weightsOf(order[index - 1]) != weightsOf(term));
    splitsLhsInPushes = lhsParts.size() > 0 && pushesUnrolled(order.front());
  }

  /// The weights term `term` latches: its RHS buffer and part.
  std::pair<unsigned, int64_t> weightsOf(size_t term) {
    return {rhsOf[term], op.getRhsPart(unsigned(term))};
  }
  /// The order the terms run in within a K tile: each group's terms in
  /// their own order (the order they accumulate in is part of the numerics,
  /// docs/Numerics.md), the groups interleaved so that as many terms as
  /// can latch the weights of the term before them, and the latch is
  /// skipped (HIGH: lo.hi, hi.hi, hi.lo latches twice, not three times).
  /// Of the interleavings with the fewest latches, the first in the terms'
  /// own order.
  SmallVector<size_t> termOrder();
  /// Whether term `term` is the first of its group (the small terms
  /// [0, nanFixed) or the main ones): in a group's first K tile it
  /// overwrites its result slots, the others accumulate.
  bool firstOfItsGroup(size_t term) const {
    return term == 0 || int64_t(term) == nanFixed;
  }
  /// Whether term `term`'s push loop is the unrolled one: its LHS is a
  /// part or one row block per tile.
  bool pushesUnrolled(size_t term) {
    return op.getLhsPart(unsigned(term)) >= 0 ||
           blocksPerTile(lhsBuffers[lhsOf[term]]) == 1;
  }
  /// Chooses the tiling; fails with an error on the op when the operands
  /// are not whole tiles or no chunk fits VMEM.
  LogicalResult plan();
  /// The part of plan() that sets lhsTilesAhead's counts.
  void planLhsAhead();
  /// Writes the loop nest at `b`'s insertion point; returns the outer loop.
  scf::ForOp build(KernelBuilder &b);

private:
  /// VMEM rows the working set takes with chunks of `blocks` row blocks,
  /// the LHS double-buffered or resident (with stagesInHalves, set after
  /// the chunk is chosen, the staging's second half too).
  int64_t vmemRows(int64_t blocks, bool resident) const {
    int64_t perMxu =
        blocks * kTileRows *
        (1 + (stagesInHalves ? 1 : 0) + (hasAcc ? 1 : 0) + epilogueInputs);
    return (int64_t(lhsBuffers.size()) * lhsSlots(resident) + lhsParts.size()) *
               blocks * kTileRows +
           (int64_t(rhsBuffers.size()) * 2 +
            rhsPartsRegions() * rhsParts.size()) *
               groupBlocks * kWeightRows +
           groupBlocks * perMxu;
  }
  /// The weights' parts take one region of VMEM, every MXU's block of
  /// each part, or two when a push loop splits the next K tile's (with
  /// one K tile, the next group's) (splitsWeightsAhead): region `half`
  /// is K tile k's, so the next tile's never overwrite weights a latch
  /// may still be reading.
  int64_t rhsPartsRegions() const { return splitsWeightsAhead ? 2 : 1; }
  int64_t rhsPartsRegionRows() const {
    return rhsParts.size() * groupBlocks * kWeightRows;
  }
  /// Chunks of rows each LHS buffer takes in VMEM: every K tile when
  /// resident (and the spare slots the next chunk's first tiles are loaded
  /// into, spareLhsSlots), else a double buffer.
  int64_t lhsSlots(bool resident) const {
    return resident ? kTiles + spareLhsSlots : 2;
  }
  /// A chunk of row blocks that fits VMEM, at most `limit` (halved from
  /// it until it fits, then widened to a multiple of kUnroll), or 0.
  int64_t fitChunk(int64_t limit, bool resident) const;
  /// The column-block groups (one block per MXU), and the chunks of
  /// `blocks` row blocks.
  int64_t columnGroups() const {
    return (nBlocks + groupBlocks - 1) / groupBlocks;
  }
  /// The first column block of a chunk's last column group.
  int64_t lastGroupCol0() const {
    return (columnGroups() - 1) * int64_t(groupBlocks);
  }
  int64_t chunksOf(int64_t blocks) const {
    return (rowBlocks + blocks - 1) / blocks;
  }
  /// The row blocks of the last chunk, the shortest, with chunks of
  /// `blocks`.
  int64_t lastChunkOf(int64_t blocks) const {
    return (rowBlocks - 1) % blocks + 1;
  }
  /// Whether every group has groupBlocks column blocks: the groups divide
  /// the blocks, and no MXU is ever past the last.
  bool groupsDivideBlocks() const {
    return nBlocks % int64_t(groupBlocks) == 0;
  }
  /// HBM tiles the operands' loads read with chunks of `blocks`, and with
  /// the result's stores, which are the same in either plan, the tiles
  /// the DMA engine moves.
  int64_t tilesRead(int64_t blocks, bool resident) const;
  int64_t tilesMoved(int64_t blocks, bool resident) const {
    return tilesRead(blocks, resident) + lhs.batch * rowBlocks * nBlocks;
  }
  /// The plan's cycles, roughly: the larger of the loop's issue time and
  /// its HBM time.
  double estimateCycles(int64_t blocks, bool resident) const;
  /// The issue time of one K tile of a column group with chunks of
  /// `blocks`, and the DMA time of `tiles` tiles at the core's share of
  /// HBM bandwidth.
  double tileCycles(int64_t blocks) const;
  double hbmCycles(int64_t tiles) const;
  /// Whether a group's result stores go out during the next group's K
  /// tiles (storePreviousGroup): when all at once they would stall the
  /// next group's loads, which the plan has time to hide.
  bool shouldDeferStores() const;
  /// Whether popping a group's results in the next group's pushes
  /// (popsInNextGroup) saves more than the stores it issues a K tile later
  /// stall: with one K tile, a store-bound plan would wait for each
  /// group's stores before the next group could pop.
  bool popsPayForStores(bool inHalves) const;
  /// The DMA time of a later column group's K tile (its weights, and its
  /// LHS column unless resident), and whether it is at least the MXUs'
  /// time for the tile's pushes (8 cycles a row block and term): then the
  /// loads, not the latches, set the pace, and staging across tiles would
  /// only move the wait for the next tile's loads ahead of the tile's last
  /// pushes, where the next prefetch cannot follow it (it reuses the LHS
  /// half those pushes read), leaving the DMA engine idle for their time.
  double tileLoadCycles() const;
  bool loadsOutlastPushes() const;
  /// The VMEM row of K tile `k` of LHS buffer `buffer`'s chunk (`half` is
  /// k's double-buffer half; with spareLhsSlots, `spareOffset` is how far
  /// on the chunk's tiles in spare slots are, spareOffsetOf, or null where
  /// there are none), and of the weights of the group's column block
  /// `block` of RHS buffer `buffer`.
  Value lhsRow(KernelBuilder &b, unsigned buffer, Value k, Value half,
               Value spareOffset) const;
  /// The index of the chunk at (`batch`, `row0`) in the kernel's sequence
  /// of chunks, batch x chunks + row0 / chunk (row0 / chunk a shift where
  /// there are several chunks: indexesGroupsAcrossChunks).
  Value chunkSequence(KernelBuilder &b, Value batch, Value row0) const;
  /// How many VMEM rows on the chunk at (`batch`, `row0`) finds its tiles
  /// in spare slots (spareLhsSlots): K slots' when its index in the
  /// kernel's sequence of chunks is odd, else 0.
  Value spareOffsetOf(KernelBuilder &b, Value batch, Value row0) const;
  Value rhsRow(KernelBuilder &b, unsigned buffer, Value half,
               unsigned block) const;
  /// The K loop of one column group, every term inside each K tile.
  void buildKLoop(KernelBuilder &b, Value row0, Value col0, Value blocks);
  /// Waits for the DMAs of K tile `tile`'s LHS and RHS buffers (in
  /// `half`), then, in the last K tile, zeroes the weight rows a short RHS
  /// lacks. With `ofNextGroup`, the tile is the next column group's in the
  /// chunk, which loads no resident LHS. A pieced LHS tile
  /// (piecesLhsTiles) is left to its pushes, which wait for each piece.
  /// With weightsTwoAhead, only for the LHS: the weights are waited for by
  /// waitForWeights, which the term splitting them calls a tile sooner.
  void waitForTile(KernelBuilder &b, Value tile, Value half,
                   bool ofNextGroup = false);
  /// The weights' part of waitForTile: the wait for them (but where
  /// `counted`: waitForTile's one wait counted them with the LHS), and the
  /// last K tile's zeroing.
  void waitForWeights(KernelBuilder &b, Value tile, Value half,
                      bool counted = false);
  /// Stores `zeros` (a zero vreg) to row tiles [from, to) of the weight
  /// block at VMEM row `block`.
  void zeroWeightRowTiles(KernelBuilder &b, Value zeros, Value block,
                          int64_t from, int64_t to);
  /// The row tiles of RHS buffer `rhs` one K tile's weight block holds
  /// (16, or 8 packed), and those it has in the last K tile: fewer when
  /// the RHS is shorter than K.
  int64_t weightRowTiles(Value rhs) const;
  int64_t lastWeightRowTiles(Value rhs) const;
  /// The split parts the terms read of the current K tile (the weights'
  /// in `half`), each in a loop of its own: the chunk's LHS row blocks
  /// (when the first term's push loop does not split them,
  /// splitsLhsInPushes), and the weight
  /// blocks of the group's column blocks (activeBlocks; the slots past
  /// them hold an earlier group's, whose results are never popped), into
  /// the parts' region `region`.
  void splitLhs(KernelBuilder &b, Value blocks);
  void splitWeights(KernelBuilder &b, Value half, Value region);
  /// splitVregs of `count` weight vregs from row `row` of every MXU's
  /// block in `half`, of every RHS buffer a term reads parts of, into the
  /// parts' region `region`.
  void splitWeightRows(KernelBuilder &b, Value half, Value region, Value row,
                       int64_t count);
  /// Loads the `count` vregs from row `from` of `source` and splits each
  /// into the parts `parts` holds of `buffer`, storing vreg i's part p at
  /// row `to` + 8 i of p's slot in `target` (`slotRows` rows a slot).
  void splitVregs(KernelBuilder &b, Value source, Value from, Value target,
                  Value to, int64_t count, const PartSlots &parts,
                  unsigned buffer, int64_t slotRows);
  /// splitVregs of `count` row blocks from row `row` of the chunk in the
  /// current K tile (tileLhsRows), of every LHS buffer a term reads parts
  /// of.
  void splitLhsRows(KernelBuilder &b, Value row, int64_t count,
                    ArrayRef<Value> tileRows = {});
  /// splitLhsRows of the chunk's first kUnroll row blocks of the current
  /// K tile (all of them if fewer).
  void splitFirstLhsRows(KernelBuilder &b, Value blocks);
  /// The passes over K tile `k` of the term at `position` in `order`: the
  /// first LHS rows' split (splitsLhsInPushes, the first term: before the
  /// latch, while its weights shift in), the weight latches (when
  /// latches[position]: the term before latched other weights), right
  /// after them the weight loads of the tile's next latch, which shift in
  /// while this term pushes, and the pushes of every row block.
  /// `isFirstTile` is k == 0.
  void buildPasses(KernelBuilder &b, size_t position, Value k, Value half,
                   Value isFirstTile, Value blocks);
  /// The weight loads (mxu.ldw) into every MXU of the weights term `term`
  /// latches, of the K tile in `half`: staged, not yet latched.
  void stageWeights(KernelBuilder &b, size_t term, Value half);
  /// The VMEM row MXU `m`'s weight load of stageWeights reads, and that
  /// load.
  Value weightLoadRow(KernelBuilder &b, size_t term, Value half, unsigned m);
  void loadWeights(KernelBuilder &b, size_t term, unsigned m, Value row);
  /// The position in `order` of the next term after `position` that
  /// latches, or none.
  std::optional<size_t> nextLatch(size_t position) const;
  /// The DMAs of K tile `k` of every LHS and RHS buffer into buffer half
  /// `half`, for the column group at (`batch`, `row0`, `col0`) of `blocks`
  /// row blocks; a resident LHS is loaded only where `chunkFirst` holds
  /// (the group is its chunk's first; null: never, a later group finds it
  /// in VMEM) and the chunk before did not load the tile ahead
  /// (lhsTilesAhead; `ofNextChunk`: where `chunkFirst` holds, the group
  /// is the next chunk's first, which has a chunk before it).
  void issueLoads(KernelBuilder &b, Value k, Value half, Value batch,
                  Value row0, Value col0, Value blocks, Value chunkFirst,
                  bool ofNextChunk = false);
  /// The LHS's part of issueLoads, and the RHS's.
  void issueLhsLoads(KernelBuilder &b, Value k, Value half, Value batch,
                     Value row0, Value blocks, Value chunkFirst,
                     bool ofNextChunk = false);
  /// The DMA of K tile `k` of LHS buffer `buffer` for the chunk at
  /// (`batch`, `row0`) of `blocks` row blocks, into its row
  /// (lhsRow(half, spareOffset)).
  void loadLhsTile(KernelBuilder &b, unsigned buffer, Value k, Value half,
                   Value batch, Value row0, Value blocks, Value spareOffset,
                   int64_t sem, bool inPieces = false);
  /// The chunk after the current one in the kernel's sequence: the next in
  /// the batch, else the next batch's first (past the last chunk, one
  /// that does not exist: only used where there is a next).
  struct ChunkPosition {
    Value batch, row0, blocks;
  };
  ChunkPosition nextChunkPosition(KernelBuilder &b, Value row0);
  /// With lastGroupLoadsNextChunk, in a chunk's last group but the
  /// kernel's: the next chunk's LHS tile and its first group's weights,
  /// into half 0.
  void loadNextChunkFirstTile(KernelBuilder &b, Value row0, Value col0);
  /// lhsTilesAhead: the K tile of the current column group after which
  /// each tile's head loads a tile of the next chunk's LHS (aheadAfter; set
  /// by planAheadLoads), and that load (loadNextChunkTile). One value lives
  /// across the K loop, whose push loops need the scalar registers; the
  /// rest is made where a load is issued.
  void planAheadLoads(KernelBuilder &b, Value row0, Value col0);
  void loadNextChunkTile(KernelBuilder &b, Value k);
  /// g Q for the group at `col0`, its index g (a shift) times
  /// aheadPerGroup: where its share of the next chunk's tiles in spare
  /// slots ends, before clamping to spareLhsSlots.
  Value middleWindowEnd(KernelBuilder &b, Value col0) const {
    return b.mul(b.divide(col0, groupBlocks), aheadPerGroup);
  }
  void issueWeightLoads(KernelBuilder &b, Value k, Value half, Value batch,
                        Value col0);
  /// Whether a group's last K tile prefetches the next column group's
  /// first (into the half the last tile is not using), and after it its
  /// second if there is one: with an even number of K tiles, or with an
  /// odd number where the halves alternate group after group.
  bool prefetchesAcross() const {
    return kTiles % 2 == 0 || alternatesHalves();
  }
  /// Whether a group's tiles take the halves in the other order from the
  /// group before's: with an odd number of K tiles and several column
  /// groups, each of the chip's MXUs (a power of two, so that the group's
  /// index is col0 shifted right), or groups in several chunks or batches
  /// (crossesChunks).
  bool alternatesHalves() const {
    return kTiles % 2 != 0 &&
           ((columnGroups() > 1 && llvm::isPowerOf2_32(groupBlocks)) ||
            crossesChunks);
  }
  /// Whether the group sequence's halves can alternate across chunks and
  /// batches: the group's index in the whole sequence is made from the
  /// loops' offsets by shifts, so chunks and MXUs must be powers of two
  /// where there is more than one of them.
  bool indexesGroupsAcrossChunks() const {
    return (columnGroups() == 1 || llvm::isPowerOf2_32(groupBlocks)) &&
           (chunksOf(chunk) == 1 || llvm::isPowerOf2_64(uint64_t(chunk)));
  }
  /// The double-buffer half of K tile `k` of the column group
  /// `groupsAhead` after this one. The halves alternate over a chunk's
  /// tiles, group after group (with crossesChunks, over the whole
  /// sequence of groups, chunks and batches), so a group's first tile,
  /// prefetched during the last of the group before, lands in the half
  /// that one is not using: with an even number of K tiles tile k is in
  /// half k % 2 in every group, with an odd number the group's index
  /// shifts it.
  Value halfOf(KernelBuilder &b, Value k, int64_t groupsAhead = 0) const;
  void buildEpilogue(KernelBuilder &b, Value batch, Value row0, Value col0,
                     Value blocks);
  /// Pops block `block`'s slots of MXU `m`, fixes the small-term group's
  /// NaNs, adds the main group and the accumulator, applies the epilogue
  /// and stores the block at staging row `row` (`stagingRow` is the MXU's
  /// first, where a row input is staged).
  void finishBlock(KernelBuilder &b, Value block, Value row, unsigned m,
                   Value stagingRow);
  /// Whether K tile `k` of the column group being built has a tile after
  /// it in its group or in the next group whose first tiles its last tile
  /// prefetches (prefetchNextGroup): k + groupOffset
  /// below K - 1 plus the last group's offset (in the chunk, or with
  /// crossesChunks in the kernel), each part at most its last.
  Value hasTileAfter(KernelBuilder &b, Value k) const {
    int64_t lastOffset = crossesChunks ? lastGroupOffset() : lastGroupCol0();
    Value sum = b.add(k, groupOffset);
    return b.lessThan(sum, b.index(kTiles - 1 + lastOffset));
  }
  /// Whether the column group at `col0` is its chunk's last.
  Value isLastGroup(KernelBuilder &b, Value col0) {
    Value groupEnd = b.add(col0, groupBlocks);
    return b.lessThan(b.index(nBlocks - 1), groupEnd);
  }
  /// Whether the column group at (batch, row0, col0) is not the kernel's
  /// first: the stores of a group before it are out.
  Value followsFirstGroup(KernelBuilder &b, Value batch, Value row0,
                          Value col0) {
    return b.lessThan(zero, b.add(b.add(batch, row0), col0));
  }
  /// Whether it follows the kernel's second group too: the stores of a
  /// group two before it are out (stagesInHalves). A chunk has two groups
  /// or more, so every group of a later chunk or batch does.
  Value followsSecondGroup(KernelBuilder &b, Value batch, Value row0,
                           Value col0) {
    int64_t twoGroups = 2 * groupBlocks;
    Value chunkOffset = b.add(batch, row0);
    Value groupsFar = b.add(b.mul(chunkOffset, twoGroups), col0);
    return b.lessThan(b.index(twoGroups - 1), groupsFar);
  }
  /// batch + row0 of the kernel's last chunk, batch + row0 + col0 of its
  /// last group, and whether the column group at (batch, row0, col0) is
  /// that group. Each of the offsets is at most its last group's, so
  /// their sum is below the last group's unless this is the last group.
  int64_t lastChunkOffset() const {
    return (lhs.batch - 1) + (chunksOf(chunk) - 1) * chunk;
  }
  int64_t lastGroupOffset() const {
    return lastChunkOffset() + lastGroupCol0();
  }
  Value isKernelLastGroup(KernelBuilder &b, Value batch, Value row0,
                          Value col0) {
    Value offset = b.add(b.add(batch, row0), col0);
    return b.lessThan(b.index(lastGroupOffset() - 1), offset);
  }
  /// The result's tile at row block `row0` of column block `col` of the
  /// current batch, and the DMA of `count` row blocks of MXU `c`'s staged
  /// block to it (in the staging half at row `staging`: stagesInHalves).
  Value outTileOf(KernelBuilder &b, Value row0, Value col);
  void storeMxuBlock(KernelBuilder &b, Value outTile, unsigned c, Value count,
                     Value staging);
  /// A column group of the current batch: its row0, col0 and row blocks;
  /// or (previousGroupPosition with storesAcrossChunks) its first result
  /// tile instead of row0, and col0 only where the groups do not divide
  /// the column blocks (hasColumn).
  struct GroupPosition {
    Value row0, col0, blocks, outTile0;
  };
  /// The column group before the one at (row0, col0) of `blocks` row
  /// blocks in the current batch: the one before it in the chunk, or with
  /// storesAcrossChunks, in the chunk's first group, the chunk before's
  /// last (the batch before's last chunk's in a batch's first).
  GroupPosition previousGroupPosition(KernelBuilder &b, Value row0, Value col0,
                                      Value blocks);
  /// Store piece `piece` of the column group at `group` from the staging
  /// buffer: half `piece` % 2 of the rows of MXU `piece` / 2's block
  /// (nothing when its column block is past the last).
  void storeResultPiece(KernelBuilder &b, const GroupPosition &group,
                        Value piece);
  /// The previous column group's result stores, spread over this group's
  /// first K tiles (piece k in tile k, the rest in the last tile): a
  /// group's stores all at once would stall the next tile's loads behind
  /// them in the one DMA queue. Without storesAcrossChunks only a group
  /// with one before it in its chunk stores (a chunk's last stores its
  /// own, since the next chunk's first group is busy loading its LHS: its
  /// DMAs take longer than its pushes, and stores added there hide
  /// nothing); with it, every group but the kernel's first stores the
  /// group before's (previousGroupPosition).
  void storePreviousGroup(KernelBuilder &b, Value k, Value row0, Value col0,
                          Value blocks);
  /// With popsInNextGroup, the stores of the group before, whose results
  /// tile 0's first term popped: deferred, piece k after tile k's first
  /// term (storePreviousGroup); else every MXU's block after tile 0's.
  void storePoppedGroup(KernelBuilder &b, Value k, Value isFirstTile,
                        Value row0, Value col0, Value blocks);

  MatmulPassesOp op;
  const ChipInfo &chip;
  /// The MXUs the kernel uses, and the column blocks a column group
  /// takes: one per MXU (set by plan()).
  unsigned mxus;
  unsigned groupBlocks = 0;
  /// Whether the MXUs share the one column block, each pushing its share
  /// of the row blocks: block b on MXU b % mxus (set by plan()).
  bool splitsRows = false;
  /// The row blocks of a chunk of `blocks` each MXU pushes: all of them,
  /// or with the rows split its share.
  double blocksPerMxu(int64_t blocks) const {
    return splitsRows ? double(blocks) / mxus : double(blocks);
  }
  /// Each MXU's result slots (the chip's).
  int64_t resultSlots;
  bool mergeBatches;
  /// The LHS in row blocks of 8 (its terms' buffers may be packed), and
  /// the result.
  TiledShape lhs, out;
  size_t terms;
  /// The terms in the order they run (termOrder), and whether each
  /// latches weights (the term before it latched others).
  SmallVector<size_t> order;
  SmallVector<bool> latches;
  int64_t nanFixed;
  bool hasAcc;
  /// The epilogue's inputs besides the sum, each staged like the
  /// accumulator.
  int64_t epilogueInputs;
  /// Whether some LHS term is packed two row blocks to a tile.
  bool anyPairs = false;
  /// The distinct LHS and RHS buffers, each staged in VMEM once per K tile
  /// however many terms read it, and each term's index into them.
  SmallVector<Value> lhsBuffers, rhsBuffers;
  SmallVector<unsigned> lhsOf, rhsOf;
  /// The split parts the terms read, each side's in its own VMEM buffer
  /// (a chunk of rows, or every MXU's weight block, per slot).
  PartSlots lhsParts, rhsParts;
  /// Whether the first term's push loop also splits the LHS, a few row
  /// blocks ahead of its pushes, rather than a loop of its own running
  /// while the MXUs wait: when a term reads an LHS part and the first
  /// term's pushes are the unrolled loop (one row block per tile).
  bool splitsLhsInPushes = false;
  /// Whether, splitting the LHS in the first term's pushes, only a chunk's
  /// first column group splits it (set by plan()): with one K tile the
  /// parts hold the chunk's whole LHS until the next chunk's first group
  /// splits its own, so the later groups push them as they are. Where the
  /// later groups pop the group before's results in that loop
  /// (popsInNextGroup, not across chunks), which is then a loop of their
  /// own: the split's rounding made it the longest loop of a group (92
  /// bundles an iteration against 64 cycles of pushes at HIGH on v3).
  bool splitsLhsOnce = false;
  /// Whether a term's push loop splits the next K tile's weights, the
  /// last term's (or with weightsTwoAhead one before it:
  /// weightSplitPosition) (set by plan()): when a term reads an RHS part,
  /// there is more than one term, and more than one K tile or column
  /// group (splitsNextGroupWeights), and the last term's pushes are the
  /// unrolled loop.
  bool splitsWeightsAhead = false;
  /// Whether, with one K tile, the weights split ahead are the next column
  /// group's in the chunk (its tile 0, which this group's head prefetched
  /// into the other half): only a chunk's first group splits its own, in
  /// a loop of its own while the MXUs wait (312 bundles a group at HIGH on
  /// v4). Only with a resident LHS, whose loads count on a semaphore of
  /// their own, so that the wait for the next group's loads is for its
  /// weights alone.
  bool splitsNextGroupWeights() const {
    return splitsWeightsAhead && kTiles == 1;
  }
  /// Whether, splitting the next group's weights where a chunk's last
  /// group also loads the next chunk's first tile (lastGroupLoadsNextChunk),
  /// the weights stream on across chunks: that group loads the next
  /// chunk's first two groups' weights (halves 0 and 1: its own, split by
  /// the group before, are no longer read) and its last term splits the
  /// first's, so that only the kernel's first group splits its own and a
  /// later chunk's first group does not prefetch the second's behind the
  /// chunk before's last stores, a DMA-bound plan's idle engine (about
  /// 1,000 cycles at each chunk boundary of 4096x128x4096 at HIGH on v4).
  /// Only where the groups pop the group before's results in their pushes:
  /// with an epilogue a group (two groups a chunk at HIGH on v4), the last
  /// term's wait for loads issued behind the chunk's stores cost more
  /// than it saved (1024x128x640: 11,657 to 12,144 cycles).
  bool weightsAcrossChunks() const {
    return splitsNextGroupWeights() && lastGroupLoadsNextChunk &&
           popsInNextGroup;
  }
  /// Whether, splitting the weights ahead, a term before the last splits
  /// them instead (twoAheadSplitPosition), and the last stages the next
  /// tile's first part right after its latch, so that it has shifted in
  /// before that tile's first latch: the last term's loop cannot both split and
  /// stage where its chunk has no more row blocks than the weights have vregs
  /// (four MXUs' 64 in HIGH's and HIGHEST's halved chunks of 64 on v4), and
  /// splitting twice as fast there made its iterations VPU-bound (96 cycles for
  /// 64 of pushes). The weights are then loaded two K tiles ahead (tile k + 2's
  /// at tile k's head, into the raw half tile k's split has read: no term
  /// latches raw weights), on a semaphore of their own, so that the split waits
  /// for them alone, not for the next tile's LHS, which the next tile's head
  /// waits for. Where a term latches raw weights, that term is the one whose
  /// loop splits the LHS or its pushes are not the unrolled loop, or the last
  /// term latches nothing, the last term splits; and where the last term's loop
  /// can split and stage (splitEndsEarly: v2's and v3's chunks), it does:
  /// splitting in the term before leaves a gap before the last latch, its
  /// loop's tail (v3 1024^3 HIGH 0.5% slower). Set by plan(), from
  /// canSplitTwoAhead (the rest) and the chunk.
  bool weightsTwoAhead = false, canSplitTwoAhead = false;
  /// Whether, with weightsTwoAhead and the first term's loop splitting the
  /// LHS (splitsLhsInPushes), the last term's loop also waits for the next
  /// K tile's LHS and its last kLhsAheadIterations unrolled iterations
  /// split its first kUnroll row blocks: the next tile's first latch,
  /// whose weights are in, then waits for no split (about 60 cycles a K
  /// tile on v4). The loop's first iteration has read those rows' parts of
  /// this tile, so every chunk needs more unrolled iterations than that
  /// (set by plan()). A group's first tile splits its own.
  bool splitsFirstLhsAhead = false;
  /// Whether, with weightsTwoAhead, the weights stream on across column
  /// groups: the last two K tiles load the next group's first two tiles'
  /// weights (the group's last prefetch loads only their LHS), the last
  /// tile's splitting term splits the next group's first and its
  /// last term stages them, so that a later group's first tile, after the
  /// group before's epilogue, neither splits its weights in a loop of its
  /// own nor waits for them to shift in (set by plan(): where a group's
  /// last tile prefetches the next's first, prefetchesAcross).
  bool weightsAcrossGroups = false;
  /// The position in `order` of the term whose push loop splits the next
  /// K tile's weights (splitsWeightsAhead).
  size_t weightSplitPosition() const {
    return weightsTwoAhead ? twoAheadSplitPosition() : order.size() - 1;
  }
  /// With weightsTwoAhead, the latest term before the last that is not the
  /// first of its group (whose two push loops, K tile 0's and the rest's,
  /// would both carry the split: HIGHEST's mid.hi, not hi.hi, 0.3 to 1.8%
  /// faster), but the first; else the one before the last (HIGH's hi.hi).
  size_t twoAheadSplitPosition() const {
    for (size_t position = order.size() - 2; position > 0; --position)
      if (!firstOfItsGroup(order[position]))
        return position;
    return order.size() - 2;
  }
  /// ifThen whose then part (`thenIsRare`) or else part runs in one of
  /// `among` K tiles or column groups: that part out of line
  /// (KernelBuilder::ifRarely, ifUsually) where there are kOutOfLineFrom
  /// or more.
  void ifRareAmong(KernelBuilder &b, int64_t among, bool thenIsRare, Value cond,
                   function_ref<void()> thenBody,
                   function_ref<void()> elseBody) const {
    if (among < kOutOfLineFrom)
      return b.ifThen(cond, thenBody, elseBody);
    if (thenIsRare)
      return b.ifRarely(cond, thenBody, elseBody);
    b.ifUsually(cond, thenBody, elseBody);
  }
  /// A then part that runs in one K tile of each group (its first or its
  /// last).
  void ifOneTile(KernelBuilder &b, Value cond, function_ref<void()> thenBody,
                 function_ref<void()> elseBody = nullptr) const {
    ifRareAmong(b, kTiles, /*thenIsRare=*/true, cond, thenBody, elseBody);
  }
  /// An else part that runs in a group's last K tile or two.
  void ifMostTiles(KernelBuilder &b, Value cond, function_ref<void()> thenBody,
                   function_ref<void()> elseBody) const {
    ifRareAmong(b, kTiles, /*thenIsRare=*/false, cond, thenBody, elseBody);
  }
  /// A then part that runs in one column group of each chunk (its first).
  void ifOneGroup(KernelBuilder &b, Value cond, function_ref<void()> thenBody,
                  function_ref<void()> elseBody = nullptr) const {
    ifRareAmong(b, columnGroups(), /*thenIsRare=*/true, cond, thenBody,
                elseBody);
  }
  /// The semaphore the weights' loads count on.
  int64_t weightSem() const { return weightsTwoAhead ? kWeightSem : kLoadSem; }
  /// Whether the last term's push loop also waits for the next K tile's
  /// loads (but a pieced LHS: piecesLhsTiles) and stages its first
  /// weights, kStageAheadIterations unrolled iterations before its end,
  /// so that they shift in while the last pushes stream: when the first
  /// term latches a buffer as it is (not a part the next tile splits),
  /// there is more than one K tile, the last term's pushes are the
  /// unrolled loop, and the weights are not split ahead (those stage from
  /// that loop when stagesSplitAhead, else at the top of the tile); and
  /// the plan's later groups are not bound by their loads
  /// (loadsOutlastPushes).
  bool stagesAcrossTiles = false;
  /// Whether, staging across tiles, a group's last tile also waits for the
  /// next group's first loads in the chunk and stages its first weights
  /// (which that tile's head prefetched): when the tile's pushes before
  /// that point outlast the loads in every chunk, else the wait would
  /// stall the pushes (set by plan()).
  bool stagesAcrossGroups = false;
  /// Whether a chunk's first group loads its LHS tiles but tile 0 a DMA
  /// per unrolled push iteration (the last DMA takes the blocks left over
  /// too), and those tiles' pushes wait for each before its iteration
  /// (set by plan()): where that group is bound by its loads, a tile's
  /// pushes, which waited for the whole tile and then ran a tile behind
  /// the DMA engine, trail it by an iteration, and the group ends that
  /// much sooner. In every chunk where none loads the next one's LHS
  /// ahead, else in the kernel's first (the others' first groups are not
  /// bound by their loads). With staging across tiles (the tile before
  /// waits for the tile's other loads, not its LHS), a resident LHS of one
  /// f32 buffer that nothing splits, one term, more than one K tile, no
  /// rows split among the MXUs, and a whole iteration in every chunk;
  /// where the next tile's pieces, weights and the group before's stores
  /// fit the DMA queue (the tile's own pieces still in flight may stall
  /// the head's issue, in a group that waits for them anyway); and where
  /// that saves more than the test each K tile makes to find those tiles
  /// (piecesSaving).
  bool piecesLhsTiles = false;
  double piecesSaving() const;
  /// Whether every chunk's first group loads its LHS in pieces, not only
  /// the kernel's first.
  bool piecesEveryChunk() const { return lhsTilesAhead() == 0; }
  /// The DMAs of a pieced LHS tile of `blocks` row blocks: a whole
  /// unrolled iteration each.
  Value lhsPieces(KernelBuilder &b, Value blocks) const {
    return b.divide(blocks, kUnroll);
  }
  /// Whether the last term's push loop, which splits the next K tile's
  /// weights (splitsWeightsAhead), also stages the next tile's first part
  /// kStageAheadIterations unrolled iterations before its end, so that it
  /// shifts in while the last pushes stream: when every chunk's pushes
  /// outlast the split (kUnroll weight vregs an iteration) by that much
  /// (splitEndsEarly). Else a tile stages its first part at the top of its
  /// iteration.
  bool stagesSplitAhead = false;
  /// Whether chunks of `blocks` row blocks give the last term's push loop
  /// kStageAheadIterations unrolled iterations after it has split every
  /// MXU's weights.
  bool splitEndsEarly(int64_t blocks) const {
    return (blocks / kUnroll - kStageAheadIterations) * kUnroll >=
           int64_t(groupBlocks) * (kWeightRows / kTileRows);
  }
  /// The first row and column blocks of the group buildKLoop builds.
  Value groupRow0, groupCol0;
  /// Whether column block `col` of a group exists: always when the groups
  /// divide the blocks (a constant, which folds the selects and branches
  /// on it away: the DMAs of a K tile's loop head need no count of their
  /// own), else col < nBlocks.
  Value hasColumn(KernelBuilder &b, Value col) const {
    if (groupsDivideBlocks())
      return arith::ConstantIntOp::create(b, 1, 1);
    return b.lessThan(col, nBlocksV);
  }

  // The plan.
  int64_t rowBlocks = 0, kTiles = 0, nBlocks = 0;
  /// Row blocks per chunk, and the result slots of the main group's first.
  int64_t chunk = 0, chunkRows = 0, mainSlots = 0;
  /// Whether a group's result stores go out during the next group's K
  /// tiles (set by plan(): shouldDeferStores).
  bool defersStores = false;
  /// The result DMAs of a column group: a piece per half MXU block when
  /// they are deferred, else one per MXU.
  int64_t storesPerGroup() const {
    return (defersStores ? kStoresPerMxu : 1) * int64_t(groupBlocks);
  }
  /// Whether the chunk's LHS stays in VMEM across the column groups.
  bool residentLhs = false;
  /// Whether a column group's results are popped in the next group's first
  /// K tile rather than in an epilogue of their own: block b on every MXU
  /// just before the first term pushes block b into its slot, a pop beside
  /// the pushes, so that the MXUs do not idle while an epilogue pops every
  /// slot (set by plan()). The chunk's last group pops its own (but with
  /// popsAcrossChunks). When the
  /// first term's pushes are the unrolled loop and popping is all the
  /// epilogue does but an elementwise body and the NaN-fixed group's fix
  /// (no accumulator or input to stage), with an MXU per column block;
  /// and when that pays for the stores it delays (popsPayForStores). With
  /// a NaN-fixed group a block is two pops, each feeding a fix, an add
  /// and a store: on one MXU an iteration's eight blocks leave those
  /// chains too little to overlap (v2 1024^3 HIGH: 35 more cycles an
  /// iteration of tile 0, 0.3% slower), so only with two MXUs or more,
  /// or one K tile, where the group's own epilogue is all it would save
  /// (v2 4096x128x4096 HIGH 502,889 to 441,937 cycles).
  bool popsInNextGroup = false;
  /// Whether, popping in the next group, the staging buffer has two
  /// halves, the groups' results in turn (set by plan()): a group's pops
  /// then wait for the stores of the group two before it, not the one
  /// before, so that the stores have the next group's K loop as well to
  /// finish in. Where popping in one buffer does not pay for the stores it
  /// waits for (popsPayForStores) and popping in halves does: with few K
  /// tiles a group's stores outlast the rest of the next group's (one K
  /// tile: 4096x128x4096 at HIGH), where the epilogue, two pops a block
  /// at HIGH and HIGHEST, is most of what the MXUs idle through. Only
  /// where the stores are not deferred and the groups' halves alternate
  /// over the kernel's sequence of groups (alternatesHalves, and
  /// crossesChunks, one chunk, or an even number of groups in a chunk),
  /// and where the second half fits VMEM.
  bool stagesInHalves = false;
  /// In the column-group loop, with stagesInHalves: the first staging row
  /// of this group's half and of the group before's.
  Value ownStaging, previousStaging;
  /// Whether, with one K tile and a resident LHS, a chunk's last column
  /// group loads the next chunk's LHS and its first group's weights once
  /// its pushes no longer read the LHS (after lastRawLhsPosition's term),
  /// ahead of its result stores, rather than the next chunk's first group
  /// loading them behind those stores (set by plan()). The chunk's one LHS
  /// tile is its only slot, so the prefetch across chunks at a group's
  /// last tile's head (crossesChunks) would overwrite the rows the group
  /// pushes. Only where the chunk's groups are an even number, so that the
  /// last group's weights are in half 1 and the next chunk's first group's
  /// in half 0 (alternatesHalves).
  bool lastGroupLoadsNextChunk = false;
  /// The last position in `order` whose pushes read the LHS as it is, or
  /// whose loop splits it (splitsLhsInPushes); -1 where none does.
  int64_t lastRawLhsPosition() const {
    MatmulPassesOp passes = op;
    int64_t last = splitsLhsInPushes ? 0 : -1;
    for (size_t position = 0; position < order.size(); ++position)
      if (passes.getLhsPart(unsigned(order[position])) < 0)
        last = int64_t(position);
    return last;
  }
  /// Whether, popping in the next group, a chunk's last group's results
  /// too are popped in the next chunk's first group (set by plan()): where
  /// its stores go out there as well (storesAcrossChunks) and every chunk
  /// has the same row blocks (the pops are the popping group's blocks).
  /// Only the kernel's last group has an epilogue (none with
  /// storesInLastTile).
  bool popsAcrossChunks = false;
  /// Whether the kernel's last group, the only one with an epilogue
  /// (popsAcrossChunks, or one chunk popping in the next group), pops its
  /// results in its last K tile instead: the last term's pushes pop each
  /// block kOwnPopLagBlocks behind, once it has drained, and DMA its rows
  /// out kOwnStoreBlocks at a time (the first piece kOwnFirstStoreBlocks),
  /// so that the stores, which the MXUs would otherwise idle through, start
  /// about 330 cycles into that tile (set by plan()); then no group has an
  /// epilogue. Where there is one term, whose loop is the unrolled one and
  /// splits nothing; its chunk's whole unrolled iterations have a first
  /// piece to pop (at least kOwnPopLagBlocks + kOwnFirstStoreBlocks row
  /// blocks; the blocks past them are pushed after); every store of the
  /// group before went out in an earlier K tile (more K tiles than pieces:
  /// its pops overwrite the staging those read); its DMAs fit the DMA
  /// queue; and it saves more than it costs (lastTileStoresSaving).
  bool storesInLastTile = false;
  /// The stores storesInLastTile issues: a DMA an active MXU and piece,
  /// and one more each for the rest.
  int64_t lastTileStores() const;
  /// The last chunk's row blocks in whole unrolled iterations, which
  /// storesInLastTile's pieces pop; the blocks past them are pushed after.
  int64_t lastChunkWholeBlocks() const {
    return lastChunkOf(chunk) / kUnroll * kUnroll;
  }
  /// The cycles storesInLastTile would save: its stores' head start over
  /// an epilogue's, less the test every K tile of the kernel makes and
  /// the wait of its first pop for the group before's stores.
  double lastTileStoresSaving() const;
  /// What a term of the test for the K tiles with a loop of their own
  /// costs over the kernel's K tiles.
  double ownLoopTestCycles() const {
    double groups = double(lhs.batch * chunksOf(chunk) * columnGroups());
    return (mxus > 1 ? kOwnLoopTestCycles : kOwnLoopTestCyclesOneMxu) * groups *
           double(kTiles);
  }
  /// The MXUs with a column block in a chunk's last column group.
  int64_t lastGroupMxus() const {
    int64_t lastCol0 = lastGroupCol0();
    return std::min<int64_t>(nBlocks - lastCol0, groupBlocks);
  }
  /// The K tiles of a later column group that carry the group before's
  /// result stores: a piece each when they are deferred, else tile 0 (or
  /// the epilogue before it).
  int64_t storingTiles() const { return defersStores ? storesPerGroup() : 1; }
  /// With a resident LHS and a next chunk or batch (crossesChunks), the
  /// K tiles of the next chunk's LHS that a chunk loads ahead, so that
  /// the next chunk's first group, which would load them all besides its
  /// weights, is not bound by its DMAs (set by plan(): the later groups'
  /// DMA engine has time to spare). Tiles [0, spareLhsSlots) go into
  /// spare slots past the K tiles' (chunks alternate: a chunk's tile j in
  /// that range is in slot j + K when its index in the kernel's sequence
  /// of chunks is odd), loaded by the groups between the chunk's first
  /// and last, aheadPerGroup at the end of each (P - 1 of every P K tiles
  /// with aheadLoadPeriod P; fewer in the last that loads any, where they
  /// do not divide spareLhsSlots); the next
  /// lastGroupAheadTiles, into the slots the chunk's own tiles free, by
  /// its last group, one a K tile once that tile has been pushed.
  int64_t spareLhsSlots = 0, aheadPerGroup = 0, lastGroupAheadTiles = 0;
  int64_t lhsTilesAhead() const { return spareLhsSlots + lastGroupAheadTiles; }
  /// How a group between the chunk's first and last spreads its share of
  /// the spare slots' tiles over its last K tiles (set by plan()): 1, in
  /// a row; P of 2 or 3, in the tiles whose distance f from its last has
  /// f % P != P - 1 (every other one; two of every three), the window
  /// aheadWindow tiles long. In a row, every tile that loads outlasts its
  /// pushes and the group ends behind; spread, a tile that loads only
  /// weights follows each one or two to catch up in, unless the group
  /// before's stores fill it too. The period whose DMA backlog is least
  /// (aheadLoadBacklog), where in a row it is more than a tile's spare
  /// DMA time (judged on a full next chunk, as the gates above).
  int64_t aheadLoadPeriod = 1;
  /// x / 3 for 0 <= x < 2^17: x * ceil(2^17 / 3) >> 17, a multiply and a
  /// shift (the scalar unit has no divide).
  static Value thirdOf(KernelBuilder &b, Value x) {
    return b.divide(b.mul(x, 43691), 1 << 17);
  }
  /// The K tiles from a middle group's last that hold `loads` of its
  /// loads with period `period`.
  static int64_t aheadWindow(int64_t loads, int64_t period) {
    return period == 1 ? loads : period == 2 ? 2 * loads : loads + loads / 2;
  }
  /// The most a middle group's DMAs fall behind its pushes over its K
  /// tiles, in cycles, with its aheadPerGroup LHS tiles loaded with period
  /// `period`; `lhsTile` is one tile's load.
  double aheadLoadBacklog(int64_t period, double lhsTile) const;
  /// Whether a chunk's last group's result stores, too, go out during the
  /// next group's K tiles, the next chunk's first group's (set by plan()):
  /// when the stores are deferred, that group's DMAs (its LHS loaded
  /// ahead) leave time for them beside its pushes, and at once they would
  /// stall the next chunk's loads by more than half their time (both
  /// judged on a full chunk). The kernel's last group stores its own.
  bool storesAcrossChunks = false;
  /// Whether the last column group of a chunk prefetches the first K tiles
  /// of the next chunk's first group, or of the next batch's (set by
  /// plan()): when there is a next chunk or batch whose tiles can take the
  /// other half (prefetchesAcross), and, for a resident LHS (slot k holds
  /// tile k), more than one K tile: the next chunk's tile 0 goes into slot
  /// 0 while the last group runs its last tile. Without it, a chunk's
  /// first loads wait behind the last group's result stores, and a batch
  /// matmul of small matrices loads, computes and stores one batch after
  /// another.
  bool crossesChunks = false;

  // Values the loops share, made in build().
  Value lhsVmem, rhsVmem, outVmem, accVmem, lhsPartsVmem, rhsPartsVmem;
  SmallVector<Value> epilogueVmem;
  Value zero, one, eight, nBlocksV, kTilesV;
  /// In the column-group loop: whether this is the chunk's first group,
  /// its index in the chunk, or in the kernel's sequence of groups when
  /// crossesChunks (when alternatesHalves; halfOf), whether it loads its
  /// own first K tiles (no group before prefetched them), its column
  /// blocks (past the last, a group has fewer than groupBlocks), and the
  /// vregs of weights each RHS buffer has (16 per such block).
  Value firstGroup, groupIndex, loadsOwnFirstTiles, activeBlocks, weightVregs;
  /// batch + row0 + col0 with crossesChunks or lastGroupLoadsNextChunk
  /// (kernelOffset, else null): 0 only in the kernel's first group, and
  /// lastGroupOffset() only in its last. groupOffset is that with
  /// crossesChunks, else col0: 0 in the first group whose tiles no group
  /// before prefetched (but with lastGroupLoadsNextChunk, where only the
  /// kernel's first group loads its own: loadsOwnFirstTiles;
  /// groupOffset's readers have more than one K tile).
  Value kernelOffset, groupOffset;
  /// In the K loop: each LHS buffer's row of the tile (lhsRow), made once
  /// in the tile's head rather than in each loop that reads it.
  SmallVector<Value> tileLhsRows;
  /// In the K loop, where there are spare slots: the chunk's offset into
  /// them (spareOffsetOf), for the next tile's rows (splitsFirstLhsAhead).
  Value tileSpareOffset;
  /// In the column-group loop, with storesInLastTile: K - 1 plus how far
  /// the group is from the kernel's last (in batches, row blocks and
  /// column blocks, summed), so that this less k is a K tile's distance
  /// from the kernel's last, 0 only there.
  Value lastTileOffset;
  /// In the column-group loop, with lhsTilesAhead (planAheadLoads).
  Value aheadAfter;
  /// In the column-group loop, where it is made once a group: the group
  /// before's position, whose results its K tiles store
  /// (storePreviousGroup).
  std::optional<GroupPosition> groupPrevious;
  Value batchIndex, outBatch;
};

SmallVector<size_t> MatmulKernel::termOrder() {
  SmallVector<size_t> best, current;
  int64_t bestLatches = std::numeric_limits<int64_t>::max();
  // Every interleaving of the small terms [0, nanFixed) and the main ones
  // [nanFixed, terms), each in order: at most 6 choose 1 for HIGHEST.
  std::function<void(size_t, size_t, int64_t)> extend =
      [&](size_t small, size_t main, int64_t count) {
        if (count >= bestLatches)
          return;
        if (current.size() == terms) {
          best = current;
          bestLatches = count;
          return;
        }
        for (bool fromSmall : {true, false}) {
          size_t next = fromSmall ? small : main;
          if (next >= (fromSmall ? size_t(nanFixed) : terms))
            continue;
          bool same =
              !current.empty() && weightsOf(current.back()) == weightsOf(next);
          current.push_back(next);
          extend(fromSmall ? small + 1 : small, fromSmall ? main : main + 1,
                 count + (same ? 0 : 1));
          current.pop_back();
        }
      };
  extend(0, size_t(nanFixed), 0);
  return best;
}

LogicalResult MatmulKernel::plan() {
  anyPairs = llvm::any_of(lhsBuffers,
                          [](Value lhs) { return blocksPerTile(lhs) == 2; });
  TiledShape rhs = tiledShapeOf(op.getRhs()[0]);
  if (lhs.cols % kMxuDim != 0 || rhs.cols % kLanes != 0 ||
      lhs.rows % kSublanes != 0)
    return op.emitError()
           << "tpu-lower-to-mxu: operands must be padded to whole tiles "
              "(run tpu-pad-to-tiles first), got "
           << op.getLhs()[0].getType() << " x " << op.getRhs()[0].getType();
  for (Value input : op.getEpilogueInputs())
    if (isPacked(input) && cast<ShapedType>(input.getType()).getRank() != 1)
      return op.emitError()
             << "tpu-lower-to-mxu: the epilogue reads " << input.getType()
             << " tile for tile with the f32 result, but it is packed bf16; "
                "give it f32 (only a bf16 row, a rank-1 bias, is read "
                "packed)";
  rowBlocks = lhs.rowTiles();
  kTiles = lhs.colTiles();
  nBlocks = rhs.colTiles();
  int64_t groups = nanFixed > 0 ? 2 : 1;
  // Chunk of row blocks: as many as the result slots hold, halved until
  // the working set fits VMEM, then widened (fitChunk).
  int64_t slotLimit = std::min(rowBlocks, resultSlots / groups);
  // One column block and more MXUs: each MXU takes every mxus-th row
  // block through the same weights (an unrolled iteration's eight blocks
  // go round the MXUs), rather than one MXU all of them. A block's MXU is
  // b % mxus in the push loop's unrolled iterations (index % mxus, each
  // iteration's first block a multiple of kUnroll), in a left-over
  // block's (an and) and in the epilogue's loops alike only where mxus is
  // a power of two dividing kUnroll.
  splitsRows =
      nBlocks == 1 && mxus > 1 && llvm::isPowerOf2_32(mxus) &&
      kUnroll % int64_t(mxus) == 0 &&
      llvm::all_of(order, [&](size_t term) { return pushesUnrolled(term); });
  // Else no more MXUs than column blocks: one without a block would latch
  // and push weights nothing loaded, and its results would never be
  // popped.
  if (!splitsRows)
    mxus = unsigned(std::min<int64_t>(mxus, nBlocks));
  groupBlocks = splitsRows ? 1 : mxus;
  // Splitting the next tile's weights in the last term's pushes needs a
  // block to push for each weight vreg; with fewer, it would only make the
  // next tile's loads be waited for sooner. Decided on the slots' limit:
  // the chunk fitChunk picks may be smaller (rarely: VMEM), and then the
  // loop after the pushes splits the rest.
  splitsWeightsAhead =
      rhsParts.size() > 0 && terms > 1 && (kTiles > 1 || columnGroups() > 1) &&
      pushesUnrolled(order.back()) &&
      slotLimit >= int64_t(groupBlocks) * (kWeightRows / kTileRows);
  canSplitTwoAhead = splitsWeightsAhead && kTiles > 1 && latches.back() &&
                     !(twoAheadSplitPosition() == 0 && splitsLhsInPushes) &&
                     pushesUnrolled(order[twoAheadSplitPosition()]) &&
                     llvm::all_of(order, [&](size_t term) {
                       return op.getRhsPart(term) >= 0;
                     });
  stagesAcrossTiles = kTiles > 1 && !splitsWeightsAhead &&
                      op.getRhsPart(unsigned(order.front())) < 0 &&
                      pushesUnrolled(order.back());
  popsInNextGroup = columnGroups() > 1 && !splitsRows &&
                    (nanFixed == 0 || mxus > 1 || kTiles == 1) && !hasAcc &&
                    epilogueInputs == 0 && pushesUnrolled(order.front());
  chunk = fitChunk(slotLimit, /*resident=*/false);
  if (chunk == 0)
    return op.emitError() << "tpu-lower-to-mxu: the matmul's working set "
                             "does not fit VMEM";
  if (int64_t resident = fitChunk(slotLimit, /*resident=*/true)) {
    double streamedCycles = estimateCycles(chunk, false);
    double residentCycles = estimateCycles(resident, true);
    if (residentCycles < streamedCycles ||
        (residentCycles == streamedCycles &&
         tilesRead(resident, true) < tilesRead(chunk, false))) {
      chunk = resident;
      residentLhs = true;
    }
  }
  chunkRows = chunk * kTileRows;
  mainSlots = groups == 2 ? chunk : 0;
  if (kTiles == 1 && !residentLhs)
    splitsWeightsAhead = false;
  stagesAcrossTiles = stagesAcrossTiles && !loadsOutlastPushes();
  crossesChunks = lhs.batch * chunksOf(chunk) > 1 &&
                  (!residentLhs || kTiles > 1) &&
                  (kTiles % 2 == 0 || indexesGroupsAcrossChunks());
  lastGroupLoadsNextChunk = kTiles == 1 && residentLhs && !crossesChunks &&
                            lhs.batch * chunksOf(chunk) > 1 &&
                            columnGroups() % 2 == 0 && alternatesHalves() &&
                            lastRawLhsPosition() >= 0;
  // The last chunk is the shortest.
  weightsTwoAhead = canSplitTwoAhead && !splitEndsEarly(lastChunkOf(chunk));
  weightsAcrossGroups = weightsTwoAhead && prefetchesAcross();
  splitsFirstLhsAhead = weightsTwoAhead && splitsLhsInPushes &&
                        lastChunkOf(chunk) / kUnroll > kLhsAheadIterations;
  stagesSplitAhead = splitsWeightsAhead && !splitsNextGroupWeights() &&
                     !weightsTwoAhead && splitEndsEarly(lastChunkOf(chunk));
  // The chunk was chosen on a tile estimate that counted the pops as
  // hidden; where the stores rule them out, it is a little optimistic.
  bool popsCouldBeInNextGroup = popsInNextGroup;
  popsInNextGroup = popsInNextGroup && popsPayForStores(/*inHalves=*/false);
  // The next group's tile 0 is staged only if the last tile prefetched it.
  int64_t blocksBeforeStaging =
      lastChunkOf(chunk) - kStageAheadIterations * kUnroll;
  stagesAcrossGroups = stagesAcrossTiles && columnGroups() > 1 &&
                       prefetchesAcross() &&
                       tileLoadCycles() < double(terms * kSublanes) *
                                              blocksPerMxu(blocksBeforeStaging);
  defersStores = columnGroups() > 1 && shouldDeferStores();
  bool groupsAlternate = alternatesHalves() &&
                         (crossesChunks || lhs.batch * chunksOf(chunk) == 1 ||
                          columnGroups() % 2 == 0);
  stagesInHalves =
      popsCouldBeInNextGroup && !popsInNextGroup && !defersStores &&
      groupsAlternate &&
      vmemRows(chunk, residentLhs) + groupBlocks * chunkRows <= kVmemRows &&
      popsPayForStores(/*inHalves=*/true);
  popsInNextGroup = popsInNextGroup || stagesInHalves;
  planLhsAhead();
  splitsLhsOnce = kTiles == 1 && residentLhs && splitsLhsInPushes &&
                  popsInNextGroup && !popsAcrossChunks;
  // The kernel's last group is the only one with an epilogue where its
  // chunk's last groups pop in the next chunk's first, or where there is
  // one chunk (and so one chunk's last group).
  bool onlyLastEpilogue =
      popsAcrossChunks || (popsInNextGroup && lhs.batch * chunksOf(chunk) == 1);
  storesInLastTile =
      onlyLastEpilogue && !stagesInHalves && terms == 1 &&
      kTiles > storesPerGroup() &&
      lastChunkWholeBlocks() >= kOwnPopLagBlocks + kOwnFirstStoreBlocks &&
      pushesUnrolled(0) && !splitsLhsInPushes &&
      lastTileStores() <= int64_t(kMaxOutstandingDmas) &&
      lastTileStoresSaving() > 0;
  piecesLhsTiles =
      residentLhs && stagesAcrossTiles && terms == 1 && kTiles > 1 &&
      lhsBuffers.size() == 1 && !anyPairs && lhsParts.size() == 0 &&
      pushesUnrolled(0) && !splitsRows && lastChunkOf(chunk) >= kUnroll &&
      chunk / kUnroll + int64_t(groupBlocks) * 2 + storesPerGroup() <=
          int64_t(kMaxOutstandingDmas) &&
      piecesSaving() > 0;
  return success();
}

double MatmulKernel::aheadLoadBacklog(int64_t period, double lhsTile) const {
  // A middle group's K tile k loads its weights, the group before's
  // result stores (with deferred stores, storePreviousGroup, piece k
  // while k < pieces, the last tile the rest where there are fewer tiles;
  // else all of them, in the group before's epilogue or in tile 0, where
  // this group pops them: ahead of tile 0's loads or with them), and a
  // tile of the next chunk's LHS where the plan puts one (Q of them);
  // what outlasts its pushes waits, and what is left of a tile's time
  // goes to the waiting.
  double stores = hbmCycles(int64_t(groupBlocks) * chunk);
  int64_t pieces = storingTiles();
  double backlog = 0.0, worst = 0.0;
  for (int64_t k = 0; k < kTiles; ++k) {
    int64_t fromLast = kTiles - 1 - k;
    bool loads = fromLast < aheadWindow(aheadPerGroup, period) &&
                 (period == 1 || fromLast % period != period - 1);
    int64_t piecesHere = k < pieces ? 1 : 0;
    if (k == kTiles - 1 && kTiles < pieces)
      piecesHere = pieces - k;
    double dma = tileLoadCycles() +
                 stores * double(piecesHere) / double(pieces) +
                 (loads ? lhsTile : 0.0);
    backlog = std::max(0.0, backlog + dma - tileCycles(chunk));
    worst = std::max(worst, backlog);
  }
  return worst;
}

void MatmulKernel::planLhsAhead() {
  if (!residentLhs || !crossesChunks || columnGroups() < 2)
    return;
  // Only where a chunk's first group is bound by its DMAs: every K tile's
  // LHS and weights, behind the chunk before's last stores. Elsewhere the
  // loads ahead would add code and gain nothing.
  double lhsTile = hbmCycles(int64_t(lhsBuffers.size()) * chunk);
  double stores = hbmCycles(int64_t(groupBlocks) * chunk);
  if (double(kTiles) * (tileLoadCycles() + lhsTile) + stores <=
      double(kTiles) * tileCycles(chunk))
    return;
  // A later group's K tiles load only weights; what of their DMA time is
  // left once the group before's stores are out takes whole K tiles of
  // the next chunk's LHS.
  double spare =
      double(kTiles) * (tileCycles(chunk) - tileLoadCycles()) - stores;
  int64_t perGroup =
      std::clamp<int64_t>(int64_t(spare / lhsTile), 0, kTiles - 1);
  // The spare slots are for the groups between the chunk's first and
  // last, as many as VMEM holds; the slot of a tile in them depends on
  // the chunk's index and the groups' tiles on the group's, both made by
  // shifts (indexesGroupsAcrossChunks).
  int64_t middleGroups = columnGroups() - 2;
  if (middleGroups > 0 && indexesGroupsAcrossChunks()) {
    int64_t freeSlots = (kVmemRows - vmemRows(chunk, /*resident=*/true)) /
                        (int64_t(lhsBuffers.size()) * chunkRows);
    spareLhsSlots = std::min({freeSlots, middleGroups * perGroup, kTiles - 1});
    aheadPerGroup = llvm::divideCeil(spareLhsSlots, middleGroups);
    // Every other tile from the last needs 2 Q - 1 tiles. A backlog that
    // a tile's spare DMA time absorbs (the weights are loaded two tiles
    // ahead) stalls nothing, and spreading would only add its parity test.
    // Three needs a division by 3 of at most K, a multiply and a shift
    // exact below 2^17 (thirdOf); and only where its loads stay clear of
    // the tiles that store the group before's results: measured, sharing
    // them made plans 0.1 to 0.5% slower than in a row though the backlog
    // walk judged them better (docs/Compiler.md).
    int64_t farthestLoad = aheadPerGroup - 1 + (aheadPerGroup - 1) / 2;
    bool thirdsClearStores = kTiles - 1 - farthestLoad >= storingTiles();
    double least = aheadLoadBacklog(1, lhsTile);
    if (least > tileCycles(chunk) - tileLoadCycles())
      for (int64_t period : {2, 3}) {
        if (aheadWindow(aheadPerGroup, period) > kTiles ||
            (period == 3 && (!thirdsClearStores || kTiles >= 1 << 17)))
          continue;
        double backlog = aheadLoadBacklog(period, lhsTile);
        if (backlog < least) {
          least = backlog;
          aheadLoadPeriod = period;
        }
      }
  }
  // The last group loads tile t into slot t at the head of tile
  // t + K - lhsTilesAhead, which must come after tile t's pushes: at
  // most K - 1 tiles ahead.
  lastGroupAheadTiles = std::min(perGroup, kTiles - 1 - spareLhsSlots);
  assert(lhsTilesAhead() <= kTiles - 1 && "the last group's slot is free");
  // The next chunk's first group then loads its weights and the tiles not
  // loaded ahead; the chunk's last stores fit beside them if that is
  // less than the MXUs' time for its pushes (not tileCycles, an estimate
  // from above: plans a few percent from DMA-bound measured slower).
  double firstGroupLoads = double(kTiles) * tileLoadCycles() +
                           double(kTiles - lhsTilesAhead()) * lhsTile;
  // And only where, stored at once, they would stall the next chunk's
  // loads, which the last group prefetched two K tiles of, by more than
  // half their time: a smaller stall did not pay for the selects that
  // find the group before in every storing tile (measured on v3).
  double pushCycles = double(kTiles * terms * kSublanes) * blocksPerMxu(chunk);
  double prefetchedSpare = double(std::min<int64_t>(kTiles, 2)) *
                           (pushCycles / double(kTiles) - tileLoadCycles());
  storesAcrossChunks = defersStores && lhsTilesAhead() > 0 &&
                       firstGroupLoads + stores <= pushCycles &&
                       stores - prefetchedSpare > stores / 2;
  popsAcrossChunks =
      storesAcrossChunks && popsInNextGroup && rowBlocks % chunk == 0;
}

double MatmulKernel::lastTileStoresSaving() const {
  // The stores start once the first piece is popped, not after the
  // tile's pushes and their drain.
  double blockCycles = double(kMxuPushCycles);
  int64_t lastBlocks = lastChunkOf(chunk);
  double saved = blockCycles * double(blocksPerMxu(lastBlocks)) +
                 double(kMxuPipelineCycles) -
                 blockCycles * double(kOwnPopLagBlocks + kOwnFirstStoreBlocks);
  double tests = ownLoopTestCycles();
  // The group before's stores, from the DMA engine's walk over the
  // group's earlier tiles: a tile's loads issued at its start, its piece
  // of the stores at its end (storingTiles).
  double tile = tileCycles(lastBlocks);
  double stores = hbmCycles(int64_t(groupBlocks) * chunk);
  int64_t pieces = storingTiles();
  double dmaDone = 0.0;
  for (int64_t k = 0; k + 1 < kTiles; ++k) {
    dmaDone = std::max(dmaDone, double(k) * tile) + tileLoadCycles();
    if (k < pieces)
      dmaDone =
          std::max(dmaDone, double(k + 1) * tile) + stores / double(pieces);
  }
  double firstPop =
      double(kTiles - 1) * tile + blockCycles * double(kOwnPopLagBlocks);
  return saved - tests - std::max(0.0, dmaDone - firstPop);
}

double MatmulKernel::piecesSaving() const {
  // Bound by its loads, a chunk's first group ends a tile's pushes after
  // its last LHS tile is in, or, pieced, an iteration's: in the kernel's
  // first chunk, and in every chunk that loads its whole LHS itself.
  double lhsTile = hbmCycles(int64_t(lhsBuffers.size()) * chunk);
  if (tileLoadCycles() + lhsTile <= tileCycles(chunk))
    return 0.0;
  // Where the group's last tile stages the next group's first weights,
  // it waits for them, behind the pieces in the DMA queue, two unrolled
  // iterations before its end.
  double blockCycles = double(kMxuPushCycles);
  double pieceEnd = blockCycles * double(kUnroll);
  if (stagesAcrossGroups)
    pieceEnd = std::max(
        pieceEnd, tileLoadCycles() +
                      blockCycles * double(kStageAheadIterations * kUnroll));
  double saved = blockCycles * double(blocksPerMxu(chunk)) - pieceEnd;
  double boundChunks =
      piecesEveryChunk() ? double(lhs.batch * chunksOf(chunk)) : 1.0;
  double tests = ownLoopTestCycles();
  return saved * boundChunks - tests;
}

int64_t MatmulKernel::lastTileStores() const {
  int64_t wholeBlocks = lastChunkWholeBlocks();
  int64_t pieces =
      llvm::divideCeil(wholeBlocks - kOwnPopLagBlocks - kOwnFirstStoreBlocks,
                       kOwnStoreBlocks) +
      2;
  return lastGroupMxus() * pieces;
}

int64_t MatmulKernel::fitChunk(int64_t limit, bool resident) const {
  // A packed LHS tile holds two row blocks, so a chunk but the only one
  // holds pairs.
  int64_t minChunk = anyPairs ? 2 : 1;
  int64_t blocks = limit;
  while (vmemRows(blocks, resident) > kVmemRows && blocks > minChunk)
    blocks /= 2;
  if (anyPairs && blocks < rowBlocks && blocks % 2 != 0)
    blocks = std::max<int64_t>(2, blocks - 1);
  // Halving may leave up to half of VMEM unused: a resident LHS of K =
  // 4096 fits 110 row blocks, not 128, and halving reads the weights once
  // per 64. The largest multiple of kUnroll (even, and a whole number of
  // unrolled push iterations) between the halved chunk and twice it that
  // fits is taken when it needs fewer chunks, each of which reads every
  // weight again.
  for (int64_t wider = std::min(limit, 2 * blocks) / kUnroll * kUnroll;
       wider > blocks && blocks >= kUnroll; wider -= kUnroll)
    if (vmemRows(wider, resident) <= kVmemRows &&
        chunksOf(wider) < chunksOf(blocks))
      return wider;
  return vmemRows(blocks, resident) <= kVmemRows ? blocks : 0;
}

int64_t MatmulKernel::tilesRead(int64_t blocks, bool resident) const {
  // Each buffer counted as f32: both plans read the same buffers.
  int64_t lhsTiles = int64_t(lhsBuffers.size()) * lhs.batch * rowBlocks *
                     kTiles;
  int64_t rhsTiles = int64_t(rhsBuffers.size()) * lhs.batch * kTiles *
                     nBlocks * (kMxuDim / kSublanes);
  return lhsTiles * (resident ? 1 : columnGroups()) +
         rhsTiles * chunksOf(blocks);
}

double MatmulKernel::tileCycles(int64_t blocks) const {
  // Per term and K tile of a column group: each row block takes a push
  // per MXU, one bundle each, and about 2 more (its load, and the loop's
  // address and branch shared by kUnroll blocks), or the push's 8 cycles
  // of MXU input if more; and per latch (termOrder) the 128 cycles its
  // weights take to shift in, less what the pushes staged ahead of (the
  // term before's, or staging across tiles or from the split ahead the
  // tile before's but in tile 0) stream meanwhile. Per K tile, about 100
  // cycles more outside the push loops (the waits, the loops' setup) and
  // its share of the group's epilogue (a pop a bundle, every MXU's blocks,
  // then the next group's first latch); and about 7 cycles for each vreg
  // the split of the K tile's operands makes its parts from in a loop of
  // its own (the unrolled split loop), about 3 for one a push loop splits
  // (splitsLhsInPushes, splitsWeightsAhead: what its rounding adds to the
  // pushes' time; a group's first tile splits its weights in a loop). All
  // were measured in the simulator (docs/Compiler.md, "Tiling and
  // memory") before the bundler spaced pushes, which made the rounding a
  // push loop adds smaller, but the 100 cycles and the epilogue's share,
  // re-measured since ("Chunks as wide as VMEM allows").
  // With the rows split, a block is one push on one of the MXUs.
  double perBlock = splitsRows ? std::max<double>(double(kSublanes) / mxus, 3)
                               : std::max<double>(kSublanes, mxus + 2);
  double lhsSplitVregs = double(blocks * lhsParts.buffersSplit());
  double weightSplitVregs =
      double(groupBlocks * (kWeightRows / kTileRows) * rhsParts.buffersSplit());
  // Split ahead, a group's first tile (with one K tile, a chunk's first
  // group) splits its weights in a loop.
  double ownSplitShare =
      kTiles > 1 ? 1.0 / double(kTiles) : 1.0 / double(columnGroups());
  double splitCycles =
      (splitsLhsInPushes ? 3 : 7) * lhsSplitVregs +
      (splitsWeightsAhead ? 3 + 7.0 * ownSplitShare : 7) * weightSplitVregs;
  // What of a latch's shift-in the MXU's pushes before it do not cover.
  double exposed =
      std::max<double>(0, kMxuDim - kSublanes * blocksPerMxu(blocks));
  // Staged from the split loop only if the shortest chunk allows it.
  bool staged = stagesAcrossTiles || canSplitTwoAhead ||
                (splitsWeightsAhead && splitEndsEarly(lastChunkOf(blocks)));
  double firstLatch =
      staged ? (kMxuDim + exposed * double(kTiles - 1)) / double(kTiles)
             : kMxuDim;
  double latchCycles =
      firstLatch + exposed * double(llvm::count(latches, true) - 1);
  // Popped in the next group's pushes, only a chunk's last group's pops
  // take time of their own.
  double pops = double(splitsRows ? blocks : blocks * groupBlocks);
  double epilogueCycles =
      (popsInNextGroup ? pops / double(columnGroups()) : pops) + kMxuDim;
  return double(terms) * double(blocks) * perBlock + latchCycles + 100 +
         epilogueCycles / double(kTiles) + splitCycles;
}

double MatmulKernel::hbmCycles(int64_t tiles) const {
  double bytesPerCycle = double(chip.hbmBytesPerSecond) /
                         double(chip.clockHz) / chip.tensorCoresPerChip;
  return double(tiles * int64_t(kWordsPerTile) * 4) / bytesPerCycle;
}

double MatmulKernel::estimateCycles(int64_t blocks, bool resident) const {
  // Every chunk but the last has `blocks` row blocks.
  double chunkCycles = double(chunksOf(blocks) - 1) * tileCycles(blocks) +
                       tileCycles(lastChunkOf(blocks));
  double issue =
      double(lhs.batch * columnGroups()) * double(kTiles) * chunkCycles;
  return std::max(issue, hbmCycles(tilesMoved(blocks, resident)));
}

double MatmulKernel::tileLoadCycles() const {
  int64_t weightTiles =
      int64_t(rhsBuffers.size()) * groupBlocks * (kMxuDim / kSublanes);
  int64_t lhsTiles = residentLhs ? 0 : int64_t(lhsBuffers.size()) * chunk;
  return hbmCycles(weightTiles + lhsTiles);
}

bool MatmulKernel::loadsOutlastPushes() const {
  return tileLoadCycles() >= double(terms * kSublanes) * blocksPerMxu(chunk);
}

bool MatmulKernel::popsPayForStores(bool inHalves) const {
  // Popped in the next group's tile 0, a group's results go out from
  // there: their stores have the rest of that group's K tiles to finish in
  // before the group after waits for them (its pops reuse the staging
  // buffer), one tile fewer than from an epilogue of their own; with the
  // staging in halves, the K tiles of the group after that as well. What
  // of them that tile's spare DMA time no longer covers stalls the wait;
  // popping in the pushes saves the epilogue's pops, a bundle each.
  double spare = std::max(0.0, tileCycles(chunk) - tileLoadCycles());
  double stores = hbmCycles(int64_t(groupBlocks) * chunk);
  int64_t tilesToFinish = inHalves ? 2 * kTiles - 1 : kTiles - 1;
  double lostOverlap =
      std::min(spare, std::max(0.0, stores - double(tilesToFinish) * spare));
  // With two groups a chunk and a chunk after it, only the second pops,
  // saving one epilogue; the first's stores, issued after its first
  // term rather than before it, hold back the next chunk's first loads
  // unless the group's other terms and its own epilogue (a pop a bundle,
  // as tileCycles counts it) outlast them. 1024x128x640 on v4 was 2.4%
  // slower at HIGH (two more terms, 64 row blocks), 2.5% faster at
  // HIGHEST (five); 3x100x128x640 at HIGH 13.8% faster (13 row blocks).
  double afterFirstTerm =
      double((terms - 1) * kSublanes) * blocksPerMxu(chunk) +
      double(chunk * int64_t(groupBlocks)) + double(kMxuDim);
  if (inHalves && columnGroups() == 2 && lhs.batch * chunksOf(chunk) > 1 &&
      stores > afterFirstTerm)
    return false;
  return lostOverlap < double(chunk * int64_t(groupBlocks));
}

bool MatmulKernel::shouldDeferStores() const {
  // A later group's K tile loads its weights (and the LHS's K tile unless
  // resident) while the one before runs; the rest of the tile's time is
  // the engine's to spare. Stored at once, the results stall the next
  // group's loads when they take longer than the tiles prefetched ahead
  // of them spare: two when the last tile prefetches across groups (one
  // with a single K tile), else none (tile 0 is loaded after them).
  double spare = tileCycles(chunk) - tileLoadCycles();
  if (spare <= 0)
    return false;
  double stores = hbmCycles(int64_t(groupBlocks) * chunk);
  double prefetched =
      prefetchesAcross() ? double(std::min<int64_t>(kTiles, 2)) : 0;
  // Deferred, piece p goes out in tile p and the last tile takes the
  // rest: what the busiest tile's pieces take beyond what it spares
  // stalls its loads. Deferring must save at least half of what the
  // stores at once stall: it costs every tile the code that picks its
  // piece, and at once the stores overlap the epilogue's pops, which
  // this leaves out (measured: docs/Compiler.md, "Result stores spread
  // over the next group's K tiles").
  int64_t pieces = kStoresPerMxu * int64_t(groupBlocks);
  int64_t busiest = pieces - std::min(pieces, kTiles) + 1;
  double stallAtOnce = stores - prefetched * spare;
  double stallDeferred = stores / double(pieces) * double(busiest) - spare;
  return stallAtOnce > 0 && stallDeferred < stallAtOnce / 2;
}

Value MatmulKernel::lhsRow(KernelBuilder &b, unsigned buffer, Value k,
                           Value half, Value spareOffset) const {
  Value slot = b.add(residentLhs ? k : half,
                     int64_t(buffer) * lhsSlots(residentLhs));
  Value row = b.mul(slot, chunkRows);
  if (!spareOffset)
    return row;
  assert(residentLhs && spareLhsSlots > 0 && "spare slots hold the tile");
  Value inSpare = b.lessThan(k, b.index(spareLhsSlots));
  return b.add(row, b.select(inSpare, spareOffset, zero));
}

Value MatmulKernel::chunkSequence(KernelBuilder &b, Value batch,
                                  Value row0) const {
  Value chunkIndex = chunksOf(chunk) > 1 ? b.divide(row0, chunk) : zero;
  return b.add(b.mul(batch, chunksOf(chunk)), chunkIndex);
}

Value MatmulKernel::spareOffsetOf(KernelBuilder &b, Value batch,
                                  Value row0) const {
  Value odd = arith::AndIOp::create(b, chunkSequence(b, batch, row0), one);
  return b.mul(odd, kTiles * chunkRows);
}

Value MatmulKernel::rhsRow(KernelBuilder &b, unsigned buffer, Value half,
                           unsigned block) const {
  Value slot = b.add(half, int64_t(buffer) * 2);
  return b.add(b.mul(slot, groupBlocks * kWeightRows), block * kWeightRows);
}

scf::ForOp MatmulKernel::build(KernelBuilder &b) {
  lhsVmem = b.allocVmem(int64_t(lhsBuffers.size()) * lhsSlots(residentLhs) *
                        chunkRows);
  rhsVmem =
      b.allocVmem(int64_t(rhsBuffers.size()) * 2 * groupBlocks * kWeightRows);
  if (lhsParts.size())
    lhsPartsVmem = b.allocVmem(lhsParts.size() * chunkRows);
  if (rhsParts.size())
    rhsPartsVmem = b.allocVmem(rhsPartsRegions() * rhsPartsRegionRows());
  outVmem = b.allocVmem((stagesInHalves ? 2 : 1) * groupBlocks * chunkRows);
  accVmem = hasAcc ? b.allocVmem(groupBlocks * chunkRows) : Value();
  for (int64_t i = 0; i < epilogueInputs; ++i)
    epilogueVmem.push_back(b.allocVmem(groupBlocks * chunkRows));

  zero = b.index(0);
  one = b.index(1);
  eight = b.index(kTileRows);
  // With one K tile a chunk's column groups alternate halves, so with two
  // groups the second latches, on an MXU without a column block, weights
  // of half 1 that no group before wrote (its results are never popped,
  // but it reads the rows; with more groups the second, whose MXUs all
  // have one, writes them): zeroed once, they are written rows.
  if (kTiles == 1 && alternatesHalves() && columnGroups() == 2 &&
      !groupsDivideBlocks()) {
    Value zeros = b.splat(0.0f);
    for (unsigned buffer = 0; buffer < rhsBuffers.size(); ++buffer)
      for (unsigned m = unsigned(nBlocks % groupBlocks); m < groupBlocks; ++m)
        zeroWeightRowTiles(b, zeros, rhsRow(b, buffer, one, m), 0,
                           kWeightRows / kTileRows);
  }
  nBlocksV = b.index(nBlocks);
  kTilesV = b.index(kTiles);
  scf::ForOp outer = b.forLoop(lhs.batch, 1, [&](Value batch) {
    batchIndex = batch;
    outBatch = b.mul(batch, out.tilesPerBatch());
    b.forLoop(rowBlocks, chunk, [&](Value row0) {
      // A constant where the chunks divide the rows, so that the push
      // loops' bounds fold and a K tile's head computes none of them. With
      // one chunk the min folds once the chunk loop, which runs once, is
      // gone; a constant from the start would change the order
      // tpu-canonicalize visits the terms' scf.ifs in, and two on the same
      // condition would no longer merge.
      Value blocks = chunksOf(chunk) > 1
                         ? b.chunkCount(rowBlocks, chunk, row0)
                         : b.min(b.sub(b.index(rowBlocks), row0), chunk);
      b.forLoop(nBlocks, groupBlocks, [&](Value col0) {
        firstGroup =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, col0, zero);
        kernelOffset = crossesChunks || lastGroupLoadsNextChunk
                           ? b.add(b.add(batch, row0), col0)
                           : Value();
        groupOffset = crossesChunks ? kernelOffset : col0;
        // With either, only the kernel's first group loads its own.
        loadsOwnFirstTiles =
            kernelOffset ? arith::CmpIOp::create(b, arith::CmpIPredicate::eq,
                                                 kernelOffset, zero)
                               .getResult()
                         : firstGroup;
        if (alternatesHalves()) {
          // Only its parity matters (halfOf).
          groupIndex = columnGroups() > 1 ? b.divide(col0, groupBlocks) : zero;
          if (crossesChunks) {
            Value chunksBefore = chunkSequence(b, batch, row0);
            groupIndex = b.add(b.mul(chunksBefore, columnGroups()), groupIndex);
          }
        }
        if (stagesInHalves) {
          int64_t halfRows = groupBlocks * chunkRows;
          Value parity = arith::AndIOp::create(b, groupIndex, one);
          ownStaging = b.mul(parity, halfRows);
          previousStaging = b.sub(b.index(halfRows), ownStaging);
        }
        buildKLoop(b, row0, col0, blocks);
        if (!popsInNextGroup)
          return buildEpilogue(b, batch, row0, col0, blocks);
        // The kernel's last K tile popped and stored its group's results.
        if (storesInLastTile)
          return;
        Value popsOwn = popsAcrossChunks
                            ? isKernelLastGroup(b, batch, row0, col0)
                            : isLastGroup(b, col0);
        b.ifThen(popsOwn, [&] { buildEpilogue(b, batch, row0, col0, blocks); });
      });
    });
  });
  // The last epilogue's result DMAs, or the kernel's last K tile's; with
  // the staging in halves, the group before's too.
  int64_t lastStores = storesInLastTile ? lastTileStores()
                       : stagesInHalves ? 2 * storesPerGroup()
                                        : storesPerGroup();
  b.wait(kStoreSem, lastStores);
  b.dealloc({lhsVmem, rhsVmem, outVmem});
  for (Value vmem : {accVmem, lhsPartsVmem, rhsPartsVmem})
    if (vmem)
      b.dealloc(vmem);
  b.dealloc(epilogueVmem);
  return outer;
}

void MatmulKernel::issueLoads(KernelBuilder &b, Value k, Value half,
                              Value batch, Value row0, Value col0, Value blocks,
                              Value chunkFirst, bool ofNextChunk) {
  // A pieced LHS tile (piecesLhsTiles: any but tile 0) comes after its
  // weights, which the tile before waits for: the engine works in issue
  // order. So does a group's tile 0 whose weights are loaded two tiles
  // ahead (weightsTwoAhead): the group splits them in a loop of its own
  // while its LHS loads.
  bool weightsFirst = (piecesLhsTiles && !isConstantIntValue(k, 0)) ||
                      (weightsTwoAhead && isConstantIntValue(k, 0));
  if (weightsFirst)
    issueWeightLoads(b, k, half, batch, col0);
  issueLhsLoads(b, k, half, batch, row0, blocks, chunkFirst, ofNextChunk);
  if (!weightsFirst)
    issueWeightLoads(b, k, half, batch, col0);
}

void MatmulKernel::loadLhsTile(KernelBuilder &b, unsigned buffer, Value k,
                               Value half, Value batch, Value row0,
                               Value blocks, Value spareOffset, int64_t sem,
                               bool inPieces) {
  // A packed LHS's tile holds two row blocks: half the tiles, from row
  // tile row0 / 2. (With merged batches, the batch is 0.)
  Value lhsBuffer = lhsBuffers[buffer];
  bool pairs = blocksPerTile(lhsBuffer) == 2;
  Value rowTile = pairs ? b.halve(row0) : row0;
  Value count = pairs ? b.halve(b.add(blocks, 1)) : blocks;
  Value lhsBatch = b.mul(batch, tiledShapeOf(lhsBuffer).tilesPerBatch());
  Value lhsTile = b.add(b.add(lhsBatch, b.mul(rowTile, lhs.colTiles())), k);
  Value row = lhsRow(b, buffer, k, half, spareOffset);
  if (!inPieces)
    return b.dmaLoad(lhsBuffer, lhsTile, b.index(lhs.colTiles()), lhsVmem, row,
                     count, sem);
  // piecesLhsTiles: a DMA a whole unrolled iteration, the last with the
  // blocks left too (f32: a tile a row block).
  Value pieces = lhsPieces(b, blocks);
  Value lastPiece = b.add(pieces, -1);
  b.forLoop(zero, pieces, 1, [&](Value piece) {
    Value first = b.mul(piece, kUnroll);
    Value isLast = b.lessThan(b.sub(lastPiece, piece), one);
    Value rest = b.sub(blocks, first);
    Value pieceBlocks = b.select(isLast, rest, b.index(kUnroll));
    Value tile = b.add(lhsTile, b.mul(first, lhs.colTiles()));
    Value pieceRow = b.add(row, b.mul(first, kTileRows));
    b.dmaLoad(lhsBuffer, tile, b.index(lhs.colTiles()), lhsVmem, pieceRow,
              pieceBlocks, sem);
  });
}

void MatmulKernel::issueLhsLoads(KernelBuilder &b, Value k, Value half,
                                 Value batch, Value row0, Value blocks,
                                 Value chunkFirst, bool ofNextChunk) {
  // A chunk's first lhsTilesAhead tiles came with the chunk before, but
  // in the kernel's first chunk, which loads every tile. A tile loaded
  // here is never in a spare slot: from lhsTilesAhead on it is past them,
  // and the kernel's first chunk's index is even.
  auto loadAs = [&](int64_t sem, bool inPieces) {
    for (unsigned buffer = 0; buffer < lhsBuffers.size(); ++buffer)
      loadLhsTile(b, buffer, k, half, batch, row0, blocks,
                  /*spareOffset=*/Value(), sem, inPieces);
  };
  std::optional<int64_t> tile = getConstantIntValue(k);
  // A tile but tile 0 of a pieced chunk (piecesLhsTiles: every chunk, or
  // the kernel's first): a constant tile is one of a group's own first
  // two (the kernel's first chunk's, or with no prefetch across chunks
  // any chunk's) or of the next chunk's (pieced where every chunk is); a
  // K loop's is pieced where every chunk is, else in the kernel's first
  // chunk (batch + row0 is 0).
  auto load = [&](int64_t sem) {
    if (!piecesLhsTiles)
      return loadAs(sem, false);
    if (tile)
      return loadAs(sem, *tile >= 1 && (piecesEveryChunk() || !ofNextChunk));
    if (piecesEveryChunk())
      return loadAs(sem, true);
    Value laterChunk = b.lessThan(zero, b.add(batch, row0));
    b.ifThen(
        laterChunk, [&] { loadAs(sem, false); }, [&] { loadAs(sem, true); });
  };
  if (!residentLhs)
    return load(kLoadSem);
  // A resident LHS is loaded in the chunk's first group only, its
  // addresses made there too: a later group's K tiles, which load none,
  // computed them in their heads.
  bool ownTile = lhsTilesAhead() == 0 || (tile && *tile >= lhsTilesAhead());
  assert(!ofNextChunk || tile);
  if (!chunkFirst || (ofNextChunk && !ownTile))
    return;
  ifOneGroup(b, chunkFirst, [&] {
    if (ownTile)
      return load(kResidentSem);
    Value later = b.lessThan(zero, b.add(batch, row0));
    Value aheadLast = b.index(lhsTilesAhead() - 1);
    Value none = b.index(-1);
    Value ownAfter = b.select(later, aheadLast, none);
    b.ifThen(b.lessThan(ownAfter, k), [&] { load(kResidentSem); });
  });
}

MatmulKernel::ChunkPosition MatmulKernel::nextChunkPosition(KernelBuilder &b,
                                                            Value row0) {
  Value nextRow0 = b.add(row0, chunk);
  Value inBatch = b.lessThan(nextRow0, b.index(rowBlocks));
  Value nextBatch = b.add(batchIndex, 1);
  Value row = b.select(inBatch, nextRow0, zero);
  Value batch = b.select(inBatch, batchIndex, nextBatch);
  return {batch, row, b.chunkCount(rowBlocks, chunk, row)};
}

void MatmulKernel::loadNextChunkFirstTile(KernelBuilder &b, Value row0,
                                          Value col0) {
  Value chunkOffset = b.add(batchIndex, row0);
  Value hasNextChunk = b.lessThan(chunkOffset, b.index(lastChunkOffset()));
  ifOneGroup(b, isLastGroup(b, col0), [&] {
    b.ifThen(hasNextChunk, [&] {
      ChunkPosition next = nextChunkPosition(b, row0);
      Value chunkFirst = b.lessThan(zero, one);
      issueLoads(b, zero, zero, next.batch, next.row0, zero, next.blocks,
                 chunkFirst, /*ofNextChunk=*/true);
      if (weightsAcrossChunks())
        issueWeightLoads(b, zero, one, next.batch, b.index(groupBlocks));
    });
  });
}

void MatmulKernel::planAheadLoads(KernelBuilder &b, Value row0, Value col0) {
  // Group g between the chunk's first and last loads the next chunk's
  // tiles [(g - 1) Q, min(g Q, E)) in its last K tiles (Q aheadPerGroup,
  // E spareLhsSlots), or with period P in P - 1 of every P from its last
  // (aheadLoadPeriod, aheadWindow tiles after aheadAfter):
  // min(Q, E - (g - 1) Q, g Q) of them, none when that is not positive
  // (the first group, where g Q is 0, or past E); the last group
  // lastGroupAheadTiles; none without a next chunk.
  Value none = b.index(kTiles - 1);
  Value after = none;
  if (spareLhsSlots > 0) {
    Value groupAhead = middleWindowEnd(b, col0);
    Value spareLeft = b.sub(b.index(spareLhsSlots + aheadPerGroup), groupAhead);
    Value tiles = b.min(b.min(groupAhead, aheadPerGroup), spareLeft);
    // Past E a group's count is negative (where the middle groups after
    // the first take more than E): doubled it stays so; with period 3
    // only what is not negative is halved (a logical shift).
    if (aheadLoadPeriod == 2) {
      tiles = b.mul(tiles, 2);
    } else if (aheadLoadPeriod == 3) {
      Value halved = tiles;
      if ((columnGroups() - 3) * aheadPerGroup > spareLhsSlots)
        halved = b.select(b.lessThan(tiles, zero), zero, tiles);
      tiles = b.add(tiles, b.halve(halved));
    }
    after = b.min(b.sub(after, tiles), kTiles - 1);
  }
  Value lastGroup = isLastGroup(b, col0);
  Value lastAfter = b.index(kTiles - lastGroupAheadTiles - 1);
  Value groupAfter = b.select(lastGroup, lastAfter, after);
  Value chunkOffset = b.add(batchIndex, row0);
  Value lastChunk = b.index(lastChunkOffset());
  Value hasNextChunk = b.lessThan(chunkOffset, lastChunk);
  aheadAfter = b.select(hasNextChunk, groupAfter, none);
}

void MatmulKernel::loadNextChunkTile(KernelBuilder &b, Value k) {
  auto load = [&] {
    // The last group loads tiles [E, E + L) in its last L K tiles (E
    // spareLhsSlots, L lastGroupAheadTiles): tile k + E + L - K. Group g
    // between, those up to min(g Q, E) in its last K tiles
    // (planAheadLoads): tile k + min(g Q, E) - K; or, with period P, in
    // P - 1 of every P tiles from its last, tile min(g Q, E) - 1 - (f -
    // (f + 1) / P), f = K - 1 - k being how far k is from the last (with
    // P = 2, min(g Q, E) - (K + 1 - k) / 2).
    Value lastTile = b.add(k, lhsTilesAhead() - kTiles);
    Value tile = lastTile;
    if (spareLhsSlots > 0) {
      Value lastGroup = isLastGroup(b, groupCol0);
      Value groupEnd = b.min(middleWindowEnd(b, groupCol0), spareLhsSlots);
      Value middleTile;
      if (aheadLoadPeriod == 1)
        middleTile = b.add(k, b.add(groupEnd, -kTiles));
      else if (aheadLoadPeriod == 2)
        middleTile = b.sub(groupEnd, b.halve(b.sub(b.index(kTiles + 1), k)));
      else {
        Value fromEnd = b.sub(b.index(kTiles), k);
        Value third = thirdOf(b, fromEnd);
        middleTile = b.add(b.sub(groupEnd, fromEnd), third);
      }
      tile = b.select(lastGroup, lastTile, middleTile);
    }
    ChunkPosition next = nextChunkPosition(b, groupRow0);
    Value spareOffset =
        spareLhsSlots > 0 ? spareOffsetOf(b, next.batch, next.row0) : Value();
    for (unsigned buffer = 0; buffer < lhsBuffers.size(); ++buffer)
      loadLhsTile(b, buffer, tile, /*half=*/Value(), next.batch, next.row0,
                  next.blocks, spareOffset, kResidentSem);
  };
  b.ifThen(b.lessThan(aheadAfter, k), [&] {
    if (aheadLoadPeriod == 1)
      return load();
    // Spread, a middle group skips the tiles an odd number before its
    // last, or with period 3 those f + 1 = K - k a multiple of 3 before;
    // the last group skips none.
    if (aheadLoadPeriod == 3) {
      Value fromEnd = b.sub(b.index(kTiles), k);
      Value remainder = b.sub(fromEnd, b.mul(thirdOf(b, fromEnd), 3));
      Value lastGroup = isLastGroup(b, groupCol0);
      Value middleLoads = b.select(lastGroup, one, remainder);
      b.ifThen(
          arith::CmpIOp::create(b, arith::CmpIPredicate::ne, middleLoads, zero),
          load);
      return;
    }
    Value odd = arith::AndIOp::create(b, k, one);
    Value skips = (kTiles - 1) % 2 ? b.sub(one, odd) : odd;
    Value lastGroup = isLastGroup(b, groupCol0);
    Value middleSkips = b.select(lastGroup, zero, skips);
    b.ifThen(b.lessThan(middleSkips, one), load);
  });
}

void MatmulKernel::issueWeightLoads(KernelBuilder &b, Value k, Value half,
                                    Value batch, Value col0) {
  for (auto [index, rhsBuffer] : llvm::enumerate(rhsBuffers)) {
    TiledShape rhs = tiledShapeOf(rhsBuffer);
    int64_t rhsRowTiles = weightRowTiles(rhsBuffer);
    int64_t lastRowTiles = lastWeightRowTiles(rhsBuffer);
    Value tiles = b.index(rhsRowTiles);
    if (lastRowTiles < rhsRowTiles) {
      // One statement per op: the IR's order must not depend on the
      // compiler's order of evaluating arguments.
      Value notLast = b.lessThan(k, b.index(kTiles - 1));
      tiles = b.select(notLast, tiles, b.index(lastRowTiles));
    }
    // A rank-2 RHS is every batch's.
    Value rhsBatch = cast<ShapedType>(rhsBuffer.getType()).getRank() == 2
                         ? zero
                         : b.mul(batch, rhs.tilesPerBatch());
    // Column block m's first tile is the group's plus m: an add of a
    // constant, which each DMA's address takes in its immediate.
    Value groupTile =
        b.add(b.add(rhsBatch, b.mul(k, rhsRowTiles * rhs.colTiles())), col0);
    for (unsigned m = 0; m < groupBlocks; ++m) {
      Value col = b.add(col0, m);
      // An MXU past the last column block moves nothing, so the wait after
      // counts the same transfers every time.
      Value count = b.select(hasColumn(b, col), tiles, zero);
      Value rhsTile = b.add(groupTile, m);
      Value row = rhsRow(b, unsigned(index), half, m);
      Value stride = b.index(rhs.colTiles());
      b.dmaLoad(rhsBuffer, rhsTile, stride, rhsVmem, row, count, weightSem());
    }
  }
}

/// One column group's K loop: tile k + 1 is prefetched while tile k runs,
/// and from the last tile the next column group's first, and after it its
/// second (prefetchesAcross); then every term's passes over tile k.
void MatmulKernel::buildKLoop(KernelBuilder &b, Value row0, Value col0,
                              Value blocks) {
  // Tile 0: loaded here, unless the group before prefetched it (every
  // group but a chunk's first, or with crossesChunks the kernel's first,
  // whose index is 0: half 0), or the chunk before's last group loaded it
  // (lastGroupLoadsNextChunk: but in the kernel's first group).
  if (!prefetchesAcross())
    issueLoads(b, zero, zero, batchIndex, row0, col0, blocks, firstGroup);
  else
    b.ifThen(loadsOwnFirstTiles, [&] {
      issueLoads(b, zero, zero, batchIndex, row0, col0, blocks, firstGroup);
    });
  // Tile `k` of the next column group of the chunk, if there is one;
  // with crossesChunks, else of the next chunk's first group, else of the
  // next batch's: both operands' (`operands`), or with weightsAcrossGroups
  // the LHS's at the usual points and the weights' two K tiles ahead.
  enum class Operands { Both, Lhs, Weights };
  auto prefetchNextGroup = [&](Value k, Operands operands) {
    auto load = [&](Value half, Value batch, Value row, Value col, Value count,
                    Value chunkFirst, bool ofNextChunk) {
      if (operands == Operands::Both)
        return issueLoads(b, k, half, batch, row, col, count, chunkFirst,
                          ofNextChunk);
      if (operands == Operands::Lhs)
        return issueLhsLoads(b, k, half, batch, row, count, chunkFirst,
                             ofNextChunk);
      issueWeightLoads(b, k, half, batch, col);
    };
    Value nextCol0 = b.add(col0, groupBlocks);
    Value inChunk = b.lessThan(nextCol0, nBlocksV);
    auto loadNext = [&] {
      load(halfOf(b, k, 1), batchIndex, row0, nextCol0, blocks,
           /*chunkFirst=*/Value(), /*ofNextChunk=*/false);
    };
    if (!crossesChunks && weightsAcrossChunks()) {
      // A later chunk's first group's next came with its own: but there,
      // min(batch + row0, 1) - 1 < col0.
      Value chunkOffset = b.add(batchIndex, row0);
      Value laterChunk = b.min(chunkOffset, 1);
      Value bound = b.sub(laterChunk, one);
      Value notAhead = b.lessThan(bound, col0);
      return b.ifThen(inChunk, [&] { b.ifThen(notAhead, loadNext); });
    }
    if (!crossesChunks)
      return b.ifThen(inChunk, loadNext);
    // One set of loads, to whichever group is next: selects, not branches,
    // so the program holds the loads once (but for a resident LHS, which
    // only the next chunk's first group loads); the kernel's last group
    // has no next (lastGroupOffset).
    Value hasNext = b.lessThan(groupOffset, b.index(lastGroupOffset()));
    b.ifThen(hasNext, [&] {
      ChunkPosition next = nextChunkPosition(b, row0);
      Value row = b.select(inChunk, row0, next.row0);
      Value batch = b.select(inChunk, batchIndex, next.batch);
      Value col = b.select(inChunk, nextCol0, zero);
      Value count = b.select(inChunk, blocks, next.blocks);
      Value half = halfOf(b, k, 1);
      Value nextChunk = b.lessThan(b.index(nBlocks - 1), nextCol0);
      load(half, batch, row, col, count, nextChunk, /*ofNextChunk=*/true);
    });
  };
  // The next group's prefetch at the last tile and after it.
  Operands nextGroupFirst =
      weightsAcrossGroups ? Operands::Lhs : Operands::Both;
  activeBlocks = b.min(b.sub(nBlocksV, col0), groupBlocks);
  weightVregs = b.mul(activeBlocks, kWeightRows / kTileRows);
  groupRow0 = row0;
  groupCol0 = col0;
  if (lhsTilesAhead() > 0)
    planAheadLoads(b, row0, col0);
  // The chunk's spare slots' offset, made once a group where one term's
  // push loop leaves registers to spare (a K tile's head made it in a
  // chain of five ops before its first branch); else in each K tile, as
  // a value live across the K loop took registers from HIGH's loops.
  bool spareOffsetPerGroup = spareLhsSlots > 0 && terms == 1;
  Value groupSpareOffset =
      spareOffsetPerGroup ? spareOffsetOf(b, batchIndex, row0) : Value();
  // So is the group before's first result tile where its K tiles store
  // its results and that is all of its position they read: made in each
  // storing tile, it was a chain of about 12 bundles there (with stores
  // across chunks, a select among three).
  groupPrevious.reset();
  if (defersStores && terms == 1 && storesAcrossChunks &&
      groupsDivideBlocks() && rowBlocks % chunk == 0)
    groupPrevious = previousGroupPosition(b, row0, col0, blocks);
  // The kernel's last tile is its last group's last: k + batch + row0 +
  // col0 is at most the sum of the last of each, and that only there.
  if (storesInLastTile) {
    Value offset = b.add(b.add(batchIndex, row0), col0);
    lastTileOffset = b.sub(b.index(lastGroupOffset() + kTiles - 1), offset);
  }
  b.forLoop(kTiles, 1, [&](Value k) {
    Value half = halfOf(b, k);
    Value spareOffset = groupSpareOffset;
    if (spareLhsSlots > 0 && !spareOffsetPerGroup)
      spareOffset = spareOffsetOf(b, batchIndex, row0);
    tileSpareOffset = spareOffset;
    tileLhsRows.clear();
    for (unsigned buffer = 0; buffer < lhsBuffers.size(); ++buffer)
      tileLhsRows.push_back(lhsRow(b, buffer, k, half, spareOffset));
    Value next = b.add(k, 1);
    Value isFirstTile =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, k, zero);
    // With the weights split ahead, tile k's first weights were made in the
    // tile before: staged first thing, they shift in while this loop's head
    // issues its DMAs and the first term splits its first LHS rows. The
    // group's first tile splits its own below.
    if (splitsWeightsAhead && !stagesSplitAhead && !weightsTwoAhead)
      b.ifThen(b.lessThan(zero, k),
               [&] { stageWeights(b, order.front(), half); });
    // Staging across tiles, tile k - 1's last term loaded tile k + 1's
    // weights once its own latches were made (buildPasses): the DMA
    // engine has them to do while tile k - 1's last pushes wait for tile
    // k's loads, instead of waiting for this prefetch. Tile 1's come here.
    auto prefetch = [&] {
      Value nextHalf = b.sub(one, half);
      // Loading weights two tiles ahead, tile k + 1's came with tile k - 1
      // but in tile 0 (below: tile k + 2's), where they go first: tile 0's
      // splitting term splits them, before tile 1's LHS is read.
      if (weightsTwoAhead) {
        ifOneTile(b, isFirstTile, [&] {
          issueWeightLoads(b, next, nextHalf, batchIndex, col0);
        });
        return issueLhsLoads(b, next, nextHalf, batchIndex, row0, blocks,
                             firstGroup);
      }
      if (!stagesAcrossTiles)
        return issueLoads(b, next, nextHalf, batchIndex, row0, col0, blocks,
                          firstGroup);
      auto weightsOfTile1 = [&] {
        ifOneTile(b, isFirstTile, [&] {
          issueWeightLoads(b, next, nextHalf, batchIndex, col0);
        });
      };
      // Pieced, after its weights (issueLoads).
      if (piecesLhsTiles)
        weightsOfTile1();
      issueLhsLoads(b, next, nextHalf, batchIndex, row0, blocks, firstGroup);
      if (!piecesLhsTiles)
        weightsOfTile1();
    };
    if (prefetchesAcross()) {
      // A later group's tile 1 came with its tile 0: prefetch unless k is
      // 0 and the group's offset is not, that is when min(offset, 1) <
      // k + 1.
      Value ownTile1 = b.lessThan(b.min(groupOffset, 1), next);
      ifMostTiles(
          b, b.lessThan(next, kTilesV), [&] { b.ifThen(ownTile1, prefetch); },
          [&] { prefetchNextGroup(b.index(0), nextGroupFirst); });
    } else {
      b.ifThen(b.lessThan(next, kTilesV), prefetch);
    }
    // Behind this tile's loads and the next group's first, which are
    // needed sooner.
    if (lhsTilesAhead() > 0)
      loadNextChunkTile(b, k);
    if (defersStores && !popsInNextGroup)
      storePreviousGroup(b, k, row0, col0, blocks);
    // With the weights split ahead, the tile before waited for this one's
    // loads (with weightsTwoAhead its weights, and maybe its LHS) and split
    // its weights, and staged the first part (or the loop's head did,
    // above); the group's first tile does all three here (with
    // weightsAcrossGroups, only the group that loads its own).
    // Staging across tiles, the tile before waited for the loads (but a
    // pieced LHS) and staged the first weights: only the first tile does
    // either.
    // A later group's tile 0 too: the group before's last tile waited for
    // its loads and staged its weights.
    auto unlessStagedAhead = [&](function_ref<void()> body) {
      if (!stagesAcrossTiles)
        return body();
      ifOneTile(b, isFirstTile, [&] {
        if (stagesAcrossGroups)
          b.ifThen(firstGroup, body);
        else
          body();
      });
    };
    if (splitsWeightsAhead) {
      // With weightsTwoAhead, waitForTile waits for the LHS only.
      auto waitForLhs = [&] { waitForTile(b, k, half); };
      // Loaded two tiles ahead, the weights came before the LHS
      // (issueLoads): split while it loads.
      auto splitOwn = [&] {
        if (weightsTwoAhead)
          waitForWeights(b, k, half);
        else
          waitForTile(b, k, half);
        splitWeights(b, half, half);
        stageWeights(b, order.front(), half);
        if (weightsTwoAhead)
          waitForLhs();
        if (splitsFirstLhsAhead)
          splitFirstLhsRows(b, blocks);
      };
      auto stageSplit = [&] { stageWeights(b, order.front(), half); };
      if (weightsAcrossChunks()) {
        // The group before split this group's weights (in a later chunk's
        // first group, the chunk before's last), but in the kernel's first
        // group; a chunk's first group waits for its LHS.
        ifOneGroup(
            b, firstGroup,
            [&] {
              b.ifThen(loadsOwnFirstTiles, splitOwn, [&] {
                b.wait(kResidentSem, int64_t(lhsBuffers.size()));
                stageSplit();
              });
            },
            stageSplit);
      } else if (splitsNextGroupWeights()) {
        // The group before split this group's weights, but in the chunk's
        // first group.
        ifOneGroup(b, firstGroup, splitOwn, stageSplit);
      } else if (!weightsTwoAhead) {
        ifOneTile(b, isFirstTile, splitOwn);
      } else {
        // The tile before split this one's weights (waited for there) and
        // staged them, and with weightsAcrossGroups the group before's
        // last tile a later group's first's: only the LHS is waited for
        // here, unless the tile before did that too (splitsFirstLhsAhead:
        // not a group's first tile).
        auto firstTile = [&] {
          if (!weightsAcrossGroups)
            return splitOwn();
          b.ifThen(loadsOwnFirstTiles, splitOwn, [&] {
            waitForLhs();
            if (splitsFirstLhsAhead)
              splitFirstLhsRows(b, blocks);
          });
        };
        if (splitsFirstLhsAhead)
          ifOneTile(b, isFirstTile, firstTile);
        else
          ifOneTile(b, isFirstTile, firstTile, waitForLhs);
        // Into the raw half this tile's weights came in, which no term
        // reads after their split (the tile before's, or tile 0's just
        // above); past the last tile, the next group's first two, into
        // the halves they take (halfOf: the same parity).
        Value tileAfter = b.add(k, 2);
        Value ownAfter = b.lessThan(tileAfter, kTilesV);
        auto ownWeights = [&] {
          issueWeightLoads(b, tileAfter, half, batchIndex, col0);
        };
        if (!weightsAcrossGroups)
          b.ifThen(ownAfter, ownWeights);
        else
          ifMostTiles(b, ownAfter, ownWeights, [&] {
            prefetchNextGroup(b.sub(tileAfter, kTilesV), Operands::Weights);
          });
      }
      splitLhs(b, blocks);
    } else {
      // (Staging across tiles, only tile 0 waits here.)
      unlessStagedAhead(
          [&] { waitForTile(b, stagesAcrossTiles ? zero : k, half); });
      splitLhs(b, blocks);
      splitWeights(b, half, zero);
      unlessStagedAhead([&] { stageWeights(b, order.front(), half); });
    }
    for (size_t position = 0; position < order.size(); ++position) {
      buildPasses(b, position, k, half, isFirstTile, blocks);
      if (lastGroupLoadsNextChunk && int64_t(position) == lastRawLhsPosition())
        loadNextChunkFirstTile(b, row0, col0);
      // Popped in the first term's pushes of tile 0 (popsInNextGroup), the
      // group before's results are stored once those are issued.
      if (position == 0 && popsInNextGroup)
        storePoppedGroup(b, k, isFirstTile, row0, col0, blocks);
    }
  });
  // The next group's tile 1 as well, into the last tile's half, which it
  // has finished with: issued before this group's result stores, it does
  // not wait in the DMA queue behind them, as it would from the next
  // group's tile 0.
  if (prefetchesAcross() && kTiles > 1)
    prefetchNextGroup(b.index(1), nextGroupFirst);
}

Value MatmulKernel::halfOf(KernelBuilder &b, Value k,
                           int64_t groupsAhead) const {
  if (!alternatesHalves()) {
    if (std::optional<int64_t> constant = getConstantIntValue(k))
      return b.index(*constant % 2);
    return arith::AndIOp::create(b, k, one);
  }
  return arith::AndIOp::create(b, b.add(b.add(k, groupIndex), groupsAhead),
                               one);
}

void MatmulKernel::splitVregs(KernelBuilder &b, Value source, Value from,
                              Value target, Value to, int64_t count,
                              const PartSlots &parts, unsigned buffer,
                              int64_t slotRows) {
  Rounding rounding = op.getSplit().value_or(Rounding::NearestEven);
  SmallVector<int64_t, 3> made = parts.partsOf(buffer);
  // Part 0 of a split into 2 or more is the guarded hi.
  size_t splitInto =
      size_t(std::max<int64_t>(2, *llvm::max_element(made) + 1));
  // All loads first, so the bundler can overlap them with the rounding.
  SmallVector<Value, kUnroll> vregs;
  for (int64_t i = 0; i < count; ++i)
    vregs.push_back(b.load(source, b.add(from, i * kTileRows)));
  SmallVector<Value, 3> partRows;
  for (int64_t part : made)
    partRows.push_back(b.add(to, parts.slotOf(buffer, part) * slotRows));
  for (auto [i, vreg] : llvm::enumerate(vregs)) {
    SmallVector<Value, 3> values = b.splitToBF16(vreg, splitInto, rounding);
    for (auto [part, partRow] : llvm::zip(made, partRows))
      b.store(values[part], target, b.add(partRow, int64_t(i) * kTileRows));
  }
}

void MatmulKernel::splitLhsRows(KernelBuilder &b, Value row, int64_t count,
                                ArrayRef<Value> tileRows) {
  if (tileRows.empty())
    tileRows = tileLhsRows;
  for (unsigned buffer = 0; buffer < lhsBuffers.size(); ++buffer)
    if (!lhsParts.partsOf(buffer).empty())
      splitVregs(b, lhsVmem, b.add(tileRows[buffer], row), lhsPartsVmem, row,
                 count, lhsParts, buffer, chunkRows);
}

void MatmulKernel::splitFirstLhsRows(KernelBuilder &b, Value blocks) {
  forEachVregRow(b, b.min(blocks, kUnroll),
                 [&](Value row, int64_t n) { splitLhsRows(b, row, n); });
}

void MatmulKernel::zeroWeightRowTiles(KernelBuilder &b, Value zeros,
                                      Value block, int64_t from, int64_t to) {
  for (int64_t t = from; t < to; ++t)
    b.store(zeros, rhsVmem, b.add(block, t * kTileRows));
}

int64_t MatmulKernel::weightRowTiles(Value rhs) const {
  return kMxuDim / tiledShapeOf(rhs).tileRows();
}

int64_t MatmulKernel::lastWeightRowTiles(Value rhs) const {
  return tiledShapeOf(rhs).rowTiles() - (kTiles - 1) * weightRowTiles(rhs);
}

void MatmulKernel::waitForTile(KernelBuilder &b, Value tile, Value half,
                               bool ofNextGroup) {
  int64_t lhsLoads = int64_t(lhsBuffers.size());
  int64_t rhsLoads = int64_t(rhsBuffers.size()) * groupBlocks;
  // Pieced tiles (piecesLhsTiles) wait for their pieces as they push:
  // a chunk's first group waits here for tile 0, and for the others only
  // in a later chunk where only the kernel's first is pieced. (A tile not
  // known to be 0 is k + 1, waited for by tile k's staging.)
  auto waitWhole = [&] { b.wait(kResidentSem, lhsLoads); };
  std::optional<int64_t> constant = getConstantIntValue(tile);
  if (residentLhs && !ofNextGroup)
    ifOneGroup(b, firstGroup, [&] {
      if (!piecesLhsTiles || (constant && *constant == 0))
        return waitWhole();
      if (!piecesEveryChunk())
        b.ifThen(b.lessThan(zero, b.add(batchIndex, groupRow0)), waitWhole);
    });
  // Loaded two tiles ahead, the weights count on a semaphore of their own
  // and are waited for apart.
  if (weightsTwoAhead) {
    if (!residentLhs)
      b.wait(kLoadSem, lhsLoads);
    return;
  }
  b.wait(kLoadSem, residentLhs ? rhsLoads : lhsLoads + rhsLoads);
  waitForWeights(b, tile, half, /*counted=*/true);
}

void MatmulKernel::waitForWeights(KernelBuilder &b, Value tile, Value half,
                                  bool counted) {
  if (!counted)
    b.wait(kWeightSem, int64_t(rhsBuffers.size()) * groupBlocks);
  // The loads are in, and every weight load of this half's previous tile
  // has shifted in (each was latched since, and a latch waits for its
  // load; with weightsTwoAhead raw weights are never latched, and the
  // split that read this half's last tile is done), so the stores race
  // with neither. Only the group's column blocks (activeBlocks): an MXU
  // past them is never popped.
  for (auto [index, rhsBuffer] : llvm::enumerate(rhsBuffers)) {
    int64_t lastRowTiles = lastWeightRowTiles(rhsBuffer);
    if (lastRowTiles == weightRowTiles(rhsBuffer))
      continue;
    b.ifThen(b.lessThan(b.index(kTiles - 2), tile), [&] {
      Value zeros = b.splat(0.0f);
      Value block = rhsRow(b, unsigned(index), half, 0);
      b.forLoop(zero, activeBlocks, 1, [&](Value m) {
        zeroWeightRowTiles(b, zeros, b.add(block, b.mul(m, kWeightRows)),
                           lastRowTiles, weightRowTiles(rhsBuffer));
      });
    });
  }
}

void MatmulKernel::splitWeightRows(KernelBuilder &b, Value half,
                                   Value region, Value row, int64_t count) {
  Value to = b.add(b.mul(region, rhsPartsRegionRows()), row);
  for (unsigned buffer = 0; buffer < rhsBuffers.size(); ++buffer)
    if (!rhsParts.partsOf(buffer).empty())
      splitVregs(b, rhsVmem, b.add(rhsRow(b, buffer, half, 0), row),
                 rhsPartsVmem, to, count, rhsParts, buffer,
                 groupBlocks * kWeightRows);
}

void MatmulKernel::splitLhs(KernelBuilder &b, Value blocks) {
  if (lhsParts.size() && !splitsLhsInPushes)
    forEachVregRow(b, blocks,
                   [&](Value row, int64_t n) { splitLhsRows(b, row, n); });
}

void MatmulKernel::splitWeights(KernelBuilder &b, Value half,
                                Value region) {
  if (rhsParts.size())
    forEachVregRow(b, weightVregs, [&](Value row, int64_t n) {
      splitWeightRows(b, half, region, row, n);
    });
}

void MatmulKernel::stageWeights(KernelBuilder &b, size_t term, Value half) {
  for (unsigned m = 0; m < mxus; ++m)
    loadWeights(b, term, m, weightLoadRow(b, term, half, m));
}

Value MatmulKernel::weightLoadRow(KernelBuilder &b, size_t term, Value half,
                                  unsigned m) {
  // With the rows split, every MXU latches the group's one block.
  unsigned block = splitsRows ? 0 : m;
  int64_t rhsPart = op.getRhsPart(unsigned(term));
  if (rhsPart < 0)
    return rhsRow(b, rhsOf[term], half, block);
  // A split part (f32 rows, never packed) is read from its slot; with the
  // weights split ahead, K tile k's parts are in region `half`.
  Value row = b.index(
      (rhsParts.slotOf(rhsOf[term], rhsPart) * groupBlocks + block) *
      kWeightRows);
  if (splitsWeightsAhead)
    row = b.add(b.mul(half, rhsPartsRegionRows()), row);
  return row;
}

void MatmulKernel::loadWeights(KernelBuilder &b, size_t term, unsigned m,
                               Value row) {
  bool part = op.getRhsPart(unsigned(term)) >= 0;
  MxuLoadWeightsOp::create(b, part ? rhsPartsVmem : rhsVmem, row, eight, m,
                           !part && isPacked(rhsBuffers[rhsOf[term]]));
}

std::optional<size_t> MatmulKernel::nextLatch(size_t position) const {
  for (size_t next = position + 1; next < order.size(); ++next)
    if (latches[next])
      return next;
  return std::nullopt;
}

/// The first K tile of a group's first term overwrites its slots, the
/// rest accumulate.
void MatmulKernel::buildPasses(KernelBuilder &b, size_t position, Value k,
                               Value half, Value isFirstTile, Value blocks) {
  size_t term = order[position];
  bool firstOfGroup = firstOfItsGroup(term);
  int64_t slotBase = int64_t(term) < nanFixed ? 0 : mainSlots;
  int64_t lhsPart = op.getLhsPart(unsigned(term));
  // The first term's loop may also make the LHS parts (splitsLhsInPushes):
  // an iteration splits the kUnroll row blocks the next one pushes, so
  // that its pushes wait for nothing it computes, and the bundler puts the
  // rounding beside them; the loop's first blocks are split before it,
  // and before the latch, so that they round while the weights shift in.
  // Near the chunk's end the blocks split are its last kUnroll, some split
  // again (the same values); the loop's tail, a block at a time, pushes
  // blocks the unrolled part has split.
  bool hostsLhsSplit = term == order.front() && splitsLhsInPushes;
  Value lastAhead;
  if (hostsLhsSplit) {
    if (splitsLhsOnce)
      ifOneGroup(b, firstGroup, [&] { splitFirstLhsRows(b, blocks); });
    else if (!splitsFirstLhsAhead)
      splitFirstLhsRows(b, blocks);
    lastAhead = b.mul(b.sub(blocks, b.index(kUnroll)), kTileRows);
  }
  // The loop being built splits (the popping loop does not with
  // splitsLhsOnce).
  bool loopSplitsLhs = hostsLhsSplit;
  if (latches[position]) {
    for (unsigned m = 0; m < mxus; ++m)
      MxuLatchOp::create(b, m);
    if (std::optional<size_t> next = nextLatch(position)) {
      stageWeights(b, order[*next], half);
    } else if (weightsTwoAhead) {
      // The tile's last latch: the next tile's first weights (with
      // weightsAcrossGroups, in the last tile the next group's), split by
      // the term before, shift in while this term pushes.
      Value hasNextWeights = weightsAcrossGroups
                                 ? hasTileAfter(b, k)
                                 : b.lessThan(b.add(k, 1), kTilesV);
      b.ifThen(hasNextWeights,
               [&] { stageWeights(b, order.front(), b.sub(one, half)); });
    }
  }
  // The K tiles with a push loop of their own: the group's first (k is
  // 0), the kernel's last (lastTileOffset - k is 0: storesInLastTile) and
  // a pieced chunk's first group's (its col0 is 0, or where only the
  // kernel's first chunk is pieced its offset: piecesLhsTiles). One
  // branch on the smallest finds them all, where the pushes branch on k
  // already; made here, it shares the latches' bundles, whose scalar
  // slots are free.
  Value hasOwnLoop, toLast;
  if (storesInLastTile || piecesLhsTiles) {
    Value nearest = k;
    if (storesInLastTile) {
      toLast = b.sub(lastTileOffset, k);
      nearest = b.min(nearest, toLast);
    }
    if (piecesLhsTiles)
      nearest = b.min(nearest, piecesEveryChunk() ? groupCol0 : groupOffset);
    hasOwnLoop =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, nearest, zero);
  }
  Value lhsBuffer = lhsBuffers[lhsOf[term]];
  Value lhsVmem = this->lhsVmem;
  Value lhsRow;
  if (lhsPart >= 0) {
    lhsVmem = lhsPartsVmem;
    lhsRow = b.index(lhsParts.slotOf(lhsOf[term], lhsPart) * chunkRows);
  } else {
    lhsRow = tileLhsRows[lhsOf[term]];
  }
  // A packed LHS tile is two row blocks: its low half's rows, then its
  // high half's, each pushed into its own slot.
  bool packedLhs = lhsPart < 0 && isPacked(lhsBuffer);
  int64_t blocksPerTile = lhsPart < 0 ? ::blocksPerTile(lhsBuffer) : 1;
  // Block `block` into every MXU, or with the rows split into its own,
  // MXU `index` % mxus where `index` is its place in an unrolled
  // iteration (whose first block is a multiple of kUnroll, and so of
  // mxus), else (a block left over, index < 0) MXU block % mxus.
  auto pushBlock = [&](Value rows, Value block, bool accumulate,
                       int64_t index) {
    Value slot = b.add(block, slotBase);
    if (!splitsRows) {
      for (unsigned m = 0; m < mxus; ++m)
        MxuPushOp::create(b, rows, slot, m, accumulate);
      return;
    }
    if (index >= 0) {
      MxuPushOp::create(b, rows, slot, unsigned(index % mxus), accumulate);
      return;
    }
    Value mxu = arith::AndIOp::create(b, block, b.index(mxus - 1));
    for (unsigned m = 0; m < mxus; ++m) {
      Value isM =
          arith::CmpIOp::create(b, arith::CmpIPredicate::eq, mxu, b.index(m));
      b.ifThen(isM, [&] { MxuPushOp::create(b, rows, slot, m, accumulate); });
    }
  };
  // The last term's loop (with weightsTwoAhead, weightSplitPosition's)
  // may also split the next K tile's weights (splitsWeightsAhead) into the
  // other region: kUnroll vregs an iteration, clamped to the last kUnroll,
  // and after the loop those it did not reach; with weightsAcrossGroups,
  // in the group's last tile, the next group's first. With no tile after
  // it splits its own weights again, from its own half (the other may be
  // being loaded with the next group's first tile) into a region nothing
  // reads before it is split again.
  bool hostsWeightSplit =
      splitsWeightsAhead && position == weightSplitPosition();
  Value aheadSource, aheadRegion, aheadVregs, lastAheadWeights, hasNext;
  if (hostsWeightSplit && splitsNextGroupWeights()) {
    // The next group's in the chunk, whose tile 0 (resident LHS: weights
    // alone) this group's head prefetched into the other half.
    // With weightsAcrossChunks, the next chunk's first group's, which this
    // group loaded after its first term: every group but the kernel's
    // last has one.
    if (weightsAcrossChunks()) {
      hasNext = b.lessThan(kernelOffset, b.index(lastGroupOffset()));
    } else {
      Value nextCol0 = b.add(groupCol0, groupBlocks);
      hasNext = b.lessThan(nextCol0, nBlocksV);
    }
    aheadRegion = b.sub(one, half);
    b.ifThen(hasNext,
             [&] { waitForTile(b, zero, aheadRegion, /*ofNextGroup=*/true); });
    aheadSource = b.select(hasNext, aheadRegion, half);
    // Across chunks the next group may have more column blocks (a short
    // last group before a full first): every MXU's block.
    aheadVregs = weightsAcrossChunks()
                     ? b.index(groupBlocks * (kWeightRows / kTileRows))
                     : weightVregs;
    lastAheadWeights = b.mul(b.sub(aheadVregs, b.index(kUnroll)), kTileRows);
  } else if (hostsWeightSplit) {
    Value nextTile = b.add(k, 1);
    hasNext = b.lessThan(nextTile, kTilesV);
    aheadRegion = b.sub(one, half);
    // With weightsAcrossGroups the last tile splits the next group's
    // tile 0, whose halves are this tile's other ones too (halfOf).
    Value weightsTile = nextTile;
    if (weightsAcrossGroups) {
      weightsTile = b.select(hasNext, nextTile, zero);
      hasNext = hasTileAfter(b, k);
    }
    b.ifThen(hasNext, [&] {
      if (weightsTwoAhead)
        return waitForWeights(b, weightsTile, aheadRegion);
      waitForTile(b, nextTile, aheadRegion);
    });
    aheadSource = b.select(hasNext, aheadRegion, half);
    // Streaming across groups, the last tile splits the next group's,
    // whose column blocks may be more: every MXU's block, here and in
    // every tile (past a group's last column block, an MXU's block holds
    // an earlier group's weights, its results never popped).
    aheadVregs = weightsAcrossGroups
                     ? b.index(groupBlocks * (kWeightRows / kTileRows))
                     : weightVregs;
    lastAheadWeights = b.mul(b.sub(aheadVregs, b.index(kUnroll)), kTileRows);
  }
  // The last term's loop may also stage the next K tile's first weights,
  // between its last kStageAheadIterations and the rest: once its loads
  // are in (stagesAcrossTiles), or once it has split them
  // (stagesSplitAhead; the iterations after split nothing, which would
  // write rows the weight load reads: splitIsDone, as the loop is built).
  function_ref<void()> stageNextTile;
  bool splitIsDone = false;
  auto stageSplitNextTile = [&] {
    splitIsDone = true;
    b.ifThen(hasNext, [&] { stageWeights(b, order.front(), aheadRegion); });
  };
  if (hostsWeightSplit && stagesSplitAhead)
    stageNextTile = stageSplitNextTile;
  // Or, before its last unrolled iteration, wait for the next tile's LHS,
  // which that iteration splits the first rows of beside its pushes
  // (splitsFirstLhsAhead; nextLhsRows). The group's last tile splits its
  // own first rows again (the next group's may be being loaded), the
  // values its parts already hold.
  SmallVector<Value> nextLhsRows;
  auto waitForNextLhs = [&] {
    Value lhsTile = b.add(k, 1);
    Value hasLhsTile = b.lessThan(lhsTile, kTilesV);
    Value lhsHalf = b.sub(one, half);
    b.ifThen(hasLhsTile, [&] { waitForTile(b, lhsTile, lhsHalf); });
    for (unsigned buffer = 0; buffer < lhsBuffers.size(); ++buffer) {
      Value row = this->lhsRow(b, buffer, lhsTile, lhsHalf, tileSpareOffset);
      nextLhsRows.push_back(b.select(hasLhsTile, row, tileLhsRows[buffer]));
    }
  };
  int64_t stageAheadIterations = kStageAheadIterations;
  if (splitsFirstLhsAhead && term == order.back()) {
    stageNextTile = waitForNextLhs;
    stageAheadIterations = kLhsAheadIterations;
  }
  // In the group's last tile, the next group's tile 0 when it is in the
  // chunk: its loads came at this tile's head (prefetchNextGroup), and
  // staged here its weights shift in while these pushes stream, not while
  // that tile's first latch waits.
  auto waitAndStageNextGroup = [&] {
    Value nextCol0 = b.add(groupCol0, groupBlocks);
    b.ifThen(b.lessThan(nextCol0, nBlocksV), [&] {
      Value nextHalf = halfOf(b, zero, 1);
      waitForTile(b, zero, nextHalf, /*ofNextGroup=*/true);
      stageWeights(b, order.front(), nextHalf);
    });
  };
  // Where the loop stages, made before it (in the latches' bundles):
  // whether there is a next tile (the tiles after this one are not 0: a
  // compare with 0 needs no constant where the loop is split), and the
  // rows its weights stage from.
  Value nextTile, hasNextTile, nextHalf;
  SmallVector<Value, 4> nextStagingRows;
  auto waitAndStageNextTile = [&] {
    ifMostTiles(
        b, hasNextTile,
        [&] {
          waitForTile(b, nextTile, nextHalf);
          for (auto [m, row] : llvm::enumerate(nextStagingRows))
            loadWeights(b, order.front(), unsigned(m), row);
        },
        [&] {
          if (stagesAcrossGroups)
            waitAndStageNextGroup();
        });
  };
  if (term == order.back() && stagesAcrossTiles) {
    nextTile = b.add(k, 1);
    hasNextTile = arith::CmpIOp::create(b, arith::CmpIPredicate::ne,
                                        b.sub(b.index(kTiles - 1), k), zero);
    nextHalf = b.sub(one, half);
    for (unsigned m = 0; m < mxus; ++m)
      nextStagingRows.push_back(weightLoadRow(b, order.front(), nextHalf, m));
    stageNextTile = waitAndStageNextTile;
    // Every latch of this tile is behind, each waited for its load: this
    // half's weight blocks are free for tile k + 2's, which the DMA engine
    // then has queued behind tile k + 1's loads and moves while this
    // loop's wait for those sees their latency out.
    Value tileAfter = b.add(k, 2);
    b.ifThen(b.lessThan(tileAfter, kTilesV), [&] {
      issueWeightLoads(b, tileAfter, half, batchIndex, groupCol0);
    });
  }
  // With one row block per tile, kUnroll blocks go per iteration, all
  // loaded first (forLoopUnrolled: a block at a time, the loop took about
  // 12 cycles per block on 4 MXUs for their 8). A packed tile's block is
  // its low half. The loop counts the first block's row in the chunk, so
  // that the loads need at most an add (none where the chunk's row is a
  // constant, folded into their offsets) and the block (the pushes' slot)
  // is made while they load: counting blocks, the row's multiply came
  // first too, and each iteration's first push left its MXU idle 3
  // cycles.
  // Where the LHS's row is not a constant (folded into the loads'
  // offsets), the loop may count it too, so that its first load needs no
  // add after the taken branch: where an MXU's pushes come `mxus` bundles
  // apart and that head (the branch's bubble, the add, the load's
  // latency) would space its last push of an iteration and its first of
  // the next more than a push's 8 cycles apart (v4: a cycle an
  // iteration). Elsewhere the add is hidden, and counting rows would only
  // lengthen the loop's set-up (v2 and v3: up to 0.5% slower).
  bool countsRows =
      !getConstantIntValue(lhsRow) &&
      int64_t(mxus) + kPushLoopHeadCycles > int64_t(kMxuPushCycles);
  // Row blocks iv .. iv + n - 1 (iv a row of the LHS tile where the loop
  // counts rows, else of the chunk): their loads, then each block's
  // pushes, where popLag >= 0 each beside the pops of the block popLag
  // blocks before it on every MXU: with 0, the group before's result in
  // the slot the push overwrites (popsInNextGroup), popped and staged just
  // before; with more, this group's own, drained (storesInLastTile).
  auto pushIteration = [&](Value iv, int64_t n, bool accumulate,
                           int64_t popLag) {
    Value row = countsRows ? iv : b.add(lhsRow, iv);
    Value offset = countsRows ? b.sub(iv, lhsRow) : iv;
    SmallVector<Value, kUnroll> rows;
    for (int64_t i = 0; i < n; ++i) {
      Value words = b.load(lhsVmem, b.add(row, i * kTileRows));
      rows.push_back(packedLhs ? b.unpack(words, false) : words);
    }
    Value block = b.divide(offset, kTileRows);
    if (loopSplitsLhs && n == kUnroll)
      splitLhsRows(b, b.min(b.add(offset, kUnroll * kTileRows), lastAhead),
                   kUnroll);
    if (hostsWeightSplit && n == kUnroll && !splitIsDone)
      splitWeightRows(b, aheadSource, aheadRegion,
                      b.min(offset, lastAheadWeights), kUnroll);
    if (!nextLhsRows.empty() && n == kUnroll)
      splitLhsRows(b, zero, kUnroll, nextLhsRows);
    for (auto [i, rowsOfBlock] : llvm::enumerate(rows)) {
      Value blockI = b.add(block, int64_t(i));
      int64_t popped = int64_t(i) - popLag;
      for (unsigned m = 0; popLag >= 0 && m < mxus; ++m) {
        Value stagingRow = b.index(m * chunkRows);
        Value outRow = b.add(offset, m * chunkRows + popped * kTileRows);
        if (stagesInHalves)
          outRow = b.add(outRow, previousStaging);
        finishBlock(b, popLag == 0 ? blockI : b.add(block, popped), outRow, m,
                    stagingRow);
      }
      pushBlock(rowsOfBlock, blockI, accumulate,
                n == kUnroll ? int64_t(i) : -1);
    }
  };
  auto pushUnrolled = [&](bool accumulate, bool popsPrevious,
                          bool waitsPieces = false) {
    splitIsDone = false;
    nextLhsRows.clear();
    Value unrolledEnd = b.forLoopUnrolled(
        blocks, kUnroll,
        [&](Value iv, int64_t n) {
          // A piece a whole iteration, the last with the blocks left.
          if (waitsPieces && n == kUnroll)
            b.wait(kResidentSem, 1);
          pushIteration(iv, n, accumulate, popsPrevious ? 0 : -1);
        },
        stageNextTile, stageAheadIterations, kTileRows,
        countsRows ? lhsRow : Value());
    // Staged from the loop, the split was done in it (splitEndsEarly), and
    // rows written here would race the load.
    if (hostsWeightSplit && !splitIsDone) {
      // Weight vregs are a multiple of 16, the unrolled blocks of kUnroll.
      Value weightRows = b.mul(aheadVregs, kTileRows);
      b.forLoop(b.min(b.mul(unrolledEnd, kTileRows), weightRows), weightRows,
                kUnroll * kTileRows, [&](Value row) {
                  splitWeightRows(b, aheadSource, aheadRegion, row, kUnroll);
                });
    }
  };
  auto pushAll = [&](bool accumulate) {
    if (blocksPerTile == 1)
      return pushUnrolled(accumulate, /*popsPrevious=*/false);
    b.forLoop(zero, blocks, blocksPerTile, [&](Value block) {
      Value tileRow = b.add(lhsRow, b.mul(block, kTileRows / blocksPerTile));
      Value words = b.load(lhsVmem, tileRow);
      for (int64_t part = 0; part < blocksPerTile; ++part) {
        auto push = [&] {
          Value rows = packedLhs ? b.unpack(words, part == 1) : words;
          pushBlock(rows, b.add(block, part), accumulate, -1);
        };
        // With odd row blocks, the last tile's high half is padding:
        // pushing it would double the MXU time of a one-block LHS.
        if (part == 1 && rowBlocks % 2 != 0)
          b.ifThen(b.lessThan(b.add(block, 1), blocks), push);
        else
          push();
      }
    });
  };
  // The kernel's last K tile (storesInLastTile): the term's pushes
  // pop each block kOwnPopLagBlocks behind, and DMA its rows out
  // kOwnStoreBlocks at a time, the first kOwnFirstStoreBlocks; the blocks
  // left are popped as they drain, and stored at once. The group's
  // epilogue is this.
  auto pushAndStore = [&] {
    int64_t chunkBlocks = lastChunkOf(chunk);
    int64_t iterationRows = kUnroll * kTileRows;
    auto ivOf = [&](int64_t block) {
      return countsRows ? b.add(lhsRow, block * kTileRows)
                        : b.index(block * kTileRows);
    };
    Value outTile0 = outTileOf(b, groupRow0, groupCol0);
    int64_t activeMxus = lastGroupMxus();
    auto store = [&](Value firstBlock, Value count) {
      Value firstRow = b.mul(firstBlock, kTileRows);
      Value firstTile = b.add(outTile0, b.mul(firstBlock, out.colTiles()));
      for (int64_t c = 0; c < activeMxus; ++c) {
        Value stride = b.index(out.colTiles());
        Value tile = b.add(firstTile, c);
        Value row = b.add(firstRow, c * chunkRows);
        b.dmaStore(outVmem, row, op.getOuts(), tile, stride, count, kStoreSem);
      }
    };
    Value lagEnd = ivOf(kOwnPopLagBlocks);
    b.forLoop(ivOf(0), lagEnd, iterationRows,
              [&](Value iv) { pushIteration(iv, kUnroll, true, -1); });
    // The group before's stores, issued in the earlier K tiles, read the
    // staging the pops write: waited for after the pushes that pop
    // nothing, which give them that much longer.
    b.wait(kStoreSem, storesPerGroup());
    // Each piece's blocks in a loop of their own, so that one copy of the
    // iteration serves (the last piece may be shorter); the blocks past
    // the last whole iteration are pushed after them.
    int64_t wholeBlocks = lastChunkWholeBlocks();
    Value chunkEnd = ivOf(wholeBlocks);
    // The loop's first piece starts before lagEnd, which cuts it to
    // kOwnFirstStoreBlocks. What the pieces compute they compute from the
    // values the loop keeps live already (its bounds and lhsRow), as one
    // more register there runs the largest kernels out of them.
    int64_t firstCut = kOwnStoreBlocks - kOwnFirstStoreBlocks;
    Value piecesStart = ivOf(kOwnPopLagBlocks - firstCut);
    b.forLoop(
        piecesStart, chunkEnd, kOwnStoreBlocks * kTileRows, [&](Value pieceIv) {
          Value pieceEnd = b.add(pieceIv, kOwnStoreBlocks * kTileRows);
          Value end = b.min(pieceEnd, chunkEnd);
          Value rowsLeft = b.sub(chunkEnd, pieceIv);
          Value first = b.lessThan(
              b.index((wholeBlocks - kOwnPopLagBlocks) * kTileRows), rowsLeft);
          Value iv =
              b.select(first, b.add(pieceIv, firstCut * kTileRows), pieceIv);
          b.forLoop(iv, end, iterationRows, [&](Value iterationIv) {
            pushIteration(iterationIv, kUnroll, true, kOwnPopLagBlocks);
          });
          auto blockOf = [&](Value row) {
            return b.divide(countsRows ? b.sub(row, lhsRow) : row, kTileRows);
          };
          Value pieceBlock = blockOf(pieceIv);
          Value lag = b.index(kOwnPopLagBlocks);
          Value pushed = b.select(b.lessThan(pieceBlock, lag), lag, pieceBlock);
          Value popped = b.sub(pushed, lag);
          Value count = b.sub(blockOf(end), pushed);
          store(popped, count);
        });
    if (wholeBlocks < chunkBlocks)
      pushIteration(chunkEnd, chunkBlocks - wholeBlocks, true, -1);
    // The blocks left, a block an iteration: the DMA engine has the
    // pieces' stores to do meanwhile, and the pops wait for the blocks to
    // drain. Only the MXUs with a column block are stored.
    int64_t popsEnd = wholeBlocks - kOwnPopLagBlocks;
    Value blocksEnd = b.index(chunkBlocks);
    b.forLoop(b.index(popsEnd), blocksEnd, 1, [&](Value block) {
      Value row = b.mul(block, kTileRows);
      for (int64_t m = 0; m < activeMxus; ++m) {
        Value mxuRow = b.index(m * chunkRows);
        Value stagingRow = b.add(row, m * chunkRows);
        finishBlock(b, block, stagingRow, unsigned(m), mxuRow);
      }
    });
    Value leftBlocks = b.index(chunkBlocks - popsEnd);
    store(b.index(popsEnd), leftBlocks);
  };
  if (!firstOfGroup)
    return pushAll(true);
  // A group's first tile, after the chunk's first group (with
  // popsAcrossChunks, the kernel's), pops the group before's results as it
  // pushes (popsInNextGroup): a loop of its own, as a branch in the loop's
  // body would split its bundles. The staging buffer it writes is free
  // once the stores of the group before that one are done, which have had
  // a group's K loop to finish in; a chunk's first group always has one.
  auto pushFirstTile = [&] {
    if (!popsInNextGroup || position != 0)
      return pushAll(false);
    auto waitAndPop = [&] {
      auto waitForStores = [&] { b.wait(kStoreSem, storesPerGroup()); };
      Value previousCol0 = b.sub(groupCol0, b.index(groupBlocks));
      // The stores that read the staging (its half) the pops write.
      Value twoBack =
          stagesInHalves
              ? followsSecondGroup(b, batchIndex, groupRow0, previousCol0)
              : followsFirstGroup(b, batchIndex, groupRow0, previousCol0);
      if (popsAcrossChunks)
        b.ifThen(
            b.lessThan(zero, groupCol0),
            [&] { b.ifThen(twoBack, waitForStores); }, waitForStores);
      else
        b.ifThen(twoBack, waitForStores);
      loopSplitsLhs = hostsLhsSplit && !splitsLhsOnce;
      pushUnrolled(false, /*popsPrevious=*/true);
      loopSplitsLhs = hostsLhsSplit;
    };
    Value pops = popsAcrossChunks
                     ? followsFirstGroup(b, batchIndex, groupRow0, groupCol0)
                     : b.lessThan(zero, groupCol0);
    b.ifThen(pops, waitAndPop, [&] { pushAll(false); });
  };
  if (!hasOwnLoop)
    return ifOneTile(b, isFirstTile, pushFirstTile, [&] { pushAll(true); });
  // A pieced chunk's first group's tiles but tile 0, their LHS in pieces
  // (none is the kernel's last: that group has a group before).
  auto pushPieces = [&] { pushUnrolled(true, false, /*waitsPieces=*/true); };
  // The other tiles with a loop of their own: the kernel's last, or a
  // pieced one.
  auto pushOwnLoop = [&] {
    if (!piecesLhsTiles)
      return pushAndStore();
    if (!storesInLastTile)
      return pushPieces();
    Value isKernelLast =
        arith::CmpIOp::create(b, arith::CmpIPredicate::eq, toLast, zero);
    ifOneTile(b, isKernelLast, pushAndStore, pushPieces);
  };
  // Out of line in a pieced group's tiles too, where every tile has one:
  // those wait for their loads, which outlast the branches (in line with
  // fewer than kOutOfLineFrom groups, 19 of the 297 DEFAULT sweep programs
  // were 5 to 87 cycles slower).
  ifOneTile(
      b, hasOwnLoop,
      [&] { ifOneTile(b, isFirstTile, pushFirstTile, pushOwnLoop); },
      [&] { pushAll(true); });
}

/// Pops each active MXU's slots, fixes NaNs of the small-term group, adds
/// the main group and the accumulator, applies the epilogue, and DMAs the
/// blocks out.
void MatmulKernel::buildEpilogue(KernelBuilder &b, Value batch, Value row0,
                                 Value col0, Value blocks) {
  // The group before's result DMAs (its epilogue's, or with deferred
  // stores this group's K tiles') read the staging buffer this one
  // writes; they have had this group's K loop to finish in. With the
  // staging in halves, the group two before's read this group's half.
  Value storesBefore = stagesInHalves ? followsSecondGroup(b, batch, row0, col0)
                                      : followsFirstGroup(b, batch, row0, col0);
  b.ifThen(storesBefore, [&] { b.wait(kStoreSem, storesPerGroup()); });
  // What is read tile for tile with the result: the accumulator, then
  // the epilogue's inputs of the result's shape; a row (a rank-1 input,
  // one row of tiles) is read one tile per column block, into every
  // sublane of each block.
  SmallVector<std::pair<Value, Value>> staged; // (HBM buffer, VMEM staging)
  if (hasAcc)
    staged.emplace_back(op.getAcc(), accVmem);
  for (auto [input, vmem] : llvm::zip(op.getEpilogueInputs(), epilogueVmem))
    staged.emplace_back(input, vmem);
  // The group that stores its own results when they are deferred: a
  // chunk's last, or with storesAcrossChunks the kernel's.
  Value storesOwn;
  if (storesAcrossChunks)
    storesOwn = isKernelLastGroup(b, batch, row0, col0);
  else if (defersStores)
    storesOwn = isLastGroup(b, col0);
  // Column block c of the group: MXU c's, or with the rows split every
  // MXU's share of it.
  for (unsigned c = 0; c < groupBlocks; ++c) {
    Value col = b.add(col0, c);
    Value active = hasColumn(b, col);
    Value stagingRow = b.index(c * chunkRows);
    // With the staging in halves (and so nothing staged but the results:
    // popsInNextGroup), this group's.
    if (stagesInHalves)
      stagingRow = b.add(stagingRow, ownStaging);
    Value outTile = outTileOf(b, row0, col);
    b.ifThen(active, [&] {
      for (auto [hbm, vmem] : staged) {
        if (isRow(hbm))
          b.dmaLoad(hbm, col, one, vmem, stagingRow, one, kAccSem);
        else
          b.dmaLoad(hbm, outTile, b.index(out.colTiles()), vmem, stagingRow,
                    blocks, kAccSem);
      }
      if (!staged.empty())
        b.wait(kAccSem, int64_t(staged.size()));
      // kUnroll blocks an iteration, each finished in turn: the loop's own
      // work is paid once per kUnroll blocks, and a block's registers are
      // free again before the next one's.
      if (!splitsRows) {
        b.forLoopUnrolled(blocks, kUnroll, [&](Value first, int64_t n) {
          Value firstRow = b.add(stagingRow, b.mul(first, kTileRows));
          for (int64_t i = 0; i < n; ++i) {
            Value row = b.add(firstRow, i * kTileRows);
            finishBlock(b, b.add(first, i), row, c, stagingRow);
          }
        });
        return;
      }
      // With the rows split, each MXU's blocks in a loop of their own.
      for (unsigned m = 0; m < mxus; ++m)
        b.forLoop(b.index(m), blocks, mxus, [&](Value block) {
          Value row = b.add(stagingRow, b.mul(block, kTileRows));
          finishBlock(b, block, row, m, stagingRow);
        });
    });
    // The MXU's block in one DMA as it is popped; when stores are
    // deferred, only in the group that stores its own (storesOwn: a
    // chunk's last, or with storesAcrossChunks the kernel's), with an
    // empty one so that every group counts storesPerGroup DMAs; the
    // others' go out during the next group's K tiles (storePreviousGroup).
    auto storeBlock = [&] {
      storeMxuBlock(b, outTile, c, b.select(active, blocks, zero), ownStaging);
    };
    if (!defersStores) {
      storeBlock();
      continue;
    }
    static_assert(kStoresPerMxu == 2, "the block and an empty DMA");
    b.ifThen(storesOwn, [&] {
      storeBlock();
      storeMxuBlock(b, outTile, c, zero, ownStaging);
    });
  }
}

void MatmulKernel::finishBlock(KernelBuilder &b, Value block, Value row,
                               unsigned m, Value stagingRow) {
  Value value = MxuPopOp::create(b, b.vregType(), b.add(block, mainSlots), m);
  if (nanFixed > 0) {
    Value small = MxuPopOp::create(b, b.vregType(), block, m);
    Value isNaN =
        arith::CmpFOp::create(b, arith::CmpFPredicate::UNE, small, small);
    small = arith::SelectOp::create(b, isNaN, b.splat(0.0f), small);
    value = arith::AddFOp::create(b, small, value);
  }
  if (hasAcc)
    value = arith::AddFOp::create(b, value, b.load(accVmem, row));
  if (op.hasEpilogue()) {
    SmallVector<Value> elements = {value};
    // A bf16 row is the low half of its packed words.
    for (auto [input, vmem] : llvm::zip(op.getEpilogueInputs(), epilogueVmem)) {
      if (!isRow(input)) {
        elements.push_back(b.load(vmem, row));
        continue;
      }
      Value words = b.loadRowToAllSublanes(vmem, stagingRow);
      elements.push_back(isPacked(input) ? b.unpack(words, false) : words);
    }
    value = applyElementwiseBody(b, op.getEpilogue().front(), elements);
  }
  b.store(value, outVmem, row);
}

Value MatmulKernel::outTileOf(KernelBuilder &b, Value row0, Value col) {
  return b.add(b.add(outBatch, b.mul(row0, out.colTiles())), col);
}

void MatmulKernel::storeMxuBlock(KernelBuilder &b, Value outTile, unsigned c,
                                 Value count, Value staging) {
  Value row = b.index(c * chunkRows);
  if (stagesInHalves)
    row = b.add(row, staging);
  b.dmaStore(outVmem, row, op.getOuts(), outTile, b.index(out.colTiles()),
             count, kStoreSem);
}

MatmulKernel::GroupPosition
MatmulKernel::previousGroupPosition(KernelBuilder &b, Value row0, Value col0,
                                    Value blocks) {
  auto previousCol0 = [&] { return b.sub(col0, b.index(groupBlocks)); };
  if (!storesAcrossChunks)
    return {row0, previousCol0(), blocks, Value()};
  // One set of stores, to whichever group was before. Its first result
  // tile is a constant number of tiles before this group's in each case
  // (the group before in the chunk; the chunk before's last; the batch
  // before's last chunk's last), so a select of constants finds it: the
  // group's position, selected field by field, made every storing tile a
  // chain of about 28 bundles.
  Value inChunk = b.lessThan(zero, col0);
  Value inBatch = b.lessThan(zero, row0);
  int64_t lastRow0 = (chunksOf(chunk) - 1) * chunk;
  int64_t lastCol0 = lastGroupCol0();
  int64_t chunkBack = chunk * out.colTiles() - lastCol0;
  Value acrossBack = b.index(chunkBack);
  if (lhs.batch > 1) {
    int64_t batchBack =
        out.tilesPerBatch() - lastRow0 * out.colTiles() - lastCol0;
    acrossBack = b.select(inBatch, acrossBack, b.index(batchBack));
  }
  Value back = b.select(inChunk, b.index(groupBlocks), acrossBack);
  GroupPosition previous;
  previous.outTile0 = b.sub(outTileOf(b, row0, col0), back);
  if (!groupsDivideBlocks())
    previous.col0 = b.select(inChunk, previousCol0(), b.index(lastCol0));
  previous.blocks = blocks;
  // Every chunk but a batch's last has `chunk` row blocks.
  if (rowBlocks % chunk != 0) {
    Value rowBefore = b.sub(row0, b.index(chunk));
    Value chunkRow0 = b.select(inBatch, rowBefore, b.index(lastRow0));
    Value chunkBlocks = b.chunkCount(rowBlocks, chunk, chunkRow0);
    previous.blocks = b.select(inChunk, blocks, chunkBlocks);
  }
  return previous;
}

void MatmulKernel::storeResultPiece(KernelBuilder &b,
                                    const GroupPosition &group, Value piece) {
  static_assert(kStoresPerMxu == 2, "a piece is half an MXU's rows");
  Value blocks = group.blocks;
  Value m = b.halve(piece);
  Value second = arith::AndIOp::create(b, piece, one);
  Value col = group.col0 ? b.add(group.col0, m) : Value();
  // The second half starts at the first's blocks, rounded up, and has
  // the rest. With a constant count, each offset is one multiply of
  // `second` (0 or 1) by a constant, beside the MXU's: a K tile that
  // stores makes them in about 4 bundles where the selects took 7.
  Value start, startRow, startTile, count;
  // Where the halves are equal and fill the MXU's staging rows, piece p
  // starts p halves in.
  bool halvesFillRows = false;
  if (std::optional<int64_t> constant = getConstantIntValue(blocks);
      constant && group.outTile0) {
    int64_t firstHalf = (*constant + 1) / 2;
    halvesFillRows =
        2 * firstHalf * kTileRows == chunkRows && *constant % 2 == 0;
    startRow = b.mul(second, firstHalf * kTileRows);
    startTile = b.mul(second, firstHalf * out.colTiles());
    count = b.index(firstHalf);
    if (*constant % 2 != 0)
      count = b.sub(count, second);
  } else {
    Value secondHalf = b.lessThan(zero, second);
    Value firstHalfBlocks = b.halve(b.add(blocks, 1));
    start = b.select(secondHalf, firstHalfBlocks, zero);
    count =
        b.select(secondHalf, b.sub(blocks, firstHalfBlocks), firstHalfBlocks);
    startRow = b.mul(start, kTileRows);
  }
  if (col)
    count = b.select(hasColumn(b, col), count, zero);
  Value stagingRow = halvesFillRows ? b.mul(piece, chunkRows / 2)
                                    : b.add(b.mul(m, chunkRows), startRow);
  Value outTile;
  if (group.outTile0) {
    if (!startTile)
      startTile = b.mul(start, out.colTiles());
    outTile = b.add(group.outTile0, b.add(startTile, m));
  } else {
    outTile = outTileOf(b, b.add(group.row0, start), col);
  }
  b.dmaStore(outVmem, stagingRow, op.getOuts(), outTile,
             b.index(out.colTiles()), count, kStoreSem);
}

void MatmulKernel::storePoppedGroup(KernelBuilder &b, Value k,
                                    Value isFirstTile, Value row0, Value col0,
                                    Value blocks) {
  if (defersStores)
    return storePreviousGroup(b, k, row0, col0, blocks);
  ifOneTile(b, isFirstTile, [&] {
    b.ifThen(b.lessThan(zero, col0), [&] {
      Value previousCol0 = b.sub(col0, b.index(groupBlocks));
      for (unsigned c = 0; c < groupBlocks; ++c) {
        Value col = b.add(previousCol0, c);
        storeMxuBlock(b, outTileOf(b, row0, col), c, blocks, previousStaging);
      }
    });
  });
}

void MatmulKernel::storePreviousGroup(KernelBuilder &b, Value k, Value row0,
                                      Value col0, Value blocks) {
  int64_t pieces = storesPerGroup();
  Value hasPrevious = storesAcrossChunks
                          ? followsFirstGroup(b, batchIndex, row0, col0)
                          : b.lessThan(zero, col0);
  b.ifThen(hasPrevious, [&] {
    // Made only in the tiles that store: the previous group's position
    // takes a few selects with storesAcrossChunks.
    b.ifThen(b.lessThan(k, b.index(pieces)), [&] {
      GroupPosition previous = groupPrevious
                                   ? *groupPrevious
                                   : previousGroupPosition(b, row0, col0,
                                                           blocks);
      auto store = [&](Value piece) { storeResultPiece(b, previous, piece); };
      if (kTiles > pieces) {
        store(k);
        return;
      }
      // Fewer K tiles than pieces: the last tile takes the rest.
      Value isLastTile = b.lessThan(b.index(kTiles - 2), k);
      Value nextTile = b.add(k, 1);
      Value end = b.select(isLastTile, b.index(pieces), nextTile);
      b.forLoop(k, end, 1, store);
    });
  });
}

} // namespace

FailureOr<scf::ForOp> tpu::lowerMatmulPasses(RewriterBase &rewriter,
                                             MatmulPassesOp op,
                                             const ChipInfo &chip) {
  if (!op.hasBufferSemantics())
    return rewriter.notifyMatchFailure(op, "bufferize it first");
  MatmulKernel kernel(op, chip);
  if (failed(kernel.plan()))
    return failure();
  KernelBuilder b(op.getLoc(), rewriter);
  b.setInsertionPoint(op);
  scf::ForOp loop = kernel.build(b);
  rewriter.eraseOp(op);
  return loop;
}
