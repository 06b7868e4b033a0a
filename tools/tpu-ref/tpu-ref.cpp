//===- tpu-ref.cpp - Inputs and reference results for tests ---------------===//
//
//   tpu-ref random --shape=7x300 --seed=1 [--dist=normal|...|terms] -o a.npy
//   tpu-ref matmul a.npy b.npy [--precision=highest] [--split=trunc] -o c.npy
//   tpu-ref compare got.npy want.npy [--rtol=R --atol=A] [--nan=any]
//     (default: bit for bit, NaNs included)
//   tpu-ref check-bound got.npy cpu.npy a.npy b.npy --precision=highest
//     (within the precision's error bound of an f32 result)
//   tpu-ref elementwise --op=divf a.npy [b.npy] -o c.npy   (the VPU op's
//   model, element by element)
//   tpu-ref reduce --kind=max [--init=V] [--dimensions=0] x.npy -o r.npy
//   (each row, or across the matrices of leading dimensions, in
//   docs/Numerics.md's order)
//   tpu-ref broadcast --shape=7x300 --dimensions=1 r.npy -o b.npy   (as
//   linalg.broadcast: the new dimensions at the positions listed)
//   tpu-ref transpose [--permutation=1,0,2] x.npy -o t.npy   (as
//   linalg.transpose; default the last two dimensions swapped)
//   tpu-ref reshape --shape=8x10 x.npy -o y.npy   (the same elements)
//   tpu-ref conv x.npy w.npy [--strides=2,2 --dilations=1,1
//     --padding=1,1,1,1 --precision=... --accumulator=init.npy] -o y.npy
//     (linalg.conv_2d_nhwc_hwcf as docs/Numerics.md defines it: the
//     im2col matrix, channels padded to 128, times the filter)
//   tpu-ref im2col x.npy w.npy [--strides=...] -o a.npy --filter-output=b.npy
//     (the two operands of the convolution's matmul, for check-bound)
//   tpu-ref pool --kind=max --window=2,2 [--strides=2,2 --padding=...
//     --pad-value=V --init=V] x.npy -o y.npy   (each window's taps reduced
//     in order)
//   tpu-ref pad --padding=1,1,1,1 [--pad-value=V] x.npy -o y.npy   (the
//     rows and columns of each NHWC image)
//
// The reference matmul is tpu/Reference/MatmulReference.h, the plain C++
// model of docs/Numerics.md. Exit code 0 on success or a match, 1 on a
// mismatch or an error.
//
//===----------------------------------------------------------------------===//

#include "tpu/CommandLine/CommandLine.h"
#include "tpu/Npy/Npy.h"
#include "tpu/Reference/ElementwiseReference.h"
#include "tpu/Reference/ErrorBound.h"
#include "tpu/Reference/MatmulReference.h"
#include "tpu/Reference/ReductionReference.h"
#include "tpu/Reference/WindowReference.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <random>

ABSL_FLAG(std::string, shape, "",
          "random, broadcast, reshape: the shape, as 7x300 or 2x8x128");
ABSL_FLAG(std::string, dimensions, "",
          "broadcast: the result's new dimensions, as 0 or 0,2; reduce: the "
          "leading dimensions reduced (default: the last)");
ABSL_FLAG(uint64_t, seed, 1, "random: the seed");
ABSL_FLAG(float, value, 0, "random --dist=constant: every element's value");
ABSL_FLAG(float, scale, 1,
          "random --dist=normal|uniform: every value times this (a weight "
          "initialised for its fan-in, e.g. 1/16 for 256 inputs)");
ABSL_FLAG(std::string, dist, "normal",
          "random: normal (mean 0, sd 1), uniform ([-1, 1)), special "
          "(normal mixed with zeros, infinities, NaNs of several kinds and "
          "values near FLT_MAX and the subnormal range), or terms (+-2^e "
          "(1 + 2^-9 + 2^-18): each precision term of a K = 1 matmul shows "
          "in the error bound), or constant (--value)");
ABSL_FLAG(std::string, precision, "default",
          "matmul, check-bound: default|high|highest, or an alias the "
          "compiler takes (bfloat16_3x, float32, ...)");
ABSL_FLAG(std::string, split, "rne",
          "matmul, check-bound: how HIGH and HIGHEST split f32 into bf16 "
          "parts: rne|trunc");
ABSL_FLAG(double, rtol, -1, "compare: relative tolerance (default: exact)");
ABSL_FLAG(double, atol, 0, "compare: absolute tolerance, with --rtol");
ABSL_FLAG(std::string, nan, "exact",
          "compare: exact (a NaN must match bit for bit) or any (any NaN "
          "matches any NaN: for a result computed on the host, whose NaNs "
          "are the host's; the TPU's are canonical)");
ABSL_FLAG(std::string, accumulator, "",
          "matmul, check-bound: the .npy added to the product (the init)");
ABSL_FLAG(std::string, op, "",
          "elementwise: the op, named as its arith op (addf, divf, ...)");
ABSL_FLAG(std::string, kind, "", "reduce: sum, max, min, maxnum or minnum");
ABSL_FLAG(std::string, init, "",
          "reduce: the value the reduction starts from (as linalg.reduce's "
          "init); default the kind's identity (-0, -inf, +inf, NaN)");
ABSL_FLAG(std::string, window, "", "pool: the window's rows and columns, as 2,2");
ABSL_FLAG(std::string, strides, "1,1",
          "conv, im2col, pool: the window's strides over rows and columns");
ABSL_FLAG(std::string, dilations, "1,1",
          "conv, im2col, pool: the window's dilations over rows and "
          "columns");
ABSL_FLAG(std::string, padding, "0,0,0,0",
          "conv, im2col, pool, pad: rows and columns of --pad-value around "
          "each image: top,bottom,left,right");
ABSL_FLAG(float, pad_value, 0,
          "conv, im2col, pool, pad: the value padded with");
ABSL_FLAG(std::string, permutation, "",
          "transpose: result dimension d is source dimension "
          "permutation[d], as 1,0,3,2 (default: the last two swapped)");
ABSL_FLAG(std::string, filter_output, "",
          "im2col: the file for the filter matrix");
ABSL_FLAG(std::string, o, "", "the output file");

using namespace tpu;

namespace {

int fail(const std::string &message) {
  std::cerr << "tpu-ref: error: " << message << "\n";
  return 1;
}

/// Writes `out` to the -o file; the command's exit code.
int writeOutput(const NpyArray &out) {
  absl::Status status = writeNpyFile(absl::GetFlag(FLAGS_o), out);
  return status.ok() ? 0 : fail(std::string(status.message()));
}

/// --precision, by the compiler's names.
absl::StatusOr<MatmulPrecision> getPrecisionFlag() {
  std::string name = absl::GetFlag(FLAGS_precision);
  if (std::optional<MatmulPrecision> precision = parseMatmulPrecision(name))
    return *precision;
  return absl::InvalidArgumentError("--precision=" + name +
                                    " is not a precision; expected one of " +
                                    getMatmulPrecisionSpellings());
}

/// --split: rne or trunc.
absl::StatusOr<BF16Rounding> getSplitFlag() {
  std::string name = absl::GetFlag(FLAGS_split);
  if (name == "rne")
    return BF16Rounding::NearestEven;
  if (name == "trunc")
    return BF16Rounding::Truncate;
  return absl::InvalidArgumentError(
      "--split=" + name +
      " is not a split rounding; expected rne (round to nearest even) or "
      "trunc");
}

std::vector<float> floats(const NpyArray &array) {
  std::vector<float> values(array.words.size());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = floatOf(array.words[i]);
  return values;
}

/// --shape, as dimensions.
std::optional<std::vector<int64_t>> getShapeFlag() {
  std::vector<int64_t> shape;
  for (absl::string_view dim :
       absl::StrSplit(absl::GetFlag(FLAGS_shape), 'x')) {
    int64_t value;
    if (!absl::SimpleAtoi(dim, &value) || value < 1)
      return std::nullopt;
    shape.push_back(value);
  }
  return shape;
}

/// --dimensions, as distinct dimensions in ascending order below `rank`,
/// each passing `allowed`; or nothing when they are not.
std::optional<std::vector<int64_t>>
getDimensionsFlag(int64_t rank, const std::function<bool(int64_t)> &allowed) {
  std::vector<int64_t> dims;
  for (absl::string_view text : absl::StrSplit(
           absl::GetFlag(FLAGS_dimensions), ',', absl::SkipEmpty())) {
    int64_t dim;
    if (!absl::SimpleAtoi(text, &dim) || dim < 0 || dim >= rank ||
        !allowed(dim) || (!dims.empty() && dim <= dims.back()))
      return std::nullopt;
    dims.push_back(dim);
  }
  return dims;
}

/// `count` integers of at least `min` from a flag's text ("1,1"), or
/// nothing.
std::optional<std::vector<int64_t>> parseSizes(const std::string &text,
                                               size_t count, int64_t min) {
  std::vector<int64_t> sizes;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int64_t value;
    if (!absl::SimpleAtoi(part, &value) || value < min)
      return std::nullopt;
    sizes.push_back(value);
  }
  if (sizes.size() != count)
    return std::nullopt;
  return sizes;
}

/// The windows --strides, --dilations, --padding and --pad-value say, of
/// `window`, over an image batch of `shape`.
absl::StatusOr<reference::Windows>
getWindowsFlags(const std::vector<int64_t> &shape,
                std::array<int64_t, 2> window) {
  if (shape.size() != 4)
    return absl::InvalidArgumentError("the image must be [N, H, W, C], got " +
                                      formatShape(shape));
  reference::Windows windows;
  std::copy(shape.begin(), shape.end(), windows.image.begin());
  windows.window = window;
  for (auto [name, flag, target, count, min] :
       {std::tuple{"strides", absl::GetFlag(FLAGS_strides),
                   windows.strides.data(), size_t(2), int64_t(1)},
        std::tuple{"dilations", absl::GetFlag(FLAGS_dilations),
                   windows.dilations.data(), size_t(2), int64_t(1)},
        std::tuple{"padding", absl::GetFlag(FLAGS_padding),
                   windows.padding.data(), size_t(4), int64_t(0)}}) {
    std::optional<std::vector<int64_t>> sizes = parseSizes(flag, count, min);
    if (!sizes)
      return absl::InvalidArgumentError(
          std::string("--") + name + "=" + flag + " must be " +
          std::to_string(count) + " integers of at least " +
          std::to_string(min) + ", separated by commas");
    std::copy(sizes->begin(), sizes->end(), target);
  }
  windows.padValue = absl::GetFlag(FLAGS_pad_value);
  if (windows.outputSize(0) == 0 || windows.outputSize(1) == 0)
    return absl::InvalidArgumentError(
        "the window is larger than the padded image " + formatShape(shape));
  return windows;
}

int makeRandom() {
  NpyArray array;
  std::optional<std::vector<int64_t>> shape = getShapeFlag();
  if (!shape)
    return fail("--shape must look like 7x300, got '" +
                absl::GetFlag(FLAGS_shape) + "'");
  array.shape = *shape;
  int64_t count = 1;
  for (int64_t dim : array.shape)
    count *= dim;
  std::mt19937_64 rng(absl::GetFlag(FLAGS_seed));
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::string dist = absl::GetFlag(FLAGS_dist);
  const float specials[] = {
      0.0f, -0.0f, std::numeric_limits<float>::infinity(),
      -std::numeric_limits<float>::infinity(),
      std::numeric_limits<float>::quiet_NaN(),
      // NaNs the canonical-NaN rule must replace: a negative one, one with a
      // payload, a signaling one.
      floatOf(0xFFC00000), floatOf(0x7FC01234), floatOf(0x7F800001),
      std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
      floatOf(0x7F7F8000), std::numeric_limits<float>::min(),
      floatOf(0x00400000), 1e30f, -1e-30f};
  // 1 + 2^-9 + 2^-18 splits into hi = 1, mid = 2^-9, lo = 2^-18 (HIGH:
  // hi = 1, lo = 2^-9), so every term of HIGH and HIGHEST is at least
  // 2^-18 |a b|: more than the error bound allows at K = 1.
  const float termsValue = 1.0f + 0x1p-9f + 0x1p-18f;
  for (int64_t i = 0; i < count; ++i) {
    float value;
    if (dist == "normal")
      value = normal(rng) * absl::GetFlag(FLAGS_scale);
    else if (dist == "uniform")
      value = uniform(rng) * absl::GetFlag(FLAGS_scale);
    else if (dist == "special")
      value =
          rng() % 8 == 0 ? specials[rng() % std::size(specials)] : normal(rng);
    else if (dist == "constant")
      value = absl::GetFlag(FLAGS_value);
    else if (dist == "terms")
      value = (rng() % 2 ? -1.0f : 1.0f) *
              std::ldexp(termsValue, int(rng() % 16) - 8);
    else
      return fail("--dist must be normal, uniform, special, terms or "
                  "constant");
    array.words.push_back(bitsOf(value));
  }
  return writeOutput(array);
}

/// Reads both files, or says why one cannot be read.
absl::StatusOr<std::pair<NpyArray, NpyArray>>
readPair(const std::string &first, const std::string &second) {
  absl::StatusOr<NpyArray> a = readNpyFile(first);
  if (!a.ok())
    return a.status();
  absl::StatusOr<NpyArray> b = readNpyFile(second);
  if (!b.ok())
    return b.status();
  return std::make_pair(*std::move(a), *std::move(b));
}

/// A matmul's operand shapes: lhs [batch..., M, K] and rhs [batch..., K, N],
/// or a matrix-vector product, lhs [M, K] and rhs [K].
struct MatmulOperands {
  reference::MatmulShape shape;
  std::vector<int64_t> resultShape;
};

absl::StatusOr<MatmulOperands> getMatmulShape(const NpyArray &lhs,
                                              const NpyArray &rhs) {
  size_t rank = lhs.shape.size();
  MatmulOperands operands;
  reference::MatmulShape &shape = operands.shape;
  if (rank == 2 && rhs.shape.size() == 1) {
    shape.m = lhs.shape[0];
    shape.k = lhs.shape[1];
    if (rhs.shape[0] != shape.k)
      return absl::InvalidArgumentError(
          "matvec: contraction dimensions differ");
    operands.resultShape = {shape.m};
    return operands;
  }
  if (rank < 2 || (rhs.shape.size() != rank && rhs.shape.size() != 2))
    return absl::InvalidArgumentError(
        "matmul needs operands of the same rank >= 2, a rank-2 rhs that "
        "every batch shares, or a matrix and a vector");
  shape.m = lhs.shape[rank - 2];
  shape.k = lhs.shape[rank - 1];
  shape.n = rhs.shape.back();
  for (size_t i = 0; i + 2 < rank; ++i)
    shape.batch *= lhs.shape[i];
  // A shared rhs: the batches' rows are one matrix's.
  if (rhs.shape.size() != rank) {
    shape.m *= shape.batch;
    shape.batch = 1;
  }
  if (rhs.shape[rhs.shape.size() - 2] != shape.k)
    return absl::InvalidArgumentError("matmul: contraction dimensions differ");
  operands.resultShape = lhs.shape;
  operands.resultShape[rank - 1] = shape.n;
  return operands;
}

/// The --accumulator file, which must have the result's shape.
absl::StatusOr<std::vector<float>>
readAccumulator(const std::vector<int64_t> &resultShape) {
  absl::StatusOr<NpyArray> acc = readNpyFile(absl::GetFlag(FLAGS_accumulator));
  if (!acc.ok())
    return acc.status();
  if (acc->shape != resultShape)
    return absl::InvalidArgumentError(
        "--accumulator has shape " + formatShape(acc->shape) + ", the result " +
        formatShape(resultShape));
  return floats(*acc);
}

/// What --precision, --split and --accumulator say about a matmul whose
/// result has `resultShape`; `accumulator` is empty without the flag.
struct MatmulFlags {
  MatmulPrecision precision;
  BF16Rounding split;
  std::vector<float> accumulator;
};

absl::StatusOr<MatmulFlags>
getMatmulFlags(const std::vector<int64_t> &resultShape) {
  absl::StatusOr<MatmulPrecision> precision = getPrecisionFlag();
  if (!precision.ok())
    return precision.status();
  absl::StatusOr<BF16Rounding> split = getSplitFlag();
  if (!split.ok())
    return split.status();
  MatmulFlags flags{*precision, *split, {}};
  if (!absl::GetFlag(FLAGS_accumulator).empty()) {
    absl::StatusOr<std::vector<float>> acc = readAccumulator(resultShape);
    if (!acc.ok())
      return acc.status();
    flags.accumulator = *std::move(acc);
  }
  return flags;
}

/// Checks `got` against `want` (an f32 result computed on the CPU) within
/// the error bound of the precision, per element:
///   |got - want| <= coefficient x (sum_k |a_ik| |b_kj| + |acc_ij|)
/// with the coefficient of tpu/Reference/ErrorBound.h (docs/Testing.md
/// derives it).
int checkBound(const std::string &gotPath, const std::string &wantPath,
               const std::string &lhsPath, const std::string &rhsPath) {
  auto results = readPair(gotPath, wantPath);
  if (!results.ok())
    return fail(std::string(results.status().message()));
  auto inputs = readPair(lhsPath, rhsPath);
  if (!inputs.ok())
    return fail(std::string(inputs.status().message()));
  absl::StatusOr<MatmulOperands> operands =
      getMatmulShape(inputs->first, inputs->second);
  if (!operands.ok())
    return fail(std::string(operands.status().message()));
  const NpyArray &got = results->first, &want = results->second;
  if (got.shape != operands->resultShape || want.shape != got.shape)
    return fail("result shapes " + formatShape(got.shape) + " and " +
                formatShape(want.shape) + " do not match the operands'");
  absl::StatusOr<MatmulFlags> flags = getMatmulFlags(operands->resultShape);
  if (!flags.ok())
    return fail(std::string(flags.status().message()));
  const char *precisionName = getMatmulPrecisionName(flags->precision);
  const reference::MatmulShape &shape = operands->shape;
  std::vector<float> a = floats(inputs->first), b = floats(inputs->second);
  const std::vector<float> &acc = flags->accumulator;
  double factor = reference::getErrorBoundCoefficient(
      flags->precision, flags->split, shape.k, !acc.empty());
  size_t failures = 0;
  double worst = 0; // error / bound
  for (int64_t batch = 0; batch < shape.batch; ++batch)
    for (int64_t i = 0; i < shape.m; ++i)
      for (int64_t j = 0; j < shape.n; ++j) {
        double magnitude = 0;
        for (int64_t k = 0; k < shape.k; ++k)
          magnitude +=
              std::fabs(double(a[(batch * shape.m + i) * shape.k + k])) *
              std::fabs(double(b[(batch * shape.k + k) * shape.n + j]));
        size_t index = size_t((batch * shape.m + i) * shape.n + j);
        if (!acc.empty())
          magnitude += std::fabs(double(acc[index]));
        float g = floatOf(got.words[index]), w = floatOf(want.words[index]);
        double error = std::fabs(double(g) - double(w));
        double bound = factor * magnitude;
        bool ok = g == w || (std::isnan(g) && std::isnan(w)) || error <= bound;
        if (ok && bound > 0)
          worst = std::max(worst, error / bound);
        if (!ok && failures++ < 5)
          std::printf("out of bound at flat index %zu: got %.9g, want %.9g, "
                      "error %.3g > bound %.3g\n",
                      index, g, w, error, bound);
      }
  if (failures) {
    std::printf("FAIL: %zu of %zu elements out of the %s bound\n", failures,
                got.words.size(), precisionName);
    return 1;
  }
  std::printf("OK: %zu elements within the %s bound (%.3g x sum|a||b|); "
              "worst error %.3g of the bound\n",
              got.words.size(), precisionName, factor, worst);
  return 0;
}

int matmul(const std::string &lhsPath, const std::string &rhsPath) {
  auto inputs = readPair(lhsPath, rhsPath);
  if (!inputs.ok())
    return fail(std::string(inputs.status().message()));
  const NpyArray *lhs = &inputs->first, *rhs = &inputs->second;
  absl::StatusOr<MatmulOperands> operands = getMatmulShape(*lhs, *rhs);
  if (!operands.ok())
    return fail(std::string(operands.status().message()));
  reference::MatmulShape shape = operands->shape;
  absl::StatusOr<MatmulFlags> flags = getMatmulFlags(operands->resultShape);
  if (!flags.ok())
    return fail(std::string(flags.status().message()));
  std::vector<float> c =
      reference::matmul(shape, floats(*lhs), floats(*rhs), flags->precision,
                        flags->split, flags->accumulator);
  NpyArray out;
  out.shape = operands->resultShape;
  for (float value : c)
    out.words.push_back(bitsOf(value));
  return writeOutput(out);
}

int compare(const std::string &gotPath, const std::string &wantPath) {
  auto inputs = readPair(gotPath, wantPath);
  if (!inputs.ok())
    return fail(std::string(inputs.status().message()));
  const NpyArray *got = &inputs->first, *want = &inputs->second;
  if (got->shape != want->shape)
    return fail("shapes differ: " + formatShape(got->shape) + " vs " +
                formatShape(want->shape));
  double rtol = absl::GetFlag(FLAGS_rtol), atol = absl::GetFlag(FLAGS_atol);
  std::string nanRule = absl::GetFlag(FLAGS_nan);
  if (nanRule != "exact" && nanRule != "any")
    return fail("--nan=" + nanRule + " is not a NaN rule; use exact or any");
  bool exact = rtol < 0, anyNaN = nanRule == "any";
  size_t mismatches = 0;
  double worst = 0;
  for (size_t i = 0; i < got->words.size(); ++i) {
    float g = floatOf(got->words[i]), w = floatOf(want->words[i]);
    // Bit for bit, NaNs included, unless told otherwise.
    bool ok = got->words[i] == want->words[i] ||
              (anyNaN && std::isnan(g) && std::isnan(w));
    if (!exact && !ok && !std::isnan(g) && !std::isnan(w)) {
      double error = std::fabs(double(g) - double(w));
      ok = g == w || error <= atol + rtol * std::fabs(double(w));
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
    std::printf("OK: %zu elements bit-exact%s\n", got->words.size(),
                anyNaN ? " (any NaN matching any NaN)" : "");
  else
    std::printf("OK: %zu elements within rtol %g atol %g (worst relative "
                "error %.3g)\n",
                got->words.size(), rtol, atol, worst);
  return 0;
}

/// The model's op applied element by element to one or two arrays of the
/// same shape.
int elementwise(const std::vector<std::string> &paths) {
  std::string name = absl::GetFlag(FLAGS_op);
  const reference::ElementwiseOp *op = reference::lookupElementwiseOp(name);
  if (!op)
    return fail("--op=" + name +
                " is not an elementwise op of the model; it "
                "has " +
                reference::listElementwiseOps());
  if (paths.size() != op->arity)
    return fail(name + " takes " + std::to_string(op->arity) +
                " input file(s), got " + std::to_string(paths.size()));
  std::vector<NpyArray> inputs;
  for (const std::string &path : paths) {
    absl::StatusOr<NpyArray> array = readNpyFile(path);
    if (!array.ok())
      return fail(std::string(array.status().message()));
    if (!inputs.empty() && array->shape != inputs.front().shape)
      return fail("shapes differ: " + formatShape(inputs.front().shape) +
                  " vs " + formatShape(array->shape));
    inputs.push_back(*std::move(array));
  }
  NpyArray out;
  out.shape = inputs.front().shape;
  for (size_t i = 0; i < inputs.front().words.size(); ++i) {
    float a = floatOf(inputs[0].words[i]);
    float b = op->arity == 2 ? floatOf(inputs[1].words[i]) : 0.0f;
    out.words.push_back(bitsOf(op->apply(a, b)));
  }
  return writeOutput(out);
}

/// What --kind and --init say: the reduction, and the value it starts
/// from (default: the kind's identity).
struct ReductionFlags {
  reference::ReductionKind kind;
  float init;
};

absl::StatusOr<ReductionFlags> getReductionFlags() {
  std::string kindName = absl::GetFlag(FLAGS_kind);
  std::optional<reference::ReductionKind> kind =
      reference::parseReductionKind(kindName);
  if (!kind)
    return absl::InvalidArgumentError(
        "--kind=" + kindName +
        " is not a reduction; use sum, max, min, maxnum or minnum");
  float init = reference::getReductionIdentity(*kind);
  std::string initText = absl::GetFlag(FLAGS_init);
  if (!initText.empty() && !absl::SimpleAtof(initText, &init))
    return absl::InvalidArgumentError("--init=" + initText +
                                      " is not a number");
  return ReductionFlags{*kind, init};
}

/// Each row (the last dimension) of one array reduced by the model.
int reduce(const std::string &path) {
  absl::StatusOr<ReductionFlags> flags = getReductionFlags();
  if (!flags.ok())
    return fail(std::string(flags.status().message()));
  reference::ReductionKind kind = flags->kind;
  float init = flags->init;
  absl::StatusOr<NpyArray> array = readNpyFile(path);
  if (!array.ok())
    return fail(std::string(array.status().message()));
  if (array->shape.empty())
    return fail("reduce takes an array of rank 1 or more, got a scalar");
  if (!absl::GetFlag(FLAGS_dimensions).empty()) {
    int64_t rank = int64_t(array->shape.size());
    // The second-to-last dimension alone: each column.
    if (absl::GetFlag(FLAGS_dimensions) == std::to_string(rank - 2)) {
      NpyArray out;
      out.shape = array->shape;
      out.shape.erase(out.shape.end() - 2);
      int64_t rows = array->shape[rank - 2], cols = array->shape[rank - 1];
      int64_t matrices =
          rows * cols == 0 ? 0 : int64_t(array->words.size()) / (rows * cols);
      for (float value : reference::reduceColumns(floats(*array), matrices,
                                                  rows, cols, kind, init))
        out.words.push_back(bitsOf(value));
      return writeOutput(out);
    }
    std::optional<std::vector<int64_t>> leading = getDimensionsFlag(
        rank, [&](int64_t dim) { return dim + 2 < rank; });
    if (!leading || leading->empty())
      return fail("--dimensions must be the second-to-last dimension, or "
                  "list leading dimensions (neither of the last two), of " +
                  formatShape(array->shape) + " in ascending order; got '" +
                  absl::GetFlag(FLAGS_dimensions) + "'");
    const std::vector<int64_t> &dims = *leading;
    NpyArray out;
    for (size_t d = 0; d < array->shape.size(); ++d)
      if (std::find(dims.begin(), dims.end(), int64_t(d)) == dims.end())
        out.shape.push_back(array->shape[d]);
    for (float value : reference::reduceMatrices(floats(*array), array->shape,
                                                 dims, kind, init))
      out.words.push_back(bitsOf(value));
    return writeOutput(out);
  }
  int64_t cols = array->shape.back();
  int64_t rows = cols == 0 ? 0 : int64_t(array->words.size()) / cols;
  NpyArray out;
  out.shape =
      std::vector<int64_t>(array->shape.begin(), array->shape.end() - 1);
  for (float value :
       reference::reduceRows(floats(*array), rows, cols, kind, init))
    out.words.push_back(bitsOf(value));
  return writeOutput(out);
}

/// One array given new dimensions, as linalg.broadcast does: result
/// element [i0, ..., in] is the source's at the indices of the dimensions
/// that are not new.
int broadcast(const std::string &path) {
  std::optional<std::vector<int64_t>> shape = getShapeFlag();
  if (!shape)
    return fail("--shape must look like 7x300, got '" +
                absl::GetFlag(FLAGS_shape) + "'");
  std::optional<std::vector<int64_t>> dims =
      getDimensionsFlag(int64_t(shape->size()), [](int64_t) { return true; });
  if (!dims)
    return fail("--dimensions must list distinct dimensions of --shape in "
                "ascending order, as 0 or 0,2; got '" +
                absl::GetFlag(FLAGS_dimensions) + "'");
  std::vector<bool> isNew(shape->size(), false);
  for (int64_t dim : *dims)
    isNew[size_t(dim)] = true;
  absl::StatusOr<NpyArray> array = readNpyFile(path);
  if (!array.ok())
    return fail(std::string(array.status().message()));
  std::vector<int64_t> kept;
  for (size_t d = 0; d < shape->size(); ++d)
    if (!isNew[d])
      kept.push_back((*shape)[d]);
  if (kept != array->shape)
    return fail(path + " has shape " + formatShape(array->shape) +
                "; the dimensions of --shape that are not new are " +
                formatShape(kept));
  NpyArray out;
  out.shape = *shape;
  std::vector<int64_t> index(shape->size(), 0);
  int64_t count = 1;
  for (int64_t dim : *shape)
    count *= dim;
  for (int64_t i = 0; i < count; ++i) {
    int64_t source = 0;
    for (size_t d = 0; d < shape->size(); ++d)
      if (!isNew[d])
        source = source * (*shape)[d] + index[d];
    out.words.push_back(array->words[size_t(source)]);
    for (size_t d = shape->size(); d-- > 0;) {
      if (++index[d] < (*shape)[d])
        break;
      index[d] = 0;
    }
  }
  return writeOutput(out);
}

/// One array transposed as linalg.transpose with --permutation (result
/// dimension d is source dimension permutation[d]; default: the last two
/// swapped). Words move, never change.
int transpose(const std::string &path) {
  absl::StatusOr<NpyArray> array = readNpyFile(path);
  if (!array.ok())
    return fail(std::string(array.status().message()));
  size_t rank = array->shape.size();
  if (rank < 2)
    return fail("transpose takes an array of rank 2 or more, got " +
                formatShape(array->shape));
  std::vector<int64_t> permutation(rank);
  for (size_t d = 0; d < rank; ++d)
    permutation[d] = int64_t(d);
  std::swap(permutation[rank - 2], permutation[rank - 1]);
  std::string text = absl::GetFlag(FLAGS_permutation);
  if (!text.empty()) {
    std::optional<std::vector<int64_t>> given = parseSizes(text, rank, 0);
    std::vector<int64_t> sorted = given ? *given : std::vector<int64_t>();
    std::sort(sorted.begin(), sorted.end());
    for (size_t d = 0; d < sorted.size(); ++d)
      if (sorted[d] != int64_t(d))
        given.reset();
    if (!given)
      return fail("--permutation=" + text + " must order the " +
                  std::to_string(rank) + " dimensions of " +
                  formatShape(array->shape));
    permutation = *given;
  }
  NpyArray out;
  for (int64_t d : permutation)
    out.shape.push_back(array->shape[d]);
  // Row-major strides of the source, then each result element's source.
  std::vector<int64_t> strides(rank, 1);
  for (int64_t d = int64_t(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * array->shape[d + 1];
  out.words.resize(array->words.size());
  std::vector<int64_t> index(rank, 0);
  for (size_t flat = 0; flat < out.words.size(); ++flat) {
    int64_t source = 0;
    for (size_t d = 0; d < rank; ++d)
      source += index[d] * strides[permutation[d]];
    out.words[flat] = array->words[size_t(source)];
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      if (++index[d] < out.shape[d])
        break;
      index[d] = 0;
    }
  }
  return writeOutput(out);
}

/// The same elements in row-major order with --shape, as
/// tensor.collapse_shape and expand_shape.
int reshape(const std::string &path) {
  std::optional<std::vector<int64_t>> shape = getShapeFlag();
  if (!shape)
    return fail("--shape must look like 7x300, got '" +
                absl::GetFlag(FLAGS_shape) + "'");
  absl::StatusOr<NpyArray> array = readNpyFile(path);
  if (!array.ok())
    return fail(std::string(array.status().message()));
  int64_t elements = 1;
  for (int64_t dim : *shape)
    elements *= dim;
  if (size_t(elements) != array->words.size())
    return fail("cannot reshape " + formatShape(array->shape) + " to " +
                formatShape(*shape) + ": the element counts differ");
  array->shape = *shape;
  return writeOutput(*array);
}

/// The array with every subnormal replaced by a zero of its sign: what the
/// VPU reads (docs/Numerics.md), for a run on the CPU, which does not
/// flush, to start from and to be compared after.
int flush(const std::string &path) {
  absl::StatusOr<NpyArray> array = readNpyFile(path);
  if (!array.ok())
    return fail(std::string(array.status().message()));
  for (uint32_t &word : array->words)
    if ((word & 0x7F800000u) == 0)
      word &= 0x80000000u;
  return writeOutput(*array);
}

/// Channels padded to whole lane tiles, as a convolution's im2col pads
/// them (docs/Numerics.md).
int64_t padChannels(int64_t c) { return (c + 127) / 128 * 128; }

/// The im2col matrix of `image`, [N, OH, OW, KH * KW * paddedC], each
/// tap's channels padded with zeros to a multiple of 128.
NpyArray im2colOf(const NpyArray &image, const reference::Windows &windows) {
  int64_t paddedC = padChannels(image.shape[3]);
  NpyArray out;
  out.shape = {image.shape[0], windows.outputSize(0), windows.outputSize(1),
               windows.window[0] * windows.window[1] * paddedC};
  for (float value : reference::im2col(windows, floats(image), paddedC))
    out.words.push_back(bitsOf(value));
  return out;
}

/// A filter [KH, KW, C, F] as the [KH * KW * paddedC, F] matrix the
/// im2col matrix multiplies: zero rows for the padded channels.
NpyArray filterMatrixOf(const NpyArray &filter) {
  int64_t c = filter.shape[2], f = filter.shape[3];
  int64_t paddedC = padChannels(c), taps = filter.shape[0] * filter.shape[1];
  NpyArray out;
  out.shape = {taps * paddedC, f};
  out.words.assign(size_t(taps * paddedC * f), 0);
  for (int64_t t = 0; t < taps; ++t)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t j = 0; j < f; ++j)
        out.words[size_t((t * paddedC + ch) * f + j)] =
            filter.words[size_t((t * c + ch) * f + j)];
  return out;
}

/// An image and a filter, read, with the windows the flags say.
struct ConvOperands {
  NpyArray image, filter;
  reference::Windows windows;
};

absl::StatusOr<ConvOperands> readConvOperands(const std::string &imagePath,
                                              const std::string &filterPath) {
  auto inputs = readPair(imagePath, filterPath);
  if (!inputs.ok())
    return inputs.status();
  ConvOperands operands{inputs->first, inputs->second, {}};
  const std::vector<int64_t> &image = operands.image.shape,
                             &filter = operands.filter.shape;
  if (filter.size() != 4 || image.size() != 4 || filter[2] != image[3])
    return absl::InvalidArgumentError(
        "a convolution takes an image [N, H, W, C] and a filter [KH, KW, C, "
        "F], got " +
        formatShape(image) + " and " + formatShape(filter));
  auto windows = getWindowsFlags(image, {filter[0], filter[1]});
  if (!windows.ok())
    return windows.status();
  operands.windows = *windows;
  return operands;
}

/// The two operands of a convolution's matmul: the im2col matrix (-o) and
/// the filter matrix (--filter-output).
int im2col(const std::string &imagePath, const std::string &filterPath) {
  absl::StatusOr<ConvOperands> operands =
      readConvOperands(imagePath, filterPath);
  if (!operands.ok())
    return fail(std::string(operands.status().message()));
  absl::Status status = writeNpyFile(absl::GetFlag(FLAGS_filter_output),
                                     filterMatrixOf(operands->filter));
  if (!status.ok())
    return fail(std::string(status.message()));
  return writeOutput(im2colOf(operands->image, operands->windows));
}

/// A convolution as docs/Numerics.md defines it: the im2col matrix times
/// the filter matrix, by the matmul model.
int conv(const std::string &imagePath, const std::string &filterPath) {
  absl::StatusOr<ConvOperands> operands =
      readConvOperands(imagePath, filterPath);
  if (!operands.ok())
    return fail(std::string(operands.status().message()));
  NpyArray lhs = im2colOf(operands->image, operands->windows);
  NpyArray rhs = filterMatrixOf(operands->filter);
  absl::StatusOr<MatmulOperands> shape = getMatmulShape(lhs, rhs);
  if (!shape.ok())
    return fail(std::string(shape.status().message()));
  absl::StatusOr<MatmulFlags> flags = getMatmulFlags(shape->resultShape);
  if (!flags.ok())
    return fail(std::string(flags.status().message()));
  NpyArray out;
  out.shape = shape->resultShape;
  for (float value :
       reference::matmul(shape->shape, floats(lhs), floats(rhs),
                         flags->precision, flags->split, flags->accumulator))
    out.words.push_back(bitsOf(value));
  return writeOutput(out);
}

/// A pooling: each window's taps, in row-major order of (kh, kw), combined
/// by --kind into --init.
int pool(const std::string &path) {
  absl::StatusOr<ReductionFlags> flags = getReductionFlags();
  if (!flags.ok())
    return fail(std::string(flags.status().message()));
  reference::ReductionKind kind = flags->kind;
  float init = flags->init;
  std::optional<std::vector<int64_t>> window =
      parseSizes(absl::GetFlag(FLAGS_window), 2, 1);
  if (!window)
    return fail("pool needs --window=KH,KW, two sizes of at least 1");
  absl::StatusOr<NpyArray> image = readNpyFile(path);
  if (!image.ok())
    return fail(std::string(image.status().message()));
  auto windows = getWindowsFlags(image->shape, {(*window)[0], (*window)[1]});
  if (!windows.ok())
    return fail(std::string(windows.status().message()));
  std::vector<int64_t> tapsShape = {
      (*window)[0],           (*window)[1],           image->shape[0],
      windows->outputSize(0), windows->outputSize(1), image->shape[3]};
  NpyArray out;
  out.shape.assign(tapsShape.begin() + 2, tapsShape.end());
  for (float value : reference::reduceMatrices(
           reference::windowTaps(*windows, floats(*image)), tapsShape, {0, 1},
           kind, init))
    out.words.push_back(bitsOf(value));
  return writeOutput(out);
}

/// Each image's rows and columns padded with --pad-value.
int pad(const std::string &path) {
  absl::StatusOr<NpyArray> image = readNpyFile(path);
  if (!image.ok())
    return fail(std::string(image.status().message()));
  auto windows = getWindowsFlags(image->shape, {1, 1});
  if (!windows.ok())
    return fail(std::string(windows.status().message()));
  NpyArray out;
  out.shape = {image->shape[0], windows->outputSize(0), windows->outputSize(1),
               image->shape[3]};
  for (float value : reference::windowTaps(*windows, floats(*image)))
    out.words.push_back(bitsOf(value));
  return writeOutput(out);
}

} // namespace

int main(int argc, char **argv) {
  absl::SetProgramUsageMessage(
      "test inputs and reference results: random | matmul | compare | "
      "check-bound | elementwise | reduce | broadcast | transpose | flush | "
      "conv | im2col | pool | pad | reshape");
  absl::StatusOr<PreparedCommandLine> commandLine =
      prepareCommandLine(argc, argv, {});
  if (!commandLine.ok())
    return fail(std::string(commandLine.status().message()));
  std::vector<char *> args = absl::ParseCommandLine(
      int(commandLine->argv.size()), commandLine->argv.data());
  std::string command = args.size() > 1 ? args[1] : "";
  if (command == "random" && args.size() == 2)
    return makeRandom();
  if (command == "matmul" && args.size() == 4)
    return matmul(args[2], args[3]);
  if (command == "compare" && args.size() == 4)
    return compare(args[2], args[3]);
  if (command == "check-bound" && args.size() == 6)
    return checkBound(args[2], args[3], args[4], args[5]);
  if (command == "elementwise" && args.size() >= 3)
    return elementwise(std::vector<std::string>(args.begin() + 2, args.end()));
  if (command == "flush" && args.size() == 3)
    return flush(args[2]);
  if (command == "reduce" && args.size() == 3)
    return reduce(args[2]);
  if (command == "broadcast" && args.size() == 3)
    return broadcast(args[2]);
  if (command == "transpose" && args.size() == 3)
    return transpose(args[2]);
  if (command == "conv" && args.size() == 4)
    return conv(args[2], args[3]);
  if (command == "im2col" && args.size() == 4)
    return im2col(args[2], args[3]);
  if (command == "pool" && args.size() == 3)
    return pool(args[2]);
  if (command == "pad" && args.size() == 3)
    return pad(args[2]);
  if (command == "reshape" && args.size() == 3)
    return reshape(args[2]);
  return fail("usage: tpu-ref random|matmul|compare|check-bound|elementwise|"
              "reduce|broadcast|transpose|reshape|flush|conv|im2col|pool|pad "
              "... (see --help)");
}
