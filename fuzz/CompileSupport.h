//===- CompileSupport.h - The compiler, in-process, for fuzzers -*- C++ -*-===//
//
// What tpu-opt --tpu-compile and tpu-translate --export-tpu-bin do, as one
// call: MLIR text in, a verified isa::Program out, or the diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_FUZZ_COMPILESUPPORT_H
#define TPU_FUZZ_COMPILESUPPORT_H

#include "tpu/ISA/Program.h"
#include "tpu/Pipelines/Pipelines.h"

#include "mlir/IR/MLIRContext.h"

#include <optional>
#include <string>
#include <string_view>

namespace tpu::fuzz {

/// A context with every dialect tpu-opt accepts, without threads.
mlir::MLIRContext &getCompilerContext();

/// Compiles `source` with the tpu-compile pipeline. On success returns the
/// program (which has passed isa::verifyProgram; a program that does not is
/// a compiler bug, and aborts); on failure returns nothing and leaves the
/// diagnostics in `diagnostics`.
std::optional<isa::Program> compile(std::string_view source,
                                    const CompileOptions &options,
                                    std::string &diagnostics);

} // namespace tpu::fuzz

#endif // TPU_FUZZ_COMPILESUPPORT_H
