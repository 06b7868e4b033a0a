//===- KernelBuilder.h - What the kernels are built from --------*- C++ -*-===//
//
// An ImplicitLocOpBuilder with the index arithmetic, loops (through
// scf::buildLoopNest), VMEM buffers, DMAs and vector memory ops every
// kernel writes. Internal to the kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_LIB_DIALECT_TPU_TRANSFORMS_KERNELS_KERNELBUILDER_H
#define TPU_LIB_DIALECT_TPU_TRANSFORMS_KERNELS_KERNELBUILDER_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "tpu/Dialect/TPU/IR/TPUOps.h"
#include "tpu/Support/TiledLayout.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tpu {

/// DMA semaphores: loads, stores, the matmul's accumulator loads, its
/// loads of an LHS that stays in VMEM, and its weights where they are
/// loaded two K tiles ahead (waited for a tile before the LHS loaded with
/// them, so counted apart).
enum Semaphore : int64_t {
  kLoadSem = 0,
  kStoreSem = 1,
  kAccSem = 2,
  kResidentSem = 3,
  kWeightSem = 4
};

/// The most tiles a chunked kernel moves per DMA into one buffer
/// (chunkTiles).
inline constexpr int64_t kVpuChunkTiles = 512;
/// buildVpuLoop's pipeline: the chunks it cuts a tensor into (when each
/// still has kVpuMinPipelineChunk tiles), so that the VPU works on one
/// while the DMA engine moves the next.
inline constexpr int64_t kVpuPipelineChunks = 4;
inline constexpr int64_t kVpuMinPipelineChunk = 8;

/// The tiles each of `buffers` VMEM buffers of a chunked kernel holds, all
/// of them live at once: kVpuChunkTiles, fewer when they would not fit
/// VMEM together; at least one.
int64_t chunkTiles(int64_t buffers);
/// How many units of `unitTiles` tiles each (a row of tiles, say) a chunk
/// of chunkTiles(buffers) tiles holds: at most `units`, at least one. A
/// kernel moves a chunk per DMA and waits once for it, not once a unit:
/// each wait costs the DMA's whole latency (docs/Simulator.md, "DMA").
int64_t unitsPerChunk(int64_t unitTiles, int64_t units, int64_t buffers);

class KernelBuilder : public mlir::ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  /// Index arithmetic.
  mlir::Value index(int64_t value);
  mlir::Value add(mlir::Value x, mlir::Value y);
  /// x + y, or x itself for y = 0.
  mlir::Value add(mlir::Value x, int64_t y);
  mlir::Value sub(mlir::Value x, mlir::Value y);
  /// x * y, or x itself for y = 1.
  mlir::Value mul(mlir::Value x, int64_t y);
  mlir::Value min(mlir::Value x, mlir::Value y);
  mlir::Value min(mlir::Value x, int64_t y);
  /// x / powerOfTwo, for x >= 0: a shift (the scalar unit has no divide).
  mlir::Value divide(mlir::Value x, int64_t powerOfTwo);
  /// x / 2, for x >= 0.
  mlir::Value halve(mlir::Value x);
  mlir::Value lessThan(mlir::Value x, mlir::Value y);
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y);

  /// for (iv = lb; iv < ub; iv += step) body(iv), at the insertion point,
  /// which stays after the loop. Returns the loop.
  mlir::scf::ForOp forLoop(mlir::Value lb, mlir::Value ub, int64_t step,
                           llvm::function_ref<void(mlir::Value)> body);
  mlir::scf::ForOp forLoop(int64_t ub, int64_t step,
                           llvm::function_ref<void(mlir::Value)> body);
  /// for iv in [0, count): body(iv, n) for the n ivs iv .. iv + n - 1,
  /// `unroll` (a power of two) per iteration, then one at a time for the
  /// ivs left over. An unrolled body that does all its loads first lets
  /// the bundler overlap them with the rest, and pays the loop's own work
  /// (address, branch) once per `unroll`. The body makes iv + i itself,
  /// where it needs it: made up front, they would take the scalar slots
  /// the first load's address needs. Returns where the unrolled part ends,
  /// in ivs from 0 (neither scaled nor from `origin`).
  /// With `between`, the unrolled part is two loops, and between() runs
  /// between them, `lastIterations` unrolled iterations before the
  /// unrolled part's end (at its start if it has fewer): work that must
  /// come a fixed time before the loop's end.
  /// With `scale`, the loops count iv * scale rather than iv, and the
  /// body gets that: a body that addresses VMEM rows (scale 8, a vreg's)
  /// adds its buffer's row, or has it folded into its loads' offsets,
  /// where one that made the rows from iv would spend a multiply first.
  /// With `origin` too, they count origin + iv * scale: the body gets the
  /// buffer's row itself, and its first load needs no add after the
  /// loop's branch.
  mlir::Value
  forLoopUnrolled(mlir::Value count, int64_t unroll,
                  llvm::function_ref<void(mlir::Value, int64_t)> body,
                  llvm::function_ref<void()> between = {},
                  int64_t lastIterations = 0, int64_t scale = 1,
                  mlir::Value origin = {});
  /// body(first, count) for the chunks [first, first + count) of
  /// [0, total), `chunk` at a time: `count` is `chunk` but in a shorter
  /// last chunk (a constant when `chunk` divides `total`). Returns the
  /// loop.
  mlir::scf::ForOp
  forEachChunk(int64_t total, int64_t chunk,
               llvm::function_ref<void(mlir::Value, mlir::Value)> body);
  /// The tiles of the chunk of [0, total) that starts at `first`, `chunk`
  /// at a time: `chunk` (a constant when it divides `total`), fewer in a
  /// shorter last chunk.
  mlir::Value chunkCount(int64_t total, int64_t chunk, mlir::Value first);
  /// The row-major number of the coordinates `indices` in dimensions of
  /// sizes `sizes` (a matrix's number among a buffer's leading
  /// dimensions, say).
  mlir::Value linearIndex(mlir::ArrayRef<mlir::Value> indices,
                          llvm::ArrayRef<int64_t> sizes);
  /// body(indices) for every index of `dims` (at least one dimension): a
  /// loop per dimension, outermost first. Returns the outermost loop.
  mlir::scf::ForOp
  forEachIndex(llvm::ArrayRef<int64_t> dims,
               llvm::function_ref<void(llvm::ArrayRef<mlir::Value>)> body);
  /// body(i, false) for every i < count, but for the last one, when
  /// `lastIsPartial` (a tile with padding), body(count - 1, true) after
  /// the loop, written out once.
  void forEachTile(int64_t count, bool lastIsPartial,
                   llvm::function_ref<void(mlir::Value, bool)> body);
  /// if (cond) thenBody() [else elseBody()].
  void ifThen(mlir::Value cond, llvm::function_ref<void()> thenBody,
              llvm::function_ref<void()> elseBody = nullptr);
  /// ifThen where `cond` is rarely true (a group's first K tile, say):
  /// the then part goes out of line, so the common path runs straight
  /// through (TPUDialect::getBranchWeightsAttrName).
  void ifRarely(mlir::Value cond, llvm::function_ref<void()> thenBody,
                llvm::function_ref<void()> elseBody = nullptr);
  /// ifThen where `cond` is rarely false: the else part goes out of line.
  void ifUsually(mlir::Value cond, llvm::function_ref<void()> thenBody,
                 llvm::function_ref<void()> elseBody);

  /// A VMEM buffer of `rows` rows, and freeing buffers.
  mlir::Value allocVmem(int64_t rows);
  void dealloc(llvm::ArrayRef<mlir::Value> buffers);

  /// DMAs and their semaphores.
  void dmaLoad(mlir::Value hbm, mlir::Value tile, mlir::Value stride,
               mlir::Value vmem, mlir::Value row, mlir::Value count,
               int64_t sem);
  void dmaStore(mlir::Value vmem, mlir::Value row, mlir::Value hbm,
                mlir::Value tile, mlir::Value stride, mlir::Value count,
                int64_t sem);
  void wait(int64_t sem, int64_t count);

  /// One vreg from or to the VMEM tile at `row`.
  mlir::Value load(mlir::Value vmem, mlir::Value row);
  void store(mlir::Value value, mlir::Value vmem, mlir::Value row);
  /// The VMEM row `row` in every sublane.
  mlir::Value loadRowToAllSublanes(mlir::Value vmem, mlir::Value row);
  /// The VMEM tile at `row`: rows 0 .. `rows` - 1 from `value`, `fill` in
  /// the rest (the padding rows of a tile; a masked v.st over the fill).
  void storeRows(mlir::Value value, int64_t rows, mlir::Value fill,
                 mlir::Value vmem, mlir::Value row);
  /// Rows 0-7 (`high` false) or 8-15 of a packed bf16 tile's vreg, as f32.
  mlir::Value unpack(mlir::Value words, bool high);
  /// Each element of `v` rounded to bf16, kept in f32.
  mlir::Value round(mlir::Value v, Rounding rounding);
  /// The bf16 parts of `x` (docs/Numerics.md), kept in f32: `parts` 1 is a
  /// plain rounding; 2 is hi, lo; 3 is hi, mid, lo: hi = bf16(x), then
  /// bf16 of what the parts before leave. With nearest-even, a finite x
  /// whose hi would round up to inf has its hi truncated instead, so hi
  /// stays finite and x - hi exact. Part p is the same for every `parts`
  /// of 2 or more.
  llvm::SmallVector<mlir::Value, 3> splitToBF16(mlir::Value x, size_t parts,
                                                Rounding rounding);
  /// `value` in lanes 0 .. `lanes` - 1, `fill` in the rest (the padding
  /// lanes of a tile).
  mlir::Value keepLanes(mlir::Value value, int64_t lanes, mlir::Value fill);
  /// The splat vreg of `value`.
  mlir::Value splat(float value);
  mlir::VectorType vregType();
};

/// The leading dimensions `lead` parted into those `dims` names (`named`)
/// and the rest (`others`), each in order; and `named` and `others`
/// coordinates merged back into one coordinate per leading dimension.
void partDimensions(llvm::ArrayRef<int64_t> lead, llvm::ArrayRef<int64_t> dims,
                    llvm::SmallVectorImpl<int64_t> &named,
                    llvm::SmallVectorImpl<int64_t> &others);
llvm::SmallVector<mlir::Value>
mergeCoordinates(size_t rank, llvm::ArrayRef<int64_t> dims,
                 mlir::ArrayRef<mlir::Value> named,
                 mlir::ArrayRef<mlir::Value> others);

/// The tiled shape of an HBM buffer (or tensor), packing included.
TiledShape tiledShapeOf(mlir::Value buffer);
/// Whether `buffer` holds packed bf16 (16 x 128 tiles, two rows a word).
bool isPacked(mlir::Value buffer);

/// An elementwise body (tpu.elementwise's, a matmul's epilogue), written
/// for one element, applied to the vregs `inputs` at `b`'s insertion
/// point: each op cloned on vectors. Returns the vreg it yields.
mlir::Value applyElementwiseBody(KernelBuilder &b, mlir::Block &body,
                                 mlir::ValueRange inputs);

/// The loop nest of a VPU kernel over whole tiles: chunks of every input
/// (a quarter of the tensor, at least kVpuMinPipelineChunk and at most
/// kVpuChunkTiles tiles, fewer when two of each buffer's would not fit
/// VMEM) are DMAed into VMEM, the next chunk's loads issued before this
/// one is computed; `compute` maps each tile's vregs (one per input) to
/// one vreg per output, and the outputs' chunks are DMAed out. (Packed
/// bf16 buffers take a loop of bands, one chunk at a time.) Inputs and outputs
/// are HBM buffers with the same number of tiles. Returns the outer loop.
/// (Operands that do not fit VMEM even a tile each are tpu-plan-memory's
/// error.)
mlir::scf::ForOp buildVpuLoop(
    KernelBuilder &b, mlir::ValueRange inputs, mlir::ValueRange outputs,
    llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::ValueRange)>
        compute);

} // namespace tpu

#endif // TPU_LIB_DIALECT_TPU_TRANSFORMS_KERNELS_KERNELBUILDER_H
