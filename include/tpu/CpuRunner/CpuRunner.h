//===- CpuRunner.h - Upstream MLIR, lowered and run on the CPU --*- C++ -*-===//
//
// The independent f32 reference of the end-to-end tests (tpu-cpu-run) and
// of the differential fuzzer: a module of plain upstream MLIR on tensors,
// lowered with upstream passes only and JIT-compiled with MLIR's
// ExecutionEngine. lib/CpuRunner/CpuRunner.cpp says what the numerics are.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_CPURUNNER_CPURUNNER_H
#define TPU_CPURUNNER_CPURUNNER_H

#include "tpu/Npy/Npy.h"

#include "absl/status/statusor.h"

#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace tpu {

struct CpuRunOptions {
  /// The function to run.
  std::string entry = "main";
  /// Where the parser's and the passes' diagnostics go (null: nowhere).
  llvm::raw_ostream *diagnostics = nullptr;
  /// If set, the module after lowering to the LLVM dialect is printed here.
  llvm::raw_ostream *llvmDialect = nullptr;
};

/// Parses `source` (named `sourceName` in diagnostics), runs its entry on
/// `inputs` (statically shaped f32 arrays, one per argument; `inputNames`
/// name them in errors) and returns one array per result.
absl::StatusOr<std::vector<NpyArray>>
runOnCpu(std::string_view source, const std::string &sourceName,
         const std::vector<NpyArray> &inputs,
         const std::vector<std::string> &inputNames,
         const CpuRunOptions &options = {});

} // namespace tpu

#endif // TPU_CPURUNNER_CPURUNNER_H
