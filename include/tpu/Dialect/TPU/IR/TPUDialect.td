//===- TPUDialect.td - The tpu dialect ---------------------*- tablegen -*-===//

#ifndef TPU_DIALECT_TPU_IR_TPUDIALECT_TD
#define TPU_DIALECT_TPU_IR_TPUDIALECT_TD

include "mlir/IR/OpBase.td"

def TPU_Dialect : Dialect {
  let name = "tpu";
  let cppNamespace = "::tpu";
  let summary = "Tensor-level operations and attributes of a TPU-class core";
  let description = [{
    The `tpu` dialect is the compiler's tensor-level view of a TPU-class
    TensorCore: matrix multiplication on the systolic MXU with an explicit
    `precision` (as JAX's `lax.Precision`), the (8,128) tiled layout that
    vector registers and VMEM impose, the memory spaces (HBM, VMEM, SMEM), and
    the chip generation a module is compiled for.

    Programs usually enter as upstream `linalg`/`arith`/`tensor` IR and are
    converted to this dialect; it can also be written by hand.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();

    /// The module attribute naming the chip a module is compiled for.
    static constexpr ::llvm::StringLiteral getChipAttrName() {
      return ::llvm::StringLiteral("tpu.chip");
    }
    /// On a linalg matrix product: the precision it asks for, overriding
    /// the compiler's default-precision.
    static constexpr ::llvm::StringLiteral getPrecisionAttrName() {
      return ::llvm::StringLiteral("tpu.precision");
    }
    /// Set by the compiler: the MACs a matmul (or the entry) needs before
    /// padding, for the simulator's padding efficiency. On a tpu.matmul
    /// (a convolution's, whose padded channels are not useful) once; on a
    /// tpu.matmul_passes and the entry, times the passes.
    static constexpr ::llvm::StringLiteral getUsefulMacsAttrName() {
      return ::llvm::StringLiteral("tpu.useful_macs");
    }
    /// Set by tpu-lower-to-mxu on the entry: the MACs its matmuls need before
    /// padding, once each whatever the precision (the f32-equivalent work).
    static constexpr ::llvm::StringLiteral getUsefulF32MacsAttrName() {
      return ::llvm::StringLiteral("tpu.useful_f32_macs");
    }
    /// Set by tpu-plan-memory: a buffer's first HBM tile or VMEM row.
    static constexpr ::llvm::StringLiteral getAddressAttrName() {
      return ::llvm::StringLiteral("tpu.address");
    }
    /// Set by tpu-plan-memory: the entry's peak VMEM use in rows.
    static constexpr ::llvm::StringLiteral getVmemRowsAttrName() {
      return ::llvm::StringLiteral("tpu.vmem_rows");
    }
    /// On an scf.if the kernels build where they know which part runs
    /// rarely (a group's first K tile, say): the then and else parts'
    /// weights, as upstream's WeightedRegionBranchOpInterface spells them
    /// (DenseI32ArrayAttr, unsigned). tpu-lower-to-isa writes the part with
    /// the smaller weight out of line, so the common path takes no branch.
    static constexpr ::llvm::StringLiteral getBranchWeightsAttrName() {
      return ::llvm::StringLiteral("branch_weights");
    }
    /// Whether `weights` (getBranchWeightsAttrName's) make the then part
    /// the rare one (true) or the else part (false); none for weights that
    /// are not two, or are equal.
    static std::optional<bool> isThenRare(::mlir::DenseI32ArrayAttr weights);
  }];
}

class TPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TPU_Dialect, mnemonic, traits>;

#endif // TPU_DIALECT_TPU_IR_TPUDIALECT_TD
