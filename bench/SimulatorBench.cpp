//===- SimulatorBench.cpp - The simulator's speed against OpenBLAS --------===//
//
// Google Benchmark programs for the simulator's host speed
// (docs/Performance.md, "The simulator's speed"), each next to the baseline
// it is compared with, in the same run:
//
//   MxuPass/<target>/<fused|unfused>  one mxu.push's arithmetic (8 x 128 x
//       128 MACs) on each SIMD target Highway built and this host runs;
//   Sgemm/M/N/K                       single-threaded OpenBLAS cblas_sgemm
//       (of the workload's size, or 1024^3);
//   Simulate/threads:T                a whole compiled program, given as
//       --program=FILE --input=A.npy --input=B.npy: upload, run, download
//       (what tpu-sim does bar reading and writing files) on T host
//       threads, with the sgemm of its matmul's size registered beside it.
//
// Every benchmark reports MACs/s; bench/sim-vs-blas.sh prints the ratios.
//
//===----------------------------------------------------------------------===//

#include "tpu/ISA/Binary.h"
#include "tpu/Npy/Npy.h"
#include "tpu/Sim/MxuKernel.h"
#include "tpu/Sim/Runtime.h"
#include "tpu/Sim/Simulator.h"
#include "tpu/Support/BF16.h"

#include "benchmark/benchmark.h"
#include "cblas.h"
#include "hwy/targets.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace tpu;

constexpr int64_t kPassMacs = int64_t(kSublanes) * kMxuDim * kMxuDim;

void setMacs(benchmark::State &state, int64_t macsPerIteration) {
  state.counters["MACs/s"] = benchmark::Counter(
      double(macsPerIteration), benchmark::Counter::kIsIterationInvariantRate);
}

/// Random bf16 values of unit scale: every product is exact, so a pass may
/// fuse.
std::vector<float> randomBF16(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> values(count);
  for (float &value : values)
    value = roundToBF16(normal(rng));
  return values;
}

void mxuPass(benchmark::State &state, int64_t target, bool fuse) {
  hwy::SetSupportedTargetsForTest(target);
  std::vector<float> weights = randomBF16(kMxuDim * kMxuDim, 1);
  std::vector<float> lhs = randomBF16(kWordsPerTile, 2);
  std::vector<float> slot(kWordsPerTile);
  for (auto _ : state) {
    sim::mxuPass(weights.data(), lhs.data(), slot.data(),
                 /*accumulate=*/true, fuse);
    benchmark::DoNotOptimize(slot.data());
  }
  setMacs(state, kPassMacs);
  hwy::SetSupportedTargetsForTest(0);
}

void sgemm(benchmark::State &state, int m, int n, int k) {
  std::vector<float> a = randomBF16(size_t(m) * k, 3);
  std::vector<float> b = randomBF16(size_t(k) * n, 4);
  std::vector<float> c(size_t(m) * n);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                a.data(), k, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  setMacs(state, int64_t(m) * n * k);
}

struct Workload {
  isa::Program program;
  std::vector<NpyArray> inputs;
  int64_t macs = 0;
};

void simulate(benchmark::State &state, const Workload &workload,
              unsigned threads) {
  const isa::Program &program = workload.program;
  sim::SimulatorOptions options;
  options.hostThreads = threads;
  for (auto _ : state) {
    auto simulator = sim::Simulator::create(program, options);
    if (!simulator.ok()) {
      state.SkipWithError(std::string(simulator.status().message()).c_str());
      return;
    }
    for (size_t i = 0; i < workload.inputs.size(); ++i)
      if (auto status = sim::transferToDevice(
              (*simulator)->getMemory(), program.arguments[i],
              workload.inputs[i], program.arguments[i].name);
          !status.ok()) {
        state.SkipWithError(std::string(status.status().message()).c_str());
        return;
      }
    if (std::optional<sim::Trap> trap = (*simulator)->run()) {
      state.SkipWithError(trap->describe().c_str());
      return;
    }
    for (const isa::TensorSignature &result : program.results)
      benchmark::DoNotOptimize(
          sim::transferToHost((*simulator)->getMemory(), result));
    state.counters["cycles"] = double((*simulator)->getStats().cycles);
  }
  setMacs(state, workload.macs);
}

/// Reads --program and --input (what Google Benchmark left of argv).
bool loadWorkload(int argc, char **argv, Workload &workload,
                  std::string &error) {
  std::string programPath;
  std::vector<std::string> inputPaths;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--program=", 0) == 0)
      programPath = arg.substr(10);
    else if (arg.rfind("--input=", 0) == 0)
      inputPaths.push_back(arg.substr(8));
    else {
      error = "unknown argument '" + arg +
              "'; use --program=FILE.tpu --input=FILE.npy ... and "
              "--benchmark_* flags";
      return false;
    }
  }
  if (programPath.empty())
    return true;
  std::ifstream file(programPath, std::ios::binary);
  if (!file) {
    error = programPath + ": cannot open the file";
    return false;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  absl::StatusOr<isa::Program> program = isa::readBinary(bytes);
  if (!program.ok()) {
    error = programPath + ": " + std::string(program.status().message());
    return false;
  }
  workload.program = std::move(*program);
  const auto &arguments = workload.program.arguments;
  if (inputPaths.size() != arguments.size() || arguments.size() != 2 ||
      arguments[0].shape.size() != 2 || arguments[1].shape.size() != 2) {
    error = programPath + ": expected a matmul of two matrices and one "
                          "--input per argument";
    return false;
  }
  for (const std::string &path : inputPaths) {
    absl::StatusOr<NpyArray> array = readNpyFile(path);
    if (!array.ok()) {
      error = std::string(array.status().message());
      return false;
    }
    workload.inputs.push_back(std::move(*array));
  }
  workload.macs =
      arguments[0].shape[0] * arguments[0].shape[1] * arguments[1].shape[1];
  return true;
}

} // namespace

int main(int argc, char **argv) {
  // One thread, set before anything runs, so OpenBLAS's idle workers do
  // not spin beside the simulator's benchmarks either.
  openblas_set_num_threads(1);
  benchmark::Initialize(&argc, argv);
  static Workload workload;
  std::string error;
  if (!loadWorkload(argc, argv, workload, error)) {
    std::cerr << "tpu-sim-bench: error: " << error << "\n";
    return 1;
  }
  for (int64_t target : hwy::SupportedAndGeneratedTargets())
    for (bool fuse : {true, false})
      benchmark::RegisterBenchmark(
          (std::string("MxuPass/") + hwy::TargetName(target) +
           (fuse ? "/fused" : "/unfused"))
              .c_str(),
          mxuPass, target, fuse);
  // The baseline: the workload's matmul, or 1024^3 for the kernels.
  int m = 1024, n = 1024, k = 1024;
  if (!workload.inputs.empty()) {
    const auto &arguments = workload.program.arguments;
    m = int(arguments[0].shape[0]);
    k = int(arguments[0].shape[1]);
    n = int(arguments[1].shape[1]);
    for (unsigned threads : {1, 2})
      benchmark::RegisterBenchmark(
          ("Simulate/threads:" + std::to_string(threads)).c_str(), simulate,
          workload, threads)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  }
  benchmark::RegisterBenchmark(("Sgemm/" + std::to_string(m) + "/" +
                                std::to_string(n) + "/" + std::to_string(k))
                                   .c_str(),
                               sgemm, m, n, k)
      ->Unit(benchmark::kMillisecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
