//===- DiffFuzzer.cpp - Compiled programs against two references ----------===//
//
// Differential: the input is read as a case (ByteReader): a matmul, batch
// matmul, matrix-vector product, matmul with an accumulator, or elementwise
// op (as a linalg.generic or as arith on tensors), with dimensions from 1 to
// 1100, any precision, split rounding and chip, and inputs drawn normal,
// uniform, with special values (infinities, NaNs of every kind, FLT_MAX,
// subnormals), or every precision term visible (docs/Testing.md). The case
// is written as plain upstream MLIR, compiled in-process as tpu-compile
// does, run in the simulator with --poison-uninitialized, and checked
//  1. bit for bit, NaNs included, against the reference model, and
//  2. against the same MLIR lowered by upstream MLIR and run on the CPU
//     (lib/CpuRunner): within the precision's error bound for a matmul,
//     bit for bit (any NaN matching any NaN) for an elementwise op; inputs
//     with infinities or NaNs skip this check, as the e2e tests do.
// Any difference, trap or compile failure aborts with the case printed.
//
//===----------------------------------------------------------------------===//

#include "ByteReader.h"
#include "CompileSupport.h"

#include "tpu/CpuRunner/CpuRunner.h"
#include "tpu/Reference/ElementwiseReference.h"
#include "tpu/Reference/ErrorBound.h"
#include "tpu/Reference/MatmulReference.h"
#include "tpu/Sim/Runtime.h"
#include "tpu/Sim/Simulator.h"
#include "tpu/Support/Float.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tpu;

namespace {

enum class Kind { Matmul, Batch, Matvec, Accumulate, Elementwise };
enum class Dist { Normal, Uniform, Special, Terms };

struct Case {
  Kind kind = Kind::Matmul;
  int64_t batch = 1, m = 1, k = 1, n = 1;
  MatmulPrecision precision = MatmulPrecision::Default;
  BF16Rounding split = BF16Rounding::NearestEven;
  ChipKind chip = ChipKind::V4;
  Dist dist = Dist::Normal;
  uint32_t seed = 0;
  const reference::ElementwiseOp *op = nullptr;
  bool arithForm = false;

  std::string describe() const {
    static const char *kinds[] = {"matmul", "batch", "matvec", "acc",
                                  "elementwise"};
    static const char *dists[] = {"normal", "uniform", "special", "terms"};
    std::string text = std::string(kinds[int(kind)]) + " " +
                       std::to_string(batch) + "x" + std::to_string(m) + "x" +
                       std::to_string(k) + "x" + std::to_string(n);
    if (op)
      text += std::string(" ") + op->name + (arithForm ? " arith" : " generic");
    return text + " " + getMatmulPrecisionName(precision) +
           (split == BF16Rounding::Truncate ? " trunc " : " rne ") +
           getChipInfo(chip).name + " " + dists[int(dist)] + " seed " +
           std::to_string(seed);
  }
};

/// A dimension from 1 to 1100, small ones as likely as large ones.
int64_t pickDimension(fuzz::ByteReader &in) {
  double u = double(in.below(1024)) / 1023.0;
  return std::max<int64_t>(1, std::llround(std::exp(u * std::log(1100.0))));
}

Case readCase(fuzz::ByteReader &in) {
  Case c;
  c.kind = Kind(in.below(5));
  c.m = pickDimension(in);
  c.k = pickDimension(in);
  c.n = pickDimension(in);
  c.batch = c.kind == Kind::Batch ? 1 + in.below(4) : 1;
  c.precision = MatmulPrecision(in.below(3));
  c.split =
      in.below(4) == 0 ? BF16Rounding::Truncate : BF16Rounding::NearestEven;
  c.chip = ChipKind(in.below(kNumChips));
  c.dist = Dist(in.below(4));
  c.seed = in.word();
  if (c.kind == Kind::Matvec)
    c.n = 1;
  if (c.kind == Kind::Elementwise) {
    static const char *ops[] = {"addf", "subf",     "mulf",
                                "divf", "maximumf", "minimumf"};
    c.op = reference::lookupElementwiseOp(ops[in.below(6)]);
    c.arithForm = in.below(2);
    c.k = 1;
  }
  if (c.dist == Dist::Terms)
    c.k = 1; // where every term shows in the bound
  // Keep one case well under a second in a sanitizer build: the MXU work
  // after padding, and the model's (M x K x N per pass).
  auto padded = [](int64_t v, int64_t to) { return (v + to - 1) / to * to; };
  while (c.m > 1 &&
         (c.batch * padded(c.m, 8) * padded(c.k, 128) * padded(c.n, 128) >
              (int64_t(1) << 28) ||
          c.batch * c.m * c.k * c.n > (int64_t(1) << 24)))
    c.m = std::max<int64_t>(1, c.m / 2);
  return c;
}

std::string tensorType(const std::vector<int64_t> &shape) {
  std::string text = "tensor<";
  for (int64_t dim : shape)
    text += std::to_string(dim) + "x";
  return text + "f32>";
}

/// The case as upstream MLIR, with its argument and result shapes.
std::string writeProgram(const Case &c,
                         std::vector<std::vector<int64_t>> &arguments,
                         std::vector<int64_t> &result) {
  if (c.kind == Kind::Elementwise) {
    std::vector<int64_t> shape = {c.m, c.n};
    std::string t = tensorType(shape);
    arguments.assign(c.op->arity, shape);
    result = shape;
    std::string args = "%x0: " + t;
    std::string names = "%x0";
    std::string types = t;
    if (c.op->arity == 2) {
      args += ", %x1: " + t;
      names += ", %x1";
      types += ", " + t;
    }
    std::string text = "func.func @main(" + args + ") -> " + t + " {\n";
    if (c.arithForm) {
      text += "  %r = arith." + std::string(c.op->name) + " " + names + " : " +
              t + "\n";
    } else {
      std::string map = "affine_map<(d0, d1) -> (d0, d1)>";
      std::string maps = map;
      for (unsigned i = 0; i < c.op->arity; ++i)
        maps += ", " + map;
      text += "  %e = tensor.empty() : " + t + "\n";
      text += "  %r = linalg.generic {indexing_maps = [" + maps +
              "], iterator_types = [\"parallel\", \"parallel\"]} ins(" + names +
              " : " + types + ") outs(%e : " + t + ") {\n";
      text += c.op->arity == 2 ? "  ^bb0(%a: f32, %b: f32, %o: f32):\n"
                               : "  ^bb0(%a: f32, %o: f32):\n";
      text += "    %v = arith." + std::string(c.op->name) +
              (c.op->arity == 2 ? " %a, %b" : " %a") + " : f32\n";
      text += "    linalg.yield %v : f32\n  } -> " + t + "\n";
    }
    return text + "  return %r : " + t + "\n}\n";
  }
  std::vector<int64_t> a = {c.m, c.k}, b = {c.k, c.n}, r = {c.m, c.n};
  std::string op = "linalg.matmul";
  if (c.kind == Kind::Batch) {
    a.insert(a.begin(), c.batch);
    b.insert(b.begin(), c.batch);
    r.insert(r.begin(), c.batch);
    op = "linalg.batch_matmul";
  } else if (c.kind == Kind::Matvec) {
    b = {c.k};
    r = {c.m};
    op = "linalg.matvec";
  }
  arguments = {a, b};
  result = r;
  std::string ta = tensorType(a), tb = tensorType(b), tr = tensorType(r);
  std::string text;
  if (c.kind == Kind::Accumulate) {
    arguments.push_back(r);
    text = "func.func @main(%a: " + ta + ", %b: " + tb + ", %c: " + tr +
           ") -> " + tr + " {\n";
  } else {
    text = "func.func @main(%a: " + ta + ", %b: " + tb + ") -> " + tr +
           " {\n  %zero = arith.constant 0.0 : f32\n  %empty = "
           "tensor.empty() : " +
           tr + "\n  %c = linalg.fill ins(%zero : f32) outs(%empty : " + tr +
           ") -> " + tr + "\n";
  }
  text += "  %r = " + op + " ins(%a, %b : " + ta + ", " + tb +
          ") outs(%c : " + tr + ") -> " + tr + "\n";
  return text + "  return %r : " + tr + "\n}\n";
}

NpyArray randomArray(const std::vector<int64_t> &shape, Dist dist,
                     std::mt19937_64 &rng) {
  NpyArray array;
  array.shape = shape;
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {0.0f,
                            -0.0f,
                            inf,
                            -inf,
                            floatOf(0x7FC00000),
                            floatOf(0xFFC00000),
                            floatOf(0x7FC01234),
                            floatOf(0x7F800001),
                            std::numeric_limits<float>::max(),
                            floatOf(0x7F7F8000),
                            std::numeric_limits<float>::min(),
                            floatOf(0x00400000),
                            1e30f,
                            -1e-30f};
  const float termsValue = 1.0f + 0x1p-9f + 0x1p-18f;
  for (int64_t i = 0; i < count; ++i) {
    float value = 0;
    switch (dist) {
    case Dist::Normal:
      value = normal(rng);
      break;
    case Dist::Uniform:
      value = uniform(rng);
      break;
    case Dist::Special:
      value =
          rng() % 8 == 0 ? specials[rng() % std::size(specials)] : normal(rng);
      break;
    case Dist::Terms:
      value = (rng() % 2 ? -1.0f : 1.0f) *
              std::ldexp(termsValue, int(rng() % 16) - 8);
      break;
    }
    array.words.push_back(bitsOf(value));
  }
  return array;
}

std::vector<float> floats(const NpyArray &array) {
  std::vector<float> values;
  for (uint32_t word : array.words)
    values.push_back(floatOf(word));
  return values;
}

[[noreturn]] void finding(const Case &c, const std::string &what) {
  std::fprintf(stderr, "differential finding: %s: %s\n", c.describe().c_str(),
               what.c_str());
  std::abort();
}

/// The reference model's result.
std::vector<float> modelResult(const Case &c,
                               const std::vector<NpyArray> &inputs) {
  if (c.kind == Kind::Elementwise) {
    std::vector<float> x = floats(inputs[0]), out(x.size());
    std::vector<float> y = c.op->arity == 2 ? floats(inputs[1]) : x;
    for (size_t i = 0; i < x.size(); ++i)
      out[i] = c.op->apply(x[i], y[i]);
    return out;
  }
  reference::MatmulShape shape{c.batch, c.m, c.n, c.k};
  std::vector<float> acc =
      c.kind == Kind::Accumulate ? floats(inputs[2]) : std::vector<float>();
  return reference::matmul(shape, floats(inputs[0]), floats(inputs[1]),
                           c.precision, c.split, acc);
}

/// Checks the TPU's result against the CPU's.
void checkAgainstCpu(const Case &c, const std::string &source,
                     const std::vector<NpyArray> &inputs,
                     const std::vector<float> &got) {
  absl::StatusOr<std::vector<NpyArray>> cpu =
      runOnCpu(source, "case.mlir", inputs, {});
  if (!cpu.ok() || cpu->size() != 1)
    finding(c,
            "the CPU reference failed: " + std::string(cpu.status().message()));
  std::vector<float> want = floats((*cpu)[0]);
  if (c.kind == Kind::Elementwise) {
    for (size_t i = 0; i < got.size(); ++i)
      if (bitsOf(got[i]) != bitsOf(want[i]) &&
          !(std::isnan(got[i]) && std::isnan(want[i])))
        finding(c, "element " + std::to_string(i) + " differs from the CPU");
    return;
  }
  std::vector<float> a = floats(inputs[0]), b = floats(inputs[1]);
  std::vector<float> acc =
      c.kind == Kind::Accumulate ? floats(inputs[2]) : std::vector<float>();
  double coefficient = reference::getErrorBoundCoefficient(c.precision, c.split,
                                                           c.k, !acc.empty());
  for (int64_t batch = 0; batch < c.batch; ++batch)
    for (int64_t i = 0; i < c.m; ++i)
      for (int64_t j = 0; j < c.n; ++j) {
        double magnitude = 0;
        for (int64_t k = 0; k < c.k; ++k)
          magnitude += std::fabs(double(a[(batch * c.m + i) * c.k + k])) *
                       std::fabs(double(b[(batch * c.k + k) * c.n + j]));
        size_t index = size_t((batch * c.m + i) * c.n + j);
        if (!acc.empty())
          magnitude += std::fabs(double(acc[index]));
        double error = std::fabs(double(got[index]) - double(want[index]));
        if (got[index] != want[index] && !(error <= coefficient * magnitude))
          finding(c, "element " + std::to_string(index) +
                         " is out of the bound of the CPU's result");
      }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::ByteReader in(data, size);
  Case c = readCase(in);
  std::vector<std::vector<int64_t>> argumentShapes;
  std::vector<int64_t> resultShape;
  std::string source = writeProgram(c, argumentShapes, resultShape);

  CompileOptions options;
  options.chip = c.chip;
  options.defaultPrecision = Precision(int(c.precision));
  options.split = c.split == BF16Rounding::Truncate ? Rounding::Truncate
                                                    : Rounding::NearestEven;
  std::string diagnostics;
  std::optional<isa::Program> program =
      fuzz::compile(source, options, diagnostics);
  if (!program)
    finding(c, "the compiler refused it: " + diagnostics);

  std::mt19937_64 rng(c.seed);
  std::vector<NpyArray> inputs;
  for (const std::vector<int64_t> &shape : argumentShapes)
    inputs.push_back(randomArray(shape, c.dist, rng));

  sim::SimulatorOptions simOptions;
  simOptions.uninitialized = sim::UninitializedReads::Trap;
  absl::StatusOr<std::unique_ptr<sim::Simulator>> simulator =
      sim::Simulator::create(*program, simOptions);
  if (!simulator.ok())
    finding(c, std::string(simulator.status().message()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (absl::StatusOr<int64_t> rounded = sim::transferToDevice(
            (*simulator)->getMemory(), program->arguments[i], inputs[i],
            "input " + std::to_string(i));
        !rounded.ok())
      finding(c, std::string(rounded.status().message()));
  if (std::optional<sim::Trap> trap = (*simulator)->run())
    finding(c, trap->describe());
  absl::StatusOr<NpyArray> result =
      sim::transferToHost((*simulator)->getMemory(), program->results[0]);
  if (!result.ok())
    finding(c, std::string(result.status().message()));
  std::vector<float> got = floats(*result);

  std::vector<float> model = modelResult(c, inputs);
  for (size_t i = 0; i < got.size(); ++i)
    if (bitsOf(got[i]) != bitsOf(model[i]))
      finding(c, "element " + std::to_string(i) + " is " +
                     std::to_string(bitsOf(got[i])) + ", the model's " +
                     std::to_string(bitsOf(model[i])));

  bool finite = true;
  for (const NpyArray &input : inputs)
    for (uint32_t word : input.words)
      finite &= std::isfinite(floatOf(word));
  if (finite)
    checkAgainstCpu(c, source, inputs, got);
  // TPU_FUZZ_VERBOSE lists the cases as they pass.
  static const bool verbose = std::getenv("TPU_FUZZ_VERBOSE") != nullptr;
  if (verbose)
    std::fprintf(stderr, "ok: %s%s\n", c.describe().c_str(),
                 finite ? " (model and CPU)" : " (model)");
  return 0;
}
