//===- tpu-sim.cpp - Run a .tpu binary on .npy inputs ---------------------===//
//
// Exit codes: 0 success, 1 bad usage or a bad input/output file, 2 an invalid
// binary (or one for another chip), 3 the program trapped.
//
//===----------------------------------------------------------------------===//

#include "tpu/CommandLine/CommandLine.h"
#include "tpu/ISA/Binary.h"
#include "tpu/Npy/Npy.h"
#include "tpu/Sim/Runtime.h"
#include "tpu/Sim/Simulator.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

ABSL_FLAG(std::vector<std::string>, input, {},
          "an argument as a .npy file; repeat once per argument, in order");
ABSL_FLAG(std::vector<std::string>, output, {},
          "where to write a result (.npy); repeat once per result, in order");
ABSL_FLAG(std::string, stats, "", "write the statistics as JSON to this file");
ABSL_FLAG(std::string, trace, "",
          "write a Chrome Trace Event JSON (one track per unit) to this file");
ABSL_FLAG(uint64_t, max_cycles, 1000000000,
          "trap if the run reaches this many cycles");
ABSL_FLAG(std::string, chip, "",
          "the chip to run on (v2, v3, v4); default: the binary's");
ABSL_FLAG(bool, allow_chip_mismatch, false,
          "run a binary built for another chip on --chip anyway");
ABSL_FLAG(bool, quiet, false, "do not print the statistics table on stderr");
ABSL_FLAG(std::string, poison_uninitialized, "zero",
          "what reading HBM, VMEM or a vector register nothing wrote does: "
          "zero (read zeros), trap (stop with the address; "
          "--poison-uninitialized alone means this), or nan (read NaNs "
          "0xFFC0DEAD, so garbage shows in the results)");
ABSL_FLAG(std::string, hbm_bandwidth, "core",
          "the simulated core's HBM bandwidth: core (its share with both "
          "cores busy, half the chip's) or chip (the whole chip's, as if "
          "the other core were idle); the statistics say which");
ABSL_FLAG(bool, profile, false,
          "print cycles, stalls and MXU, VPU and DMA busy cycles per source "
          "op (its name and file:line:col) on stderr, and add them to "
          "--stats; the binary's debug section names the source ops");
ABSL_FLAG(unsigned, threads, 1,
          "host threads: 1, or 2 to run most of the MXUs' passes on a "
          "second thread (the same results and statistics, sooner)");

namespace {

enum ExitCode { kSuccess = 0, kUsageError = 1, kBadBinary = 2, kTrapped = 3 };

int fail(int code, const std::string &message) {
  std::cerr << "tpu-sim: error: " << message << "\n";
  return code;
}

bool writeText(const std::string &path, const std::string &text) {
  std::ofstream file(path);
  file << text;
  return bool(file);
}

} // namespace

int main(int argc, char **argv) {
  absl::SetProgramUsageMessage(
      "runs a .tpu binary on a simulated TPU core\n\n"
      "  tpu-sim prog.tpu --input a.npy --input b.npy --output c.npy \\\n"
      "          [--stats stats.json] [--trace trace.json] [--profile]\n\n"
      "Exit codes: 0 success, 1 bad usage or input file, 2 invalid binary or "
      "wrong chip, 3 the program trapped.");
  // --input and --output repeat, in order; --poison-uninitialized alone
  // asks for the strict check.
  absl::StatusOr<tpu::PreparedCommandLine> commandLine =
      tpu::prepareCommandLine(argc, argv, {"input", "output"},
                              {{"poison_uninitialized", "trap"}});
  if (!commandLine.ok())
    return fail(kUsageError, std::string(commandLine.status().message()));
  const std::vector<std::string> &inputs = commandLine->collected["input"];
  const std::vector<std::string> &outputs = commandLine->collected["output"];
  std::vector<char *> positional = absl::ParseCommandLine(
      int(commandLine->argv.size()), commandLine->argv.data());
  if (positional.size() != 2)
    return fail(kUsageError,
                "expected exactly one binary, as in: tpu-sim prog.tpu "
                "--input a.npy --output c.npy (see --help)");
  std::string binaryPath = positional[1];

  std::ifstream file(binaryPath, std::ios::binary);
  if (!file)
    return fail(kUsageError, binaryPath + ": cannot open the file");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  absl::StatusOr<tpu::isa::Program> program = tpu::isa::readBinary(bytes);
  if (!program.ok())
    return fail(kBadBinary,
                binaryPath + ": " + std::string(program.status().message()));

  if (std::string chipName = absl::GetFlag(FLAGS_chip); !chipName.empty()) {
    std::optional<tpu::ChipKind> chip = tpu::lookupChip(chipName);
    if (!chip)
      return fail(kUsageError, "--chip=" + chipName + " is not a chip; use " +
                                   tpu::listChipNames());
    if (*chip != program->chip) {
      std::string built = tpu::getChipInfo(program->chip).name;
      if (!absl::GetFlag(FLAGS_allow_chip_mismatch))
        return fail(kBadBinary,
                    binaryPath + " was built for " + built + ", not " +
                        chipName + "; rebuild it with chip=" + chipName +
                        ", or pass --allow-chip-mismatch to run it anyway");
      program->chip = *chip;
      if (absl::Status status = tpu::isa::verifyProgram(*program); !status.ok())
        return fail(kBadBinary, binaryPath + " cannot run on " + chipName +
                                    ": " + std::string(status.message()));
    }
  }

  if (inputs.size() != program->arguments.size())
    return fail(kUsageError,
                absl::StrCat(binaryPath, " takes ", program->arguments.size(),
                             " argument(s) but ", inputs.size(),
                             " --input file(s) were given"));
  if (!outputs.empty() && outputs.size() != program->results.size())
    return fail(kUsageError,
                absl::StrCat(binaryPath, " has ", program->results.size(),
                             " result(s) but ", outputs.size(),
                             " --output file(s) were given"));

  tpu::sim::SimulatorOptions options;
  options.maxCycles = absl::GetFlag(FLAGS_max_cycles);
  options.trace = !absl::GetFlag(FLAGS_trace).empty();
  std::string poison = absl::GetFlag(FLAGS_poison_uninitialized);
  if (poison == "zero")
    options.uninitialized = tpu::sim::UninitializedReads::Zero;
  else if (poison == "trap")
    options.uninitialized = tpu::sim::UninitializedReads::Trap;
  else if (poison == "nan")
    options.uninitialized = tpu::sim::UninitializedReads::NaN;
  else
    return fail(kUsageError, "--poison-uninitialized=" + poison +
                                 " is not a mode; use zero, trap or nan");
  std::string share = absl::GetFlag(FLAGS_hbm_bandwidth);
  if (share == "core")
    options.hbmShare = tpu::sim::HbmShare::Core;
  else if (share == "chip")
    options.hbmShare = tpu::sim::HbmShare::Chip;
  else
    return fail(kUsageError, "--hbm-bandwidth=" + share +
                                 " is not a share; use core or chip");
  options.profile = absl::GetFlag(FLAGS_profile);
  if (options.profile && program->sourceLocations.empty())
    std::cerr << "tpu-sim: note: " << binaryPath
              << " has no source locations, so --profile counts every "
                 "instruction as "
              << tpu::sim::kNoSourceOp
              << "; print the compiled ISA with its locations (tpu-opt "
                 "--tpu-compile ... -mlir-print-debuginfo) before "
                 "tpu-translate --export-tpu-bin\n";
  options.hostThreads = absl::GetFlag(FLAGS_threads);
  if (options.hostThreads != 1 && options.hostThreads != 2)
    return fail(kUsageError,
                "--threads=" + std::to_string(options.hostThreads) +
                    " is not supported; use 1 or 2 (a second thread takes "
                    "most of the MXUs' passes)");
  absl::StatusOr<std::unique_ptr<tpu::sim::Simulator>> created =
      tpu::sim::Simulator::create(*program, options);
  if (!created.ok())
    return fail(kBadBinary,
                binaryPath + ": " + std::string(created.status().message()));
  tpu::sim::Simulator &simulator = **created;
  for (size_t i = 0; i < inputs.size(); ++i) {
    // The header is checked against the signature before the data is read.
    absl::StatusOr<tpu::NpyArray> array =
        tpu::readNpyFile(inputs[i], [&](const tpu::NpyHeader &header) {
          return tpu::sim::checkArgument(program->arguments[i],
                                         header.elementType, header.shape,
                                         inputs[i]);
        });
    if (!array.ok())
      return fail(kUsageError, std::string(array.status().message()));
    absl::StatusOr<int64_t> rounded = tpu::sim::transferToDevice(
        simulator.getMemory(), program->arguments[i], *array, inputs[i]);
    if (!rounded.ok())
      return fail(kUsageError, std::string(rounded.status().message()));
    if (*rounded)
      std::cerr << "tpu-sim: note: " << inputs[i] << ": " << *rounded
                << " of " << array->words.size() << " values of bf16 argument '"
                << program->arguments[i].name
                << "' were not bf16-exact and were rounded to nearest even\n";
  }

  std::optional<tpu::sim::Trap> trap = simulator.run();
  const tpu::sim::Stats &stats = simulator.getStats();
  if (!absl::GetFlag(FLAGS_quiet))
    std::cerr << stats.toTable();
  if (options.profile)
    std::cerr << stats.profileTable();
  // The binary's claims are checked against what ran, quiet or not.
  if (std::string why = stats.checkUsefulMacs(); !why.empty())
    std::cerr << "tpu-sim: warning: " << why << "\n";
  if (std::string path = absl::GetFlag(FLAGS_stats); !path.empty())
    if (!writeText(path, stats.toJson()))
      return fail(kUsageError, path + ": cannot write the statistics");
  if (std::string path = absl::GetFlag(FLAGS_trace); !path.empty())
    if (!writeText(path, simulator.getTrace()->toJson()))
      return fail(kUsageError, path + ": cannot write the trace");
  if (trap)
    return fail(kTrapped, trap->describe());

  for (size_t i = 0; i < outputs.size(); ++i) {
    absl::StatusOr<tpu::NpyArray> result =
        tpu::sim::transferToHost(simulator.getMemory(), program->results[i]);
    if (!result.ok())
      return fail(absl::IsFailedPrecondition(result.status()) ? kTrapped
                                                              : kBadBinary,
                  std::string(result.status().message()));
    absl::Status status = tpu::writeNpyFile(outputs[i], *result);
    if (!status.ok())
      return fail(kUsageError, std::string(status.message()));
  }
  return kSuccess;
}
