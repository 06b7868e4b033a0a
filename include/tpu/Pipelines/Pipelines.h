//===- Pipelines.h - The tpu-compile pipeline -------------------*- C++ -*-===//
//
// The whole compiler as one registered pipeline, usable from tpu-opt
// (--tpu-compile="chip=v4 default-precision=highest") and from code. Its
// options are typed: each is parsed once, where the pipeline is built.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_PIPELINES_PIPELINES_H
#define TPU_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "tpu/Dialect/TPU/IR/OptionParsers.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tpu {

struct CompileOptions : public mlir::PassPipelineOptions<CompileOptions> {
  Option<std::optional<ChipKind>> chip{
      *this, "chip",
      llvm::cl::desc("the chip: v2, v3 or v4 (default: the module's "
                     "tpu.chip, else v4)"),
      llvm::cl::init(std::nullopt)};
  Option<Precision> defaultPrecision{
      *this, "default-precision",
      llvm::cl::desc("precision of matmuls that do not set one: default, "
                     "high, highest or a JAX alias"),
      llvm::cl::init(Precision::Default)};
  Option<Rounding> split{
      *this, "split",
      llvm::cl::desc("bf16 rounding of the precision split: rne or trunc"),
      llvm::cl::init(Rounding::NearestEven)};
  Option<bool> fusion{
      *this, "fusion",
      llvm::cl::desc("fuse elementwise ops into their producers' kernels "
                     "(tpu-fuse)"),
      llvm::cl::init(true)};
  Option<bool> reportFusion{
      *this, "report-fusion",
      llvm::cl::desc("a remark for each op tpu-fuse fuses"),
      llvm::cl::init(false)};
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("the function to compile"),
                            llvm::cl::init("main")};
};

/// linalg/tpu on tensors -> a bundled tpu_isa.program.
void buildCompilePipeline(mlir::OpPassManager &pm,
                          const CompileOptions &options);

/// Registers --tpu-compile.
void registerCompilePipeline();

} // namespace tpu

#endif // TPU_PIPELINES_PIPELINES_H
