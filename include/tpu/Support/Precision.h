//===- Precision.h - The names of an f32 matmul's precision -----*- C++ -*-===//
//
// How a user names a precision, shared by everything that reads one: the
// tpu dialect's attribute and pass options (whose ODS enum tpu::Precision
// has the same values) and tpu-ref, which must take exactly the names the
// compiler takes. Standard library only.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SUPPORT_PRECISION_H
#define TPU_SUPPORT_PRECISION_H

#include <optional>
#include <string_view>

namespace tpu {

/// An f32 matmul's MXU precision, as JAX's lax.Precision: DEFAULT is one
/// bf16 pass, HIGH three, HIGHEST six (docs/Numerics.md).
enum class MatmulPrecision { Default = 0, High = 1, Highest = 2 };

/// `default`, `high`, `highest`, or one of JAX's aliases and preset names
/// (`bfloat16`, `bfloat16_3x`, `tensorfloat32`, `float32`, `BF16_BF16_F32`,
/// `BF16_BF16_F32_X3`, `BF16_BF16_F32_X6`), case-insensitively.
std::optional<MatmulPrecision> parseMatmulPrecision(std::string_view name);

/// Every accepted spelling, for error messages.
const char *getMatmulPrecisionSpellings();

/// The canonical name: default, high or highest.
const char *getMatmulPrecisionName(MatmulPrecision precision);

} // namespace tpu

#endif // TPU_SUPPORT_PRECISION_H
