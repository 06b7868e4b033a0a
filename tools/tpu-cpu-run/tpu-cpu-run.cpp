//===- tpu-cpu-run.cpp - Run upstream MLIR on the CPU, on .npy files ------===//
//
//   tpu-cpu-run input.mlir --input a.npy --input b.npy --output c.npy
//               [--entry main] [--print-llvm-dialect]
//
// The independent CPU reference the end-to-end tests compare the TPU compiler
// with (lib/CpuRunner says how it lowers and what its numerics are). Exit
// code 0 on success, 1 on any error ("tpu-cpu-run: error: ..." on stderr).
//
//===----------------------------------------------------------------------===//

#include "tpu/CpuRunner/CpuRunner.h"
#include "tpu/Npy/Npy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace {

llvm::cl::OptionCategory toolCategory("tpu-cpu-run options");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                     llvm::cl::desc("<input.mlir>"),
                                     llvm::cl::Required,
                                     llvm::cl::cat(toolCategory));
llvm::cl::list<std::string>
    inputNpys("input",
              llvm::cl::desc("an argument as a .npy file; repeat once per "
                             "argument, in order"),
              llvm::cl::value_desc("file.npy"), llvm::cl::cat(toolCategory));
llvm::cl::list<std::string>
    outputNpys("output",
               llvm::cl::desc("where to write a result (.npy); repeat once "
                              "per result, in order"),
               llvm::cl::value_desc("file.npy"), llvm::cl::cat(toolCategory));
llvm::cl::opt<std::string> entryName("entry",
                                     llvm::cl::desc("the function to run"),
                                     llvm::cl::init("main"),
                                     llvm::cl::cat(toolCategory));
llvm::cl::opt<bool> printLLVMDialect(
    "print-llvm-dialect",
    llvm::cl::desc("print the module after lowering to the LLVM dialect"),
    llvm::cl::init(false), llvm::cl::cat(toolCategory));

int fail(const std::string &message) {
  llvm::errs() << "tpu-cpu-run: error: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::HideUnrelatedOptions(toolCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "tpu-cpu-run: lower upstream MLIR to LLVM with upstream passes and run "
      "it on the CPU, on .npy files (the f32 reference for the TPU "
      "compiler's end-to-end tests)\n");

  auto file = llvm::MemoryBuffer::getFileOrSTDIN(inputFile);
  if (!file)
    return fail("cannot open input file '" + inputFile +
                "': " + file.getError().message());
  std::vector<tpu::NpyArray> inputs;
  for (const std::string &path : inputNpys) {
    absl::StatusOr<tpu::NpyArray> array = tpu::readNpyFile(path);
    if (!array.ok())
      return fail(std::string(array.status().message()));
    inputs.push_back(*std::move(array));
  }
  tpu::CpuRunOptions options;
  options.entry = entryName;
  options.diagnostics = &llvm::errs();
  if (printLLVMDialect)
    options.llvmDialect = &llvm::outs();
  absl::StatusOr<std::vector<tpu::NpyArray>> results = tpu::runOnCpu(
      (*file)->getBuffer().str(), inputFile, inputs,
      std::vector<std::string>(inputNpys.begin(), inputNpys.end()), options);
  if (!results.ok())
    return fail(std::string(results.status().message()));
  if (outputNpys.size() != results->size())
    return fail("@" + entryName + " returns " +
                std::to_string(results->size()) + " result(s), got " +
                std::to_string(outputNpys.size()) + " --output file(s)");
  for (size_t i = 0; i < results->size(); ++i)
    if (absl::Status status = tpu::writeNpyFile(outputNpys[i], (*results)[i]);
        !status.ok())
      return fail(std::string(status.message()));
  return 0;
}
