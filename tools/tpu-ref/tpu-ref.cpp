//===- tpu-ref.cpp - Inputs and reference results for tests ---------------===//
//
//   tpu-ref random --shape=7x300 --seed=1 [--dist=normal|uniform|special] -o
//   a.npy tpu-ref matmul a.npy b.npy [--precision=highest] [--split=trunc] -o
//   c.npy tpu-ref compare got.npy want.npy [--rtol=R --atol=A]   (default:
//   bit-exact)
//
// The reference matmul is tpu/Reference/MatmulReference.h, the plain C++
// model of the design's numerics. Exit code 0 on success or a match, 1 on a
// mismatch or an error.
//
//===----------------------------------------------------------------------===//

#include "tpu/Reference/MatmulReference.h"
#include "tpu/Sim/Npy.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>

ABSL_FLAG(std::string, shape, "", "random: the shape, as 7x300 or 2x8x128");
ABSL_FLAG(uint64_t, seed, 1, "random: the seed");
ABSL_FLAG(std::string, dist, "normal",
          "random: normal (mean 0, sd 1), uniform ([-1, 1)), or special "
          "(normal mixed with zeros, infinities, NaNs and values near "
          "FLT_MAX and the subnormal range)");
ABSL_FLAG(std::string, precision, "default", "matmul: default|high|highest");
ABSL_FLAG(std::string, split, "rne", "matmul: rne|trunc");
ABSL_FLAG(double, rtol, -1, "compare: relative tolerance (default: exact)");
ABSL_FLAG(double, atol, 0, "compare: absolute tolerance, with --rtol");
ABSL_FLAG(std::string, o, "", "the output file");

using namespace tpu;
using sim::NpyArray;

namespace {

int fail(const std::string &message) {
  std::cerr << "tpu-ref: error: " << message << "\n";
  return 1;
}

std::vector<float> floats(const NpyArray &array) {
  std::vector<float> values(array.words.size());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = floatOf(array.words[i]);
  return values;
}

int makeRandom() {
  NpyArray array;
  for (absl::string_view dim :
       absl::StrSplit(absl::GetFlag(FLAGS_shape), 'x')) {
    int64_t value;
    if (!absl::SimpleAtoi(dim, &value) || value < 1)
      return fail("--shape must look like 7x300, got '" +
                  absl::GetFlag(FLAGS_shape) + "'");
    array.shape.push_back(value);
  }
  int64_t count = 1;
  for (int64_t dim : array.shape)
    count *= dim;
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::string dist = absl::GetFlag(FLAGS_dist);
  const float specials[] = {0.0f,
                            -0.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            floatOf(0x7F7F8000),
                            std::numeric_limits<float>::min(),
                            floatOf(0x00400000),
                            1e30f,
                            -1e-30f};
  for (int64_t i = 0; i < count; ++i) {
    float value;
    if (dist == "normal")
      value = normal(rng);
    else if (dist == "uniform")
      value = uniform(rng);
    else if (dist == "special")
      value =
          rng() % 8 == 0 ? specials[rng() % std::size(specials)] : normal(rng);
    else
      return fail("--dist must be normal, uniform or special");
    array.words.push_back(bitsOf(value));
  }
  absl::Status status = sim::writeNpyFile(absl::GetFlag(FLAGS_o), array);
  return status.ok() ? 0 : fail(std::string(status.message()));
}

/// Reads both files, or says why one cannot be read.
absl::StatusOr<std::pair<NpyArray, NpyArray>>
readPair(const std::string &first, const std::string &second) {
  absl::StatusOr<NpyArray> a = sim::readNpyFile(first);
  if (!a.ok())
    return a.status();
  absl::StatusOr<NpyArray> b = sim::readNpyFile(second);
  if (!b.ok())
    return b.status();
  return std::make_pair(*std::move(a), *std::move(b));
}

int matmul(const std::string &lhsPath, const std::string &rhsPath) {
  auto inputs = readPair(lhsPath, rhsPath);
  if (!inputs.ok())
    return fail(std::string(inputs.status().message()));
  const NpyArray *lhs = &inputs->first, *rhs = &inputs->second;
  size_t rank = lhs->shape.size();
  if (rank < 2 || rhs->shape.size() != rank)
    return fail("matmul needs operands of the same rank >= 2");
  reference::MatmulShape shape;
  shape.m = lhs->shape[rank - 2];
  shape.k = lhs->shape[rank - 1];
  shape.n = rhs->shape[rank - 1];
  for (size_t i = 0; i + 2 < rank; ++i)
    shape.batch *= lhs->shape[i];
  if (rhs->shape[rank - 2] != shape.k)
    return fail("matmul: contraction dimensions differ");
  std::string precisionName = absl::GetFlag(FLAGS_precision);
  reference::Precision precision =
      precisionName == "highest" ? reference::Precision::Highest
      : precisionName == "high"  ? reference::Precision::High
                                 : reference::Precision::Default;
  BF16Rounding split = absl::GetFlag(FLAGS_split) == "trunc"
                           ? BF16Rounding::Truncate
                           : BF16Rounding::NearestEven;
  std::vector<float> c =
      reference::matmul(shape, floats(*lhs), floats(*rhs), precision, split);
  NpyArray out;
  out.shape = lhs->shape;
  out.shape[rank - 1] = shape.n;
  for (float value : c)
    out.words.push_back(bitsOf(value));
  absl::Status status = sim::writeNpyFile(absl::GetFlag(FLAGS_o), out);
  return status.ok() ? 0 : fail(std::string(status.message()));
}

int compare(const std::string &gotPath, const std::string &wantPath) {
  auto inputs = readPair(gotPath, wantPath);
  if (!inputs.ok())
    return fail(std::string(inputs.status().message()));
  const NpyArray *got = &inputs->first, *want = &inputs->second;
  if (got->shape != want->shape)
    return fail("shapes differ: " + sim::formatShape(got->shape) + " vs " +
                sim::formatShape(want->shape));
  double rtol = absl::GetFlag(FLAGS_rtol), atol = absl::GetFlag(FLAGS_atol);
  bool exact = rtol < 0;
  size_t mismatches = 0;
  double worst = 0;
  for (size_t i = 0; i < got->words.size(); ++i) {
    float g = floatOf(got->words[i]), w = floatOf(want->words[i]);
    bool ok;
    if (exact) {
      ok = got->words[i] == want->words[i] || (std::isnan(g) && std::isnan(w));
    } else {
      double error = std::fabs(double(g) - double(w));
      ok = (std::isnan(g) && std::isnan(w)) || g == w ||
           error <= atol + rtol * std::fabs(double(w));
      if (std::isfinite(error))
        worst = std::max(worst, error / std::max(1e-30, std::fabs(double(w))));
    }
    if (!ok && mismatches++ < 5)
      std::printf("mismatch at flat index %zu: got %.9g (0x%08x), want %.9g "
                  "(0x%08x)\n",
                  i, g, got->words[i], w, want->words[i]);
  }
  if (mismatches) {
    std::printf("FAIL: %zu of %zu elements differ\n", mismatches,
                got->words.size());
    return 1;
  }
  if (exact)
    std::printf("OK: %zu elements bit-exact\n", got->words.size());
  else
    std::printf("OK: %zu elements within rtol %g atol %g (worst relative "
                "error %.3g)\n",
                got->words.size(), rtol, atol, worst);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  absl::SetProgramUsageMessage(
      "test inputs and reference results: random | matmul | compare");
  std::vector<char *> args = absl::ParseCommandLine(argc, argv);
  std::string command = args.size() > 1 ? args[1] : "";
  if (command == "random" && args.size() == 2)
    return makeRandom();
  if (command == "matmul" && args.size() == 4)
    return matmul(args[2], args[3]);
  if (command == "compare" && args.size() == 4)
    return compare(args[2], args[3]);
  return fail("usage: tpu-ref random|matmul|compare ... (see --help)");
}
