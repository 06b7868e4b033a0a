//===- CompileSupport.cpp - The compiler, in-process, for fuzzers ---------===//

#include "CompileSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "tpu/Dialect/ISA/IR/ISAOps.h"
#include "tpu/InitAllDialects.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace tpu::fuzz {

MLIRContext &getCompilerContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    auto *created = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    created->loadAllAvailableDialects();
    created->printOpOnDiagnostic(false);
    return created;
  }();
  return *context;
}

std::optional<isa::Program> compile(std::string_view source,
                                    const CompileOptions &options,
                                    std::string &diagnostics) {
  MLIRContext &context = getCompilerContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()), "input.mlir"),
      llvm::SMLoc());
  llvm::raw_string_ostream os(diagnostics);
  SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return std::nullopt;
  PassManager pm(&context);
  buildCompilePipeline(pm, options);
  if (failed(pm.run(*module)))
    return std::nullopt;
  auto programs = module->getOps<isa::ir::ProgramOp>();
  if (std::distance(programs.begin(), programs.end()) != 1)
    std::abort(); // tpu-compile makes exactly one program
  isa::Program program = isa::ir::readProgram(*programs.begin());
  if (!isa::verifyProgram(program).ok())
    std::abort(); // the compiler made a program the loader would refuse
  return program;
}

} // namespace tpu::fuzz
