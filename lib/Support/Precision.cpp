//===- Precision.cpp - The names of an f32 matmul's precision -------------===//

#include "tpu/Support/Precision.h"

#include <cctype>
#include <string>

namespace tpu {

namespace {

struct PrecisionName {
  const char *name;
  MatmulPrecision precision;
};

constexpr PrecisionName kNames[] = {
    {"default", MatmulPrecision::Default},
    {"bfloat16", MatmulPrecision::Default},
    {"bf16_bf16_f32", MatmulPrecision::Default},
    {"high", MatmulPrecision::High},
    {"bfloat16_3x", MatmulPrecision::High},
    {"tensorfloat32", MatmulPrecision::High},
    {"bf16_bf16_f32_x3", MatmulPrecision::High},
    {"highest", MatmulPrecision::Highest},
    {"float32", MatmulPrecision::Highest},
    {"bf16_bf16_f32_x6", MatmulPrecision::Highest},
};

} // namespace

std::optional<MatmulPrecision> parseMatmulPrecision(std::string_view name) {
  std::string lower(name);
  for (char &c : lower)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  for (const PrecisionName &entry : kNames)
    if (lower == entry.name)
      return entry.precision;
  return std::nullopt;
}

const char *getMatmulPrecisionSpellings() {
  return "default, high, highest (or JAX's bfloat16, bfloat16_3x, "
         "tensorfloat32, float32, BF16_BF16_F32, BF16_BF16_F32_X3, "
         "BF16_BF16_F32_X6)";
}

const char *getMatmulPrecisionName(MatmulPrecision precision) {
  switch (precision) {
  case MatmulPrecision::Default:
    return "default";
  case MatmulPrecision::High:
    return "high";
  case MatmulPrecision::Highest:
    return "highest";
  }
  return "?";
}

} // namespace tpu
