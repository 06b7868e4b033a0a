//===- ISADialect.td - The tpu_isa dialect -----------------*- tablegen -*-===//

#ifndef TPU_DIALECT_ISA_IR_ISADIALECT_TD
#define TPU_DIALECT_ISA_IR_ISADIALECT_TD

include "mlir/IR/OpBase.td"

def ISA_Dialect : Dialect {
  let name = "tpu_isa";
  let cppNamespace = "::tpu::isa::ir";
  let summary = "The TPU core's instructions and VLIW bundles";
  let description = [{
    The bottom of the compiler: a `tpu_isa.program` holds the entry
    signature, HBM constants and a list of `tpu_isa.bundle`s, each a set of
    `tpu_isa.inst` instructions that issue in the same cycle.
    `tpu-translate --export-tpu-bin` turns it into a `.tpu` binary,
    `--export-tpu-asm` into a listing, and `--import-tpu-bin` back into this
    form. The instructions themselves are defined once, in the ISA table
    (`include/tpu/ISA/ISA.def`, described in `docs/ISA.md`); `tpu_isa.inst`
    is a single op checked against that table. The chip is the enclosing
    module's `tpu.chip` attribute (v4 when absent).
  }];
  let useDefaultAttributePrinterParser = 1;
}

#endif // TPU_DIALECT_ISA_IR_ISADIALECT_TD
