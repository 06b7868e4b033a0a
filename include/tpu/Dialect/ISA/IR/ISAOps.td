//===- ISAOps.td - tpu_isa operations and attributes -------*- tablegen -*-===//

#ifndef TPU_DIALECT_ISA_IR_ISAOPS_TD
#define TPU_DIALECT_ISA_IR_ISAOPS_TD

include "tpu/Dialect/ISA/IR/ISADialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def ISA_TensorAttr : AttrDef<ISA_Dialect, "Tensor"> {
  let mnemonic = "tensor";
  let summary = "An argument or result of the entry: name, type, HBM place";
  let description = [{
    The logical (unpadded) type of an entry argument or result, and the HBM
    tile where its tiled, padded image starts (see `docs/ISA.md`, "Device
    layout"). Element types: f32, i32.

    Example: `#tpu_isa.tensor<"a", tensor<7x300xf32>, hbm = 0>`.
  }];
  let parameters = (ins
    StringRefParameter<"the name">:$name,
    "::mlir::RankedTensorType":$type,
    "int64_t":$hbmTile
  );
  let assemblyFormat = "`<` $name `,` $type `,` `hbm` `=` $hbmTile `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

class ISA_Op<string mnemonic, list<Trait> traits = []>
    : Op<ISA_Dialect, mnemonic, traits>;

def ISA_ProgramOp : ISA_Op<"program", [
    Symbol, NoTerminator, SingleBlock, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "A program: entry signature, HBM constants and bundles";
  let description = [{
    The body holds `hbm_data` ops (HBM preloaded before the run) and then
    the bundles, numbered from 0 in order; branch targets `bN` name them.
    `useful_macs` is the MAC count the source program needs (its matmuls'
    M x N x K times their precision's passes), which the simulator divides
    by the MACs it issues to report padding efficiency; `useful_f32_macs`
    counts each matmul once, for the f32-equivalent utilization. Both are
    the compiler's claims: the simulator checks them against what ran.

    ```mlir
    tpu_isa.program @main attributes {
        arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
        results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>],
        useful_macs = 0 : i64} {
      bundle {
        inst halt
      }
    }
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    TypedArrayAttrBase<ISA_TensorAttr, "entry arguments">:$arguments,
    TypedArrayAttrBase<ISA_TensorAttr, "entry results">:$results,
    DefaultValuedAttr<I64Attr, "0">:$useful_macs,
    DefaultValuedAttr<I64Attr, "0">:$useful_f32_macs
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def ISA_HbmDataOp : ISA_Op<"hbm_data", [HasParent<"ProgramOp">]> {
  let summary = "Words preloaded into HBM before the program runs";
  let description = [{
    The elements of `value` (32-bit each, in order) are written to HBM from
    the start of tile `hbm_tile`.

    ```mlir
    hbm_data dense<[1.0, 2.0]> : tensor<2xf32> at 100
    ```
  }];
  let arguments = (ins ElementsAttr:$value, I64Attr:$hbm_tile);
  let assemblyFormat = "$value `at` $hbm_tile attr-dict";
  let hasVerifier = 1;
}

def ISA_BundleOp : ISA_Op<"bundle", [
    HasParent<"ProgramOp">, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "Instructions that issue together in one cycle";
  let description = [{
    Its `inst` ops must fit the VLIW slots (2 scalar, 4 vector of which 2
    loads/stores, one MXU push, one MXU pop, one misc) with at most one
    branch; every instruction reads the registers as they were before the
    bundle.
  }];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def ISA_InstOp : ISA_Op<"inst", [HasParent<"BundleOp">]> {
  let summary = "One instruction of the ISA table";
  let description = [{
    A mnemonic from the ISA table and its operands, written as in the
    assembly listing: scalar registers `sN`, vector registers `vN`, bundle
    targets `bN`, other operands as integers.

    ```mlir
    inst v.ld v2, s4, 16, s5, 0xff
    inst br.lt s1, s2, b3
    ```

    Generic form: `"tpu_isa.inst"() <{mnemonic = "v.ld",
    operands = array<i64: 2, 4, 16, 5, 255>}> : () -> ()`.
  }];
  let arguments = (ins StrAttr:$mnemonic, DenseI64ArrayAttr:$operands);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The decoded instruction; only valid on a verified op.
    ::tpu::isa::Instruction getInstruction();
  }];
}

#endif // TPU_DIALECT_ISA_IR_ISAOPS_TD
