//===- TPUAttrs.td - tpu dialect attributes ----------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUATTRS_TD
#define TPU_DIALECT_TPU_IR_TPUATTRS_TD

include "tpu/Dialect/TPU/IR/TPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

class TPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Precision
//===----------------------------------------------------------------------===//

def TPU_Precision : I32EnumAttr<"Precision",
    "MXU precision of an f32 matmul, as JAX's lax.Precision", [
      I32EnumAttrCase<"Default", 0, "default">,
      I32EnumAttrCase<"High", 1, "high">,
      I32EnumAttrCase<"Highest", 2, "highest">
    ]> {
  let cppNamespace = "::tpu";
  let genSpecializedAttr = 0;
}

def TPU_PrecisionAttr : EnumAttr<TPU_Dialect, TPU_Precision, "precision"> {
  let summary = "MXU precision: default (1 bf16 pass), high (3), highest (6)";
  let description = [{
    How many bf16 passes an f32 matmul takes on the MXU, named as JAX's
    `lax.Precision`:

    | value     | passes | also accepted when parsing                 |
    |-----------|--------|--------------------------------------------|
    | `default` | 1      | `bfloat16`, `BF16_BF16_F32`                |
    | `high`    | 3      | `bfloat16_3x`, `tensorfloat32`, `BF16_BF16_F32_X3` |
    | `highest` | 6      | `float32`, `BF16_BF16_F32_X6`              |

    Names are case-insensitive; the attribute always prints the canonical
    lower-case name. Example: `#tpu.precision<highest>`,
    `#tpu.precision<BF16_BF16_F32_X3>` (prints as `#tpu.precision<high>`).
  }];
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Split rounding
//===----------------------------------------------------------------------===//

def TPU_Rounding : I32EnumAttr<"Rounding",
    "How an f32 is rounded to bf16 when it is split into parts", [
      I32EnumAttrCase<"NearestEven", 0, "rne">,
      I32EnumAttrCase<"Truncate", 1, "trunc">
    ]> {
  let cppNamespace = "::tpu";
  let genSpecializedAttr = 0;
}

def TPU_RoundingAttr : EnumAttr<TPU_Dialect, TPU_Rounding, "rounding"> {
  let summary = "bf16 rounding of a precision split: rne or trunc";
  let description = [{
    `rne` rounds to nearest even (the default, docs/Numerics.md); `trunc` keeps
    the top 16 bits (mask `0xFFFF0000`), as XLA's GPU rewriter does.
    Example: `#tpu.rounding<trunc>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TPU_ReductionKind : I32EnumAttr<"ReductionKind",
    "How a reduction combines values", [
      I32EnumAttrCase<"Sum", 0, "sum">,
      I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">,
      I32EnumAttrCase<"MaxNum", 3, "maxnum">,
      I32EnumAttrCase<"MinNum", 4, "minnum">
    ]> {
  let cppNamespace = "::tpu";
  let genSpecializedAttr = 0;
}

def TPU_ReductionKindAttr
    : EnumAttr<TPU_Dialect, TPU_ReductionKind, "reduction"> {
  let summary = "A reduction's combining op: sum, max, min, maxnum or minnum";
  let description = [{
    `sum` adds (`v.add`), `max` and `min` are IEEE-754 maximum and minimum
    (`v.max`, `v.min`: a NaN wins), as `arith.addf`, `arith.maximumf` and
    `arith.minimumf`; `maxnum` and `minnum` ignore a NaN where the other
    operand is not one (`v.maxnum`, `v.minnum`), as `arith.maxnumf` and
    `arith.minnumf`. Example: `#tpu.reduction<max>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Memory spaces
//===----------------------------------------------------------------------===//

def TPU_MemorySpace : I32EnumAttr<"MemorySpace",
    "A TensorCore's memory spaces", [
      I32EnumAttrCase<"HBM", 0, "hbm">,
      I32EnumAttrCase<"VMEM", 1, "vmem">,
      I32EnumAttrCase<"SMEM", 2, "smem">
    ]> {
  let cppNamespace = "::tpu";
  let genSpecializedAttr = 0;
}

def TPU_MemorySpaceAttr
    : EnumAttr<TPU_Dialect, TPU_MemorySpace, "memory_space"> {
  let summary = "Where a buffer lives: hbm, vmem or smem";
  let description = [{
    A memref memory space. `hbm` is the chip's high-bandwidth memory (program
    arguments and results), `vmem` the 16 MiB vector memory addressed in
    (8,128) tiles, `smem` the 16 KiB scalar memory.
    Example: `memref<8x128xf32, #tpu.memory_space<vmem>>`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Tiled layout
//===----------------------------------------------------------------------===//

def TPU_TiledLayoutAttr : TPU_Attr<"TiledLayout", "tiled",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A tensor stored as row-major tiles of its two minor dims";
  let description = [{
    Used as a tensor encoding: the two minor dimensions are stored as
    row-major tiles of `rows x cols` elements, each tile contiguous, and the
    shape is padded up to whole tiles (the padding holds zeros). The native
    tile of 32-bit elements is `8x128` (one vreg, one 4 KiB VMEM tile); bf16
    packs two per word, so its native tile is `16x128`.

    Example: `tensor<16x256xf32, #tpu.tiled<8x128>>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "tile shape">:$tile);
  let assemblyFormat = "`<` custom<DimensionList>($tile) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tile a vreg holds for `elementType`: 8x128 for 32-bit types,
    /// 16x128 for 16-bit ones, 32x128 for 8-bit ones.
    static TiledLayoutAttr getNative(::mlir::Type elementType);

    /// `shape` with its two minor dims rounded up to whole tiles.
    ::llvm::SmallVector<int64_t> getPaddedShape(
        ::llvm::ArrayRef<int64_t> shape) const;
  }];
}

//===----------------------------------------------------------------------===//
// Chip
//===----------------------------------------------------------------------===//

def TPU_ChipAttr : TPU_Attr<"Chip", "chip"> {
  let summary = "The chip generation a module is compiled for";
  let description = [{
    One of the chips in the shared chip table (`v2`, `v3`, `v4`), whose
    parameters (MXUs per core, clock, HBM bandwidth) the compiler and the
    simulator both read. Set on a module as `tpu.chip`:

    ```mlir
    module attributes {tpu.chip = #tpu.chip<v4>} { ... }
    ```
  }];
  let parameters = (ins "::tpu::ChipKind":$kind);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The chip's row in the shared table.
    const ::tpu::ChipInfo &getInfo() const;
  }];
}

#endif // TPU_DIALECT_TPU_IR_TPUATTRS_TD
