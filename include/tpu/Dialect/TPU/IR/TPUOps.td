//===- TPUOps.td - tpu dialect operations ------------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUOPS_TD
#define TPU_DIALECT_TPU_IR_TPUOPS_TD

include "tpu/Dialect/TPU/IR/TPUDialect.td"
include "tpu/Dialect/TPU/IR/TPUAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

//===----------------------------------------------------------------------===//
// Types and attributes the ops share
//===----------------------------------------------------------------------===//

// A tensor's device image in HBM is tiled and padded ((8,128) tiles of
// words; bf16 packed two rows to a word in (16,128) tiles); the memref type
// says so with the tiled layout map of its element type
// (tpu::getTiledLayout), so no upstream view that assumes a strided buffer
// applies to it.
def TPU_HbmBuffer : Type<
    CPred<"::tpu::isTiledHbmBuffer($_self)">,
    "a memref in HBM with its element type's tiled layout",
    "::mlir::MemRefType">;
def TPU_VmemBuffer : MemRefRankOf<[F32], [2]>;
def TPU_Vreg : FixedVectorOfShapeAndType<[8, 128], F32>;

// The kernel ops take tensors and give results, or (after bufferization)
// take HBM buffers and write their `outs` buffers.
def TPU_TensorOrBuffer : AnyTypeOf<[AnyRankedTensor, TPU_HbmBuffer]>;

// Integers whose range is an ISA operand field's (tpu/ISA/ISA.def).
class TPU_IsaOperand<string kind> : AttrConstraint<
    CPred<"::tpu::isa::isValidOperand(::tpu::isa::OperandKind::" # kind #
          ", ::llvm::cast<::mlir::IntegerAttr>($_self).getInt())">,
    "in the range of the ISA's " # kind # " operands">;
def TPU_SemaphoreAttr : ConfinedAttr<I64Attr, [TPU_IsaOperand<"Sem">]>;
def TPU_MxuIndexAttr : ConfinedAttr<I64Attr, [TPU_IsaOperand<"Mxu">]>;
def TPU_WaitCountAttr
    : ConfinedAttr<I64Attr, [IntMinValue<1>, TPU_IsaOperand<"Imm16">]>;

def TPU_MatmulOperand : StaticShapeTensorOf<[F32, BF16]>;
def TPU_MatmulResult : StaticShapeTensorOf<[F32]>;

// A kernel op: tensor form before bufferization (results, no `outs`),
// buffer form after (HBM buffers, `outs`, no results). tpu-bufferize
// turns one into the other; tpu-lower-to-mxu writes the buffer form's
// loops.
// Each has `hasBufferSemantics()`: whether it is in buffer form.
def TPU_KernelOpTrait : NativeOpTrait<"KernelOpTrait"> {
  let cppNamespace = "::tpu";
}
class TPU_KernelOp<string mnemonic, list<Trait> traits = []>
    : TPU_Op<mnemonic, !listconcat(traits, [TPU_KernelOpTrait,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>])>;

// What every one-operand kernel op's class declares.
defvar TPU_UnaryKernelDeclarations = [{
    bool hasBufferSemantics() { return bool(getOuts()); }
    ::mlir::Value getResultValue() {
      return hasBufferSemantics() ? ::mlir::Value(getOuts())
                                  : ::mlir::Value(getResult());
    }
    /// `outs` as a range: empty in tensor form. (The op's own operand
    /// storage: a ValueRange of the Value getOuts() returns would point
    /// at a temporary.)
    ::mlir::ValueRange getOutsRange() { return getODSOperands(1); }
}];

// A kernel op on one operand, `source`: tensor to tensor, or HBM buffer to
// the `outs` buffer. `extraArgs` follow the two; the default format fits
// ops without them.
class TPU_UnaryKernelOp<string mnemonic, dag extraArgs = (ins)>
    : TPU_KernelOp<mnemonic> {
  let arguments = !con((ins TPU_TensorOrBuffer:$source,
                            Optional<TPU_HbmBuffer>:$outs), extraArgs);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? attr-dict `:` type($source)
    (`outs` type($outs)^)? (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = TPU_UnaryKernelDeclarations;
  let extraClassDefinition = [{
    void $cppClass::getEffects(
        ::llvm::SmallVectorImpl<::mlir::SideEffects::EffectInstance<
            ::mlir::MemoryEffects::Effect>> &effects) {
      addKernelEffects(*this, getOutsRange(), effects);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Tensor level
//===----------------------------------------------------------------------===//

def TPU_MatmulOp : TPU_Op<"matmul", [Pure]> {
  let summary = "Matrix multiplication on the MXU, with a precision";
  let description = [{
    `result = acc + lhs x rhs`, batched over leading dimensions:
    `lhs` is `[batch..., M, K]`, `rhs` is `[batch..., K, N]`, the optional
    accumulator and the result are `[batch..., M, N]`. Both operands have the
    same batch dimensions, or `rhs` is one `[K, N]` matrix every batch
    shares (a convolution's filter against its `tpu.windows` patches). Operands are f32 or bf16 (they may differ); the
    accumulator and result are f32. Without an accumulator the sum starts from
    zero.

    `precision` says how many bf16 MXU passes an f32 operand gets (see
    `#tpu.precision`). When it is absent, the compiler's `default-precision`
    applies, as `jax_default_matmul_precision` does for a JAX dot with
    `precision=None`.

    ```mlir
    %0 = tpu.matmul %a, %b : tensor<7x300xf32>, tensor<300x129xf32>
           -> tensor<7x129xf32>
    %1 = tpu.matmul %a, %b acc %c {precision = #tpu.precision<highest>}
           : tensor<2x8x128xf32>, tensor<2x128x256xbf16>, tensor<2x8x256xf32>
           -> tensor<2x8x256xf32>
    ```
  }];
  let arguments = (ins
    TPU_MatmulOperand:$lhs,
    TPU_MatmulOperand:$rhs,
    Optional<TPU_MatmulResult>:$acc,
    OptionalAttr<TPU_PrecisionAttr>:$precision
  );
  let results = (outs TPU_MatmulResult:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`acc` $acc^)? attr-dict `:` type($lhs) `,` type($rhs)
    (`,` type($acc)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Kernels: tensor form, then buffer form
//===----------------------------------------------------------------------===//

def TPU_SplitOp : TPU_KernelOp<"split"> {
  let summary = "Round f32 values to bf16, or split them into bf16 parts";
  let description = [{
    Splits each element x into 1, 2 or 3 bf16 parts whose sum approximates
    x (docs/Numerics.md): `hi = bf16(x)`, `mid = bf16(x - hi)`,
    `lo = bf16(x - hi - mid)`, each subtraction exact in f32. With one part
    it is the rounding alone (`arith.truncf` to bf16); with two, hi and lo
    (HIGH, where lo = bf16(x - hi)); with three, hi, mid and lo (HIGHEST).
    `rounding` is the bf16 rounding; with `rne` and more than one part, a
    finite x whose hi would round up to inf (near FLT_MAX) has hi truncated
    instead, so the parts stay finite.

    Tensor form (results) and buffer form (`outs`, written):

    ```mlir
    %hi, %lo = tpu.split %a {rounding = #tpu.rounding<rne>}
        : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
    tpu.split %buf outs(%hib, %lob) {rounding = #tpu.rounding<rne>}
        : memref<8x128xf32, #tiled, #hbm>
          outs memref<8x128xbf16, #tiled, #hbm>, memref<8x128xbf16, #tiled, #hbm>
    ```
  }];
  let arguments = (ins TPU_TensorOrBuffer:$input,
                       Variadic<TPU_HbmBuffer>:$outs,
                       TPU_RoundingAttr:$rounding);
  let results = (outs Variadic<AnyStaticShapeTensor>:$parts);
  let assemblyFormat = [{
    $input (`outs` `(` $outs^ `)`)? attr-dict `:` type($input)
    (`outs` type($outs)^)? (`->` type($parts)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool hasBufferSemantics() { return !getOuts().empty(); }
    /// The parts, as values (tensor form) or buffers (buffer form).
    ::mlir::ValueRange getPartValues() {
      return hasBufferSemantics() ? ::mlir::ValueRange(getOuts())
                                  : ::mlir::ValueRange(getParts());
    }
  }];
}

def TPU_MatmulPassesOp
    : TPU_KernelOp<"matmul_passes", [AttrSizedOperandSegments]> {
  let summary = "A sum of bf16 MXU passes: the expanded form of tpu.matmul";
  let description = [{
    The products `lhs[i] x rhs[i]` (the terms, each one MXU pass per K
    tile), summed on the MXU in two groups, then combined on the VPU:

    ```
    result = FixNaN(sum of terms [0, nan_fixed_terms))
           + (sum of terms [nan_fixed_terms, n)) (+ acc)
    ```

    Each group accumulates in its own MXU result slots, K tiles outermost
    and its terms inside, in the order listed. FixNaN turns NaN into 0: the small
    terms of a split inf are NaN, and must not spoil an inf result.
    Operands are rounded to bf16 as the MXU reads them, so DEFAULT precision
    is the one term `a x b` with f32 operands. `tpu-expand-precision`
    produces this op; every operand pair has the shapes of a `tpu.matmul`
    (already padded to whole tiles by `tpu-pad-to-tiles`), except that the
    rhs may lack the last rows of K, which are then zero: fewer than the
    MXU's 128, in whole row tiles of its layout (8 rows for f32, 16 for
    bf16). `tpu-fuse` makes such an rhs of the zero padding
    `tpu-pad-to-tiles` added, and the kernel fills the missing rows in VMEM
    instead of reading rows of zeros from HBM. In buffer form the result is
    written to the `outs` buffer.

    With `lhs_parts`, `rhs_parts` and `split` (`tpu-fuse` sets them when
    it takes in the `tpu.split`s of the operands), a term may read one
    bf16 part of an f32 operand's split instead of the operand itself:
    part p (0 hi, 1 mid, 2 lo; HIGH's lo is part 1) is what a `tpu.split`
    into two or more parts with rounding `split` gives as its result p
    (so part 0 is the guarded hi), and -1 reads the operand as it is. The
    kernel splits each tile in VMEM on the way to the MXU, so the parts
    never go to HBM, and each operand's tiles are read once however many
    terms read its parts.

    ```mlir
    // HIGH, the splits taken in: lo.hi, hi.lo, hi.hi
    %r = tpu.matmul_passes lhs(%a, %a, %a) rhs(%b, %b, %b)
           {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64,
            rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>}
           : (tensor<8x128xf32>, ..., tensor<128x128xf32>)
           -> tensor<8x128xf32>
    ```

    An `epilogue` (`tpu-fuse` makes it of an elementwise consumer) is
    applied to each result tile on the VPU before it is stored: a body as
    `tpu.elementwise`'s, of the sum above and one element of each
    `epilogue` input, yielding the result:
    `result = epilogue(sum, inputs[0], ...)`. An input has the result's
    shape, or is a rank-1 row of as many lane tiles, the same for every
    row (a bias, read into every sublane with `v.ld` of stride 0; its
    padding lanes meet the result's). So a
    bias, an activation or a residual add costs no HBM round trip of the
    matmul's result, nor of a broadcast bias.

    ```mlir
    // HIGH: FixNaN(lo.hi + hi.lo) + hi.hi
    %r = tpu.matmul_passes lhs(%alo, %ahi, %ahi) rhs(%bhi, %blo, %bhi)
           {nan_fixed_terms = 2 : i64}
           : (tensor<8x128xbf16>, ..., tensor<128x128xbf16>)
           -> tensor<8x128xf32>
    // relu(a x b + bias)
    %s = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%bias)
           {nan_fixed_terms = 0 : i64}
           : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>)
           -> tensor<8x128xf32> {
    ^bb0(%sum: f32, %bias_element: f32):
      %t = arith.addf %sum, %bias_element : f32
      %r = arith.maximumf %t, %zero : f32
      tpu.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<TPU_TensorOrBuffer>:$lhs,
                       Variadic<TPU_TensorOrBuffer>:$rhs,
                       Optional<TPU_TensorOrBuffer>:$acc,
                       Variadic<TPU_TensorOrBuffer>:$epilogue_inputs,
                       Optional<TPU_HbmBuffer>:$outs,
                       I64Attr:$nan_fixed_terms,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_parts,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_parts,
                       OptionalAttr<TPU_RoundingAttr>:$split);
  let results = (outs Optional<TPU_MatmulResult>:$result);
  let regions = (region AnyRegion:$epilogue);
  let assemblyFormat = [{
    `lhs` `(` $lhs `)` `rhs` `(` $rhs `)` (`acc` `(` $acc^ `)`)?
    (`epilogue` `(` $epilogue_inputs^ `)`)?
    (`outs` `(` $outs^ `)`)? attr-dict `:` functional-type(operands, results)
    ($epilogue^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    bool hasBufferSemantics() { return bool(getOuts()); }
    /// The result, as a value (tensor form) or buffer (buffer form).
    ::mlir::Value getResultValue() {
      return hasBufferSemantics() ? ::mlir::Value(getOuts())
                                  : ::mlir::Value(getResult());
    }
    /// Whether an epilogue is applied to the result.
    bool hasEpilogue() { return !getEpilogue().empty(); }
    /// The part of its lhs (rhs) operand's split that term `term` reads
    /// (0 hi, 1 mid, 2 lo), or -1 for the operand as it is.
    int64_t getLhsPart(unsigned term) {
      return getLhsParts() ? (*getLhsParts())[term] : -1;
    }
    int64_t getRhsPart(unsigned term) {
      return getRhsParts() ? (*getRhsParts())[term] : -1;
    }
    /// Checks lhs_parts, rhs_parts and split (part of verify()).
    ::mlir::LogicalResult verifySplitParts();
  }];
}

def TPU_ResizeOp : TPU_UnaryKernelOp<"resize",
    (ins UnitAttr:$zero_padded_source)> {
  let summary = "Pad with zeros or drop at the high end of the minor dims";
  let description = [{
    The source with its two minor dimensions grown (the new elements are
    zero) or shrunk (elements past the new size are dropped) at the high
    end; leading dimensions stay. What `tpu-pad-to-tiles` pads operands
    with and slices results back with.

    `zero_padded_source` says the source's padding is known to be zero
    (tpu-bufferize sets it: arguments and what kernels compute from them
    are; an elementwise result whose body does not map zero to zero is
    not, nor is the result of a resize that shrinks, whose dropped
    elements become padding). Then, when both shapes have the same tiles
    ((16,128) for bf16), the device image is the same and bufferization
    makes the result a
    `tpu.tiled_view` of the source. Otherwise the buffer form copies the
    row tiles both have into the `outs` buffer, zeroes what of the source's
    padding becomes elements unless it is known zero, and writes zeros to
    the rows the source lacks.

    ```mlir
    %p = tpu.resize %a {zero_padded_source} : tensor<7x300xf32>
           -> tensor<8x384xf32>
    ```
  }];
}

def TPU_BroadcastOp : TPU_UnaryKernelOp<"broadcast",
    (ins DenseI64ArrayAttr:$dimensions)> {
  let summary = "Copy the source along new dimensions";
  let description = [{
    As `linalg.broadcast`: the result has the source's dimensions and, at
    the positions `dimensions` lists, new ones, along which the source is
    repeated. `tpu-convert-linalg` makes it from `linalg.broadcast` and
    from the broadcasting indexing maps of an elementwise `linalg.generic`.

    On the machine a tile of the source is a tile of the result, or (for a
    new second-to-last dimension, a row broadcast) row 0 of a source tile
    read into every sublane. So the last dimension (the lanes) cannot be
    new, and a row broadcast needs a rank-1 source (a bias row). The
    padding of the result is the source's padding (rows past the end of a
    row broadcast are zero).

    ```mlir
    %b = tpu.broadcast %bias dimensions = [0] : tensor<300xf32>
           -> tensor<7x300xf32>
    ```
  }];
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `dimensions` `=` $dimensions attr-dict
    `:` type($source) (`outs` type($outs)^)? (`->` type($result)^)?
  }];
}

def TPU_ReduceOp : TPU_UnaryKernelOp<"reduce",
    (ins TPU_ReductionKindAttr:$kind, F32Attr:$init)> {
  let summary = "Reduce each row (the last dimension) to one value";
  let description = [{
    For every row of the source (its last dimension), `init` combined with
    the row's values by `kind`, in the order docs/Numerics.md
    ("Reductions") defines. The result keeps the dimension with size 1 (a
    column: on the machine one lane of rows, so a row's value stays in its
    sublane). `tpu-convert-linalg` makes it from `linalg.reduce` over the
    last dimension. Padding lanes of the source, whatever they hold, count
    as the kind's identity.

    A `prologue` (`tpu-fuse` makes it of an elementwise producer) is
    applied to each element before it is combined: a body as
    `tpu.elementwise`'s of one element, so `sum(x * x)` is one pass over
    `x`.

    ```mlir
    %m = tpu.reduce %x kind = <max> init = 0xFF800000
           : tensor<7x300xf32> -> tensor<7x1xf32>
    %s = tpu.reduce %x kind = <sum> init = 0.0
           : tensor<7x300xf32> -> tensor<7x1xf32> {
    ^bb0(%e: f32):
      %sq = arith.mulf %e, %e : f32
      tpu.yield %sq : f32
    }
    ```
  }];
  let regions = (region AnyRegion:$prologue);
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `kind` `=` $kind `init` `=` $init
    attr-dict `:` type($source) (`outs` type($outs)^)? (`->` type($result)^)?
    ($prologue^)?
  }];
  let hasRegionVerifier = 1;
}

def TPU_ReduceColumnsOp : TPU_UnaryKernelOp<"reduce_columns",
    (ins TPU_ReductionKindAttr:$kind, F32Attr:$init)> {
  let summary = "Reduce each column (the second-to-last dimension) to one value";
  let description = [{
    For every column of every matrix of the source (its second-to-last
    dimension), `init` combined with the column's values by `kind`, in the
    order docs/Numerics.md ("Reductions") defines: eight sublane
    accumulators take the row tiles in order, then are combined with each
    other. The result keeps the dimension with size 1 (a row: on the
    machine one sublane, so a column's value stays in its lane).
    `tpu-convert-linalg` makes it from `linalg.reduce` over the
    second-to-last dimension. Padding rows of the source, whatever they
    hold, count as the kind's identity; the result's padding is zero.

    ```mlir
    %s = tpu.reduce_columns %x kind = <sum> init = 0.0
           : tensor<300x129xf32> -> tensor<1x129xf32>
    ```
  }];
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `kind` `=` $kind `init` `=` $init
    attr-dict `:` type($source) (`outs` type($outs)^)? (`->` type($result)^)?
  }];
}

def TPU_ReduceMatricesOp : TPU_UnaryKernelOp<"reduce_matrices",
    (ins DenseI64ArrayAttr:$dimensions, TPU_ReductionKindAttr:$kind,
         F32Attr:$init)> {
  let summary = "Combine the matrices along leading dimensions";
  let description = [{
    As `linalg.reduce` over `dimensions`, all of them leading (neither of
    the last two): each element of the result is `init` combined by `kind`
    with the source's elements at the same row and column of every matrix
    the reduced coordinates pick, in ascending row-major order of those
    coordinates (docs/Numerics.md, "Reductions"). On the machine it is
    tile by tile on the VPU, so the layout stays; the result's padding is
    `init` combined with the sources' padding. `tpu-convert-linalg` makes
    it from a `linalg.reduce` of leading dimensions (the sum over heads of
    multi-head attention's output projection).

    ```mlir
    %s = tpu.reduce_matrices %x dimensions = [0] kind = <sum> init = 0.0
           : tensor<4x128x256xf32> -> tensor<128x256xf32>
    ```
  }];
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `dimensions` `=` $dimensions `kind` `=`
    $kind `init` `=` $init attr-dict `:` type($source) (`outs` type($outs)^)?
    (`->` type($result)^)?
  }];
}

def TPU_WindowsOp : TPU_UnaryKernelOp<"windows",
    (ins DenseI64ArrayAttr:$window, DenseI64ArrayAttr:$strides,
         DenseI64ArrayAttr:$dilations, DenseI64ArrayAttr:$padding,
         F32Attr:$pad_value)> {
  let summary = "The windows of an NHWC image, as convolution and pooling see them";
  let description = [{
    The source is an image batch `[N, H, W, C]`; `window` is `[KH, KW]`,
    `strides` and `dilations` `[sh, sw]` and `[dh, dw]`, and `padding`
    `[top, bottom, left, right]`: the image as if `tensor.pad` had first
    surrounded it with that many rows and columns of `pad_value`. The
    output is `OH x OW` with `OH = (H + top + bottom - dh (KH - 1) - 1) /
    sh + 1` (likewise OW), and tap `(kh, kw)` of output position
    `(oh, ow)` is the padded image's element at row `oh sh + kh dh` and
    column `ow sw + kw dw`. The result holds the taps in one of two
    layouts, which its rank says:

    - rank 6, `[KH, KW, N, OH, OW, C]`: the taps lead, so a pooling is a
      `tpu.reduce_matrices` over the first two dimensions;
    - rank 4, `[N, OH, OW, KH * KW * C]`: the taps of a position are one
      row, tap `kh * KW + kw` in lanes `[t C, (t + 1) C)`: the im2col
      matrix a convolution multiplies by its filter. C must be a multiple
      of 128 (`tpu-convert-linalg` pads the channels first), so every
      tap fills whole lane tiles.

    On the machine the columns of an image row are a tile's sublanes and
    the channels its lanes: the kernel reads each output tile's eight
    columns with one strided `v.ld` from the padded image row in VMEM.
    Padding rows of the result are zero; its padding lanes are the
    source's where a tap is in the image and zero where it is the pad
    value.

    ```mlir
    %p = tpu.windows %x {window = array<i64: 3, 3>,
                         strides = array<i64: 1, 1>,
                         dilations = array<i64: 1, 1>,
                         padding = array<i64: 1, 1, 1, 1>, pad_value = 0.0 : f32}
           : tensor<8x32x32x128xf32> -> tensor<8x32x32x1152xf32>
    ```
  }];
  let extraClassDeclaration = TPU_UnaryKernelDeclarations # [{
    /// Whether the taps lead the result (rank 6) rather than lie in its
    /// lanes (rank 4).
    bool hasLeadingTaps();
    /// The output's [OH, OW] for a source of [N, H, W, C], or nothing if
    /// a window does not fit the padded image.
    static std::optional<std::array<int64_t, 2>>
    getOutputSize(::llvm::ArrayRef<int64_t> source,
                  ::llvm::ArrayRef<int64_t> window,
                  ::llvm::ArrayRef<int64_t> strides,
                  ::llvm::ArrayRef<int64_t> dilations,
                  ::llvm::ArrayRef<int64_t> padding);
  }];
}

def TPU_BroadcastLanesOp : TPU_UnaryKernelOp<"broadcast_lanes"> {
  let summary = "Repeat a column's value across each row";
  let description = [{
    `result[..., r, c] = source[..., r, 0]`: a column (last dimension 1,
    one lane of rows on the machine) widened to `c` columns, as a per-row
    statistic is used against its row (`x - max(x)[:, None]`). Padding
    lanes of the result are zero.

    ```mlir
    %w = tpu.broadcast_lanes %m : tensor<7x1xf32> -> tensor<7x300xf32>
    ```
  }];
}

def TPU_TransposeOp : TPU_UnaryKernelOp<"transpose"> {
  let summary = "Swap the two minor dimensions";
  let description = [{
    `result[..., c, r] = source[..., r, c]`, leading dimensions kept. On
    the machine each 128 x 128 block is transposed on the XLU
    (`v.xpose`), rows of a block past the source's tiles are zero, and the
    result's padding is the source's. `tpu-convert-linalg` makes it from a
    `linalg.transpose` that swaps the last two dimensions.

    ```mlir
    %t = tpu.transpose %k : tensor<512x128xf32> -> tensor<128x512xf32>
    ```
  }];
}

def TPU_InsertRowsOp : TPU_KernelOp<"insert_rows", [AttrSizedOperandSegments]> {
  let summary = "A box of rows of one tensor put into (or taken from) another";
  let description = [{
    Moves whole rows (the last dimension entire) between tensors of the
    same last dimension, in one of two ways, which the operands say:

    - with a `dest`: the result is `dest` with the box at `offsets` (one
      offset per dimension but the last) replaced by `source`, as
      `tensor.insert_slice`; without one, the rest of the result is zero
      (an insert into `tensor.empty`, as `tensor.concat` decomposes);
    - with `extract`: the result is the box of `source` at `offsets` of
      the result's shape, as `tensor.extract_slice`.

    On the machine a box of rows starts at any row of a tile: each row
    tile of the box is one `v.ld` (at any VMEM row) and one masked `v.st`
    (at any row) between VMEM copies of the two sides' tiles.

    ```mlir
    %s = tpu.insert_rows %x extract offsets = [1, 3]
           : tensor<4x9x300xf32> -> tensor<2x5x300xf32>
    %i = tpu.insert_rows %s into %y offsets = [0, 2]
           : tensor<2x5x300xf32>, tensor<3x7x300xf32> -> tensor<3x7x300xf32>
    ```
  }];
  let arguments = (ins TPU_TensorOrBuffer:$source,
                       Optional<TPU_TensorOrBuffer>:$dest,
                       Optional<TPU_HbmBuffer>:$outs,
                       DenseI64ArrayAttr:$offsets, UnitAttr:$extract);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let assemblyFormat = [{
    $source (`into` $dest^)? (`outs` `(` $outs^ `)`)? (`extract` $extract^)?
    `offsets` `=` $offsets attr-dict `:` type($source) (`,` type($dest)^)?
    (`outs` type($outs)^)? (`->` type($result)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    bool hasBufferSemantics() { return bool(getOuts()); }
    ::mlir::Value getResultValue() {
      return hasBufferSemantics() ? ::mlir::Value(getOuts())
                                  : ::mlir::Value(getResult());
    }
    /// `outs` as a range: empty in tensor form.
    ::mlir::ValueRange getOutsRange() { return getODSOperands(2); }
  }];
}

def TPU_PermuteMatricesOp : TPU_UnaryKernelOp<"permute_matrices",
    (ins DenseI64ArrayAttr:$permutation)> {
  let summary = "Permute the leading dimensions, moving whole matrices";
  let description = [{
    As `linalg.transpose` with `permutation` over the leading dimensions
    (all but the last two, which stay): result dimension d is source
    dimension `permutation[d]`. On the machine each matrix is a run of
    tiles, so the kernel DMAs every matrix of the source to its place in
    the result through VMEM. `tpu-convert-linalg` makes it from a
    `linalg.transpose` that permutes leading dimensions (before a
    `tpu.transpose` when it also swaps the last two).

    ```mlir
    %p = tpu.permute_matrices %x permutation = [1, 0]
           : tensor<2x4x7x300xf32> -> tensor<4x2x7x300xf32>
    ```
  }];
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `permutation` `=` $permutation
    attr-dict `:` type($source) (`outs` type($outs)^)? (`->` type($result)^)?
  }];
}

def TPU_PermuteRowsOp : TPU_UnaryKernelOp<"permute_rows",
    (ins DenseI64ArrayAttr:$permutation)> {
  let summary = "Permute every dimension but the last, moving whole rows";
  let description = [{
    As `linalg.transpose` with `permutation` over all dimensions but the
    last (which stays), where the row dimension (the one before the last)
    moves: result dimension d is source dimension `permutation[d]`. Each
    result row is a source row, its lanes unchanged; a result tile's eight
    rows are eight source rows at one stride, which the kernel gathers with
    one strided `v.ld` (`tpu.permute_matrices` covers the permutations that
    keep the rows, moving whole matrices). `tpu-convert-linalg` makes it
    when it breaks a `linalg.transpose` (of any permutation) or a reshape
    that moves lanes into steps the machine has.

    ```mlir
    %p = tpu.permute_rows %x permutation = [1, 0]
           : tensor<4x128x64xf32> -> tensor<128x4x64xf32>
    ```
  }];
  let assemblyFormat = [{
    $source (`outs` `(` $outs^ `)`)? `permutation` `=` $permutation
    attr-dict `:` type($source) (`outs` type($outs)^)? (`->` type($result)^)?
  }];
}

def TPU_ReshapeOp : TPU_UnaryKernelOp<"reshape"> {
  let summary = "The same elements in another shape";
  let description = [{
    The source's elements, in row-major order, with the result's shape (as
    `tensor.reshape`). Reshapes that keep the tiled image (the last
    dimension, and either the rows and the number of matrices, or rows
    that fill whole tiles on both sides, so that they lie one after
    another: `2x64x300` and `128x300`) bufferize to a `tpu.tiled_view`;
    `tpu-convert-linalg` makes them from `tensor.expand_shape` and
    `tensor.collapse_shape`. A vector of n elements and an n x 1 column, which
    `linalg.matvec` needs, lie differently: a vector is one row of lanes, a
    column one lane of rows, so the buffer form moves every element, 128 x
    128 blocks at a time through `tpu.transpose_block`. A reshape that
    keeps the last dimension but regroups the rows into matrices of
    another height (`8x1x1x10` to `8x10`, `2x7x300` to `14x300`), one
    side's a multiple of the other's, moves runs of rows with `v.ld` and
    masked `v.st` in VMEM. Other reshapes are not supported yet.

    ```mlir
    %col = tpu.reshape %v : tensor<300xf32> -> tensor<300x1xf32>
    ```
  }];
  let extraClassDeclaration = TPU_UnaryKernelDeclarations # [{
    /// Whether source and result have the same tiled image.
    bool keepsTiledImage();
    /// Whether it turns a vector into a column (true) or back (false);
    /// nothing for a reshape that keeps the tiled image.
    std::optional<bool> isVectorToColumn();
    /// Whether it keeps the last dimension and regroups the rows into
    /// matrices of another height, one side's a multiple of the other's.
    bool regroupsRows();
    /// Whether a reshape from `from` to `to` has a buffer form: it keeps
    /// the tiled image (a view), turns a vector into a column or back, or
    /// regroups rows.
    static bool hasBufferForm(::llvm::ArrayRef<int64_t> from,
                              ::llvm::ArrayRef<int64_t> to);
  }];
}

def TPU_ElementwiseOp : TPU_KernelOp<"elementwise",
    [AttrSizedOperandSegments, SingleBlock]> {
  let summary = "An elementwise computation on the VPU";
  let description = [{
    `result[i] = body(inputs[0][i], inputs[1][i], ...)` for every element
    i: the body takes one scalar per input and yields the result's scalar.
    All inputs have the result's shape. The body's ops are those the VPU
    has instructions for (`tpu::isVpuOp`; docs/ISA.md lists them), and the
    element types f32 (bf16 values are f32 words, rounded). The padding of
    the result's tiled image is the body applied to the inputs' padding,
    which need not be zero. `tpu-convert-linalg` makes it from an
    elementwise `linalg.generic` (and the named elementwise ops).

    ```mlir
    %q = tpu.elementwise ins(%a, %b : tensor<7x300xf32>, tensor<7x300xf32>)
           -> tensor<7x300xf32> {
    ^bb0(%x: f32, %y: f32):
      %d = arith.divf %x, %y : f32
      tpu.yield %d : f32
    }
    ```
  }];
  let arguments = (ins Variadic<TPU_TensorOrBuffer>:$inputs,
                       Optional<TPU_HbmBuffer>:$outs);
  let results = (outs Optional<AnyStaticShapeTensor>:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `ins` `(` $inputs `:` type($inputs) `)` (`outs` `(` $outs^ `:`
    type($outs) `)`)? (`->` type($result)^)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    bool hasBufferSemantics() { return bool(getOuts()); }
    ::mlir::Value getResultValue() {
      return hasBufferSemantics() ? ::mlir::Value(getOuts())
                                  : ::mlir::Value(getResult());
    }
  }];
}

def TPU_YieldOp : TPU_Op<"yield", [Pure, Terminator,
    ParentOneOf<["ElementwiseOp", "MatmulPassesOp", "ReduceOp"]>]> {
  let summary = "The element a tpu.elementwise body (or an epilogue) computes";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Loop level: DMA, MXU and vector memory on planned buffers
//===----------------------------------------------------------------------===//
//
// `tpu-lower-to-mxu` writes these inside scf loops; `tpu-plan-memory` gives
// every buffer an address; `tpu-lower-to-isa` turns each into its ISA
// instruction plus the address arithmetic. Offsets are index values in the
// memory's own unit: HBM tiles of 4 KiB, VMEM rows of 128 words.

def TPU_TiledViewOp : TPU_Op<"tiled_view", [Pure]> {
  let summary = "An HBM buffer's tiled image seen with another shape";
  let description = [{
    The same buffer as `source`, typed with a shape (and element type) that
    has the same tiles, (16,128) for bf16 (as many row tiles, over all
    matrices, of as many column tiles): a tensor padded or sliced within its last
    tiles, or reshaped keeping them, has the same device image. Generates
    no code.

    ```mlir
    %v = tpu.tiled_view %buf : memref<8x256xf32, #tiled, #tpu.memory_space<hbm>>
           to memref<7x129xf32, #tiled, #tpu.memory_space<hbm>>
    ```
  }];
  let arguments = (ins TPU_HbmBuffer:$source);
  let results = (outs TPU_HbmBuffer:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
  let hasVerifier = 1;
}

def TPU_DmaLoadOp : TPU_Op<"dma_load"> {
  let summary = "DMA tiles from HBM into VMEM";
  let description = [{
    Copies `count` tiles, HBM tile `hbm_tile + i * hbm_stride` of `source`
    to the VMEM tile at row `vmem_row + 8 i` of `target`, asynchronously;
    the transfer counts once on `semaphore` when it completes
    (`tpu.dma_wait`). Becomes `dma.ld`.
  }];
  let arguments = (ins TPU_HbmBuffer:$source, Index:$hbm_tile,
                       Index:$hbm_stride, TPU_VmemBuffer:$target,
                       Index:$vmem_row, Index:$count,
                       TPU_SemaphoreAttr:$semaphore);
  let assemblyFormat = [{
    $source `[` $hbm_tile `,` `stride` $hbm_stride `]` `to` $target `[`
    $vmem_row `]` `tiles` $count `sem` $semaphore attr-dict `:` type($source)
    `,` type($target)
  }];
}

def TPU_DmaStoreOp : TPU_Op<"dma_store"> {
  let summary = "DMA tiles from VMEM into HBM";
  let description = [{
    The reverse of `tpu.dma_load`: `count` VMEM tiles from row `vmem_row`
    of `source` to HBM tiles `hbm_tile + i * hbm_stride` of `target`.
    Becomes `dma.st`.
  }];
  let arguments = (ins TPU_VmemBuffer:$source, Index:$vmem_row,
                       TPU_HbmBuffer:$target, Index:$hbm_tile,
                       Index:$hbm_stride, Index:$count,
                       TPU_SemaphoreAttr:$semaphore);
  let assemblyFormat = [{
    $source `[` $vmem_row `]` `to` $target `[` $hbm_tile `,` `stride`
    $hbm_stride `]` `tiles` $count `sem` $semaphore attr-dict `:`
    type($source) `,` type($target)
  }];
}

def TPU_DmaWaitOp : TPU_Op<"dma_wait"> {
  let summary = "Wait for DMA transfers on a semaphore";
  let description = [{
    Waits until `count` transfers on `semaphore` have completed and consumes
    them. Transfers complete in the order they were issued, so waiting for
    the oldest n is waiting for n. Becomes `dma.wait`.
  }];
  let arguments = (ins TPU_SemaphoreAttr:$semaphore,
                       TPU_WaitCountAttr:$count);
  let assemblyFormat = "`sem` $semaphore `count` $count attr-dict";
}

def TPU_MxuLoadWeightsOp : TPU_Op<"mxu_load_weights"> {
  let summary = "Stage a 128x128 weight tile in an MXU";
  let description = [{
    Shifts rows `k` = 0..127 of the weight tile from VMEM row
    `vmem_row + (k / 8) * stride + k % 8` of `source` (rounded to bf16)
    into the MXU's staged weights, over 128 cycles; pushes go on
    multiplying by the latched weights until a `tpu.mxu_latch`.
    Becomes `mxu.ldw`. With `packed`, the tile is bf16 packed two rows to a
    word (docs/Compiler.md, "Packed bf16"): row `k` is the low half of VMEM
    row `vmem_row + (k / 16) * stride + k % 8` when `k % 16 < 8`, else its
    high half. Becomes `mxu.ldw.bf16`.
  }];
  let arguments = (ins TPU_VmemBuffer:$source, Index:$vmem_row,
                       Index:$stride, TPU_MxuIndexAttr:$mxu,
                       UnitAttr:$packed);
  let assemblyFormat = [{
    $source `[` $vmem_row `,` `stride` $stride `]` `mxu` $mxu
    (`packed` $packed^)? attr-dict `:` type($source)
  }];
}

def TPU_MxuLatchOp : TPU_Op<"mxu_latch"> {
  let summary = "Make an MXU's staged weights the ones pushes multiply by";
  let description = [{
    The pushes after it multiply by the weights the last
    `tpu.mxu_load_weights` to the MXU staged; it waits until they have
    shifted in. Staging the next tile while pushes stream through the
    latched one hides the load. Becomes `mxu.latch`.
  }];
  let arguments = (ins TPU_MxuIndexAttr:$mxu);
  let assemblyFormat = "`mxu` $mxu attr-dict";
}

def TPU_MxuPushOp : TPU_Op<"mxu_push"> {
  let summary = "Stream 8 LHS rows through an MXU into a result slot";
  let description = [{
    Multiplies the 8 rows of `rows` (rounded to bf16) by the latched
    weights and writes result slot `slot`, or adds into it when
    `accumulate` is set. Becomes `mxu.push`.
  }];
  let arguments = (ins TPU_Vreg:$rows, Index:$slot, TPU_MxuIndexAttr:$mxu,
                       UnitAttr:$accumulate);
  let assemblyFormat = [{
    $rows `to` `mxu` $mxu `slot` $slot (`accumulate` $accumulate^)? attr-dict
    `:` type($rows)
  }];
}

def TPU_MxuPopOp : TPU_Op<"mxu_pop"> {
  let summary = "Read an MXU result slot";
  let description = "The 8 x 128 f32 results in `slot`. Becomes `mxu.pop`.";
  let arguments = (ins Index:$slot, TPU_MxuIndexAttr:$mxu);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "`mxu` $mxu `slot` $slot attr-dict `:` type($result)";
}

def TPU_VectorLoadOp : TPU_Op<"vector_load"> {
  let summary = "Load one VMEM tile into a vector register";
  let description = [{
    Rows `row + s * sublane_stride` of `source` for s = 0 .. 7, as an 8 x
    128 vector: the tile at `row` by default, with `sublane_stride = 0` row
    `row` in every sublane (a sublane broadcast), with 2 every other row
    (a stride-2 window's columns). Becomes `v.ld`.
  }];
  let arguments = (ins TPU_VmemBuffer:$source, Index:$row,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                           [IntMinValue<0>, TPU_IsaOperand<"Imm32">]>, "1">
                         :$sublane_stride);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = [{
    $source `[` $row `]` attr-dict `:` type($source) `,` type($result)
  }];
}

def TPU_VectorStoreOp : TPU_Op<"vector_store"> {
  let summary = "Store a vector register to one VMEM tile";
  let description = [{
    The reverse of `tpu.vector_load`: sublane s to row `row + s`, for the
    sublanes set in `sublane_mask` (all by default); the other rows keep
    their contents. Becomes `v.st`.
  }];
  let arguments = (ins TPU_Vreg:$value, TPU_VmemBuffer:$target, Index:$row,
                       DefaultValuedAttr<ConfinedAttr<I64Attr,
                           [IntMinValue<1>, IntMaxValue<255>]>, "255">
                         :$sublane_mask);
  let assemblyFormat = [{
    $value `,` $target `[` $row `]` attr-dict `:` type($value) `,`
    type($target)
  }];
}

def TPU_LaneMaskOp : TPU_Op<"lane_mask", [Pure]> {
  let summary = "True in the lanes below a count";
  let description = [{
    In every sublane, lanes `0 .. count - 1` true, the rest false: the
    mask that separates a tile's valid columns from its padding. Becomes
    `v.lmask`.
  }];
  let arguments = (ins Index:$count);
  let results = (outs FixedVectorOfShapeAndType<[8, 128], I1>:$result);
  let assemblyFormat = "$count attr-dict `:` type($result)";
}

def TPU_LaneReduceOp : TPU_Op<"lane_reduce",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Reduce each sublane's lanes, the result in every lane";
  let description = [{
    Per sublane, lane 0 combined with lanes 1, 2, ..., 127 in order by
    `kind`, written to all of the sublane's lanes. Becomes `v.rsum`,
    `v.rmax`, `v.rmin`, `v.rmaxnum` or `v.rminnum`.
  }];
  let arguments = (ins TPU_Vreg:$input, TPU_ReductionKindAttr:$kind);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def TPU_LaneBroadcastOp : TPU_Op<"lane_broadcast",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Each sublane's lane 0 in all its lanes";
  let description = "Bits unchanged. Becomes `v.lbcast`.";
  let arguments = (ins TPU_Vreg:$input);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def TPU_TransposeBlockOp : TPU_Op<"transpose_block"> {
  let summary = "Transpose a 128x128 block between VMEM buffers";
  let description = [{
    Reads the 128 rows from `source_row` of `source`, transposes them as a
    128 x 128 block, and writes the 128 rows from `target_row` of `target`.
    It takes two register groups of `v.xpose` (all the vector registers:
    `v.ld` x 16, `v.xpose`, `v.st` x 16), so no vector value may be live
    across it. The layout change between a vector (one row of lanes) and a
    column (one lane of rows), as `linalg.matvec` needs, is made of these.
  }];
  let arguments = (ins TPU_VmemBuffer:$source, Index:$source_row,
                       TPU_VmemBuffer:$target, Index:$target_row);
  let assemblyFormat = [{
    $source `[` $source_row `]` `to` $target `[` $target_row `]` attr-dict `:`
    type($source) `,` type($target)
  }];
}

def TPU_PackBF16Op : TPU_Op<"pack_bf16",
    [Pure, AllTypesMatch<["low", "high", "result"]>]> {
  let summary = "Two vregs of bf16 values packed into one";
  let description = [{
    Each word holds `low`'s element, rounded to bf16 (ties to even), in its
    low 16 bits and `high`'s in its high 16 bits: rows 0-7 and 8-15 of a
    16 x 128 packed bf16 tile. Becomes `v.pack.bf16`.
  }];
  let arguments = (ins TPU_Vreg:$low, TPU_Vreg:$high);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "$low `,` $high attr-dict `:` type($result)";
}

def TPU_UnpackBF16Op : TPU_Op<"unpack_bf16",
    [Pure, AllTypesMatch<["packed", "result"]>]> {
  let summary = "One half of each word of a packed bf16 vreg, as f32";
  let description = [{
    The bf16 in the low 16 bits of each word (rows 0-7 of a packed tile),
    or with `high` in the high 16 bits (rows 8-15), extended to f32
    exactly. Becomes `v.unpack.lo` or `v.unpack.hi`.
  }];
  let arguments = (ins TPU_Vreg:$packed, UnitAttr:$high);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "$packed (`high` $high^)? attr-dict `:` type($result)";
}

def TPU_RoundToBF16Op : TPU_Op<"round_to_bf16",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Round each element to bf16, kept in f32";
  let description = [{
    Each element rounded to the nearest bf16 (ties to even) or truncated,
    per `rounding`. Becomes `v.rne.bf16` or `v.trunc.bf16`.
  }];
  let arguments = (ins TPU_Vreg:$input, TPU_RoundingAttr:$rounding);
  let results = (outs TPU_Vreg:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // TPU_DIALECT_TPU_IR_TPUOPS_TD
