//===- Runtime.h - Host <-> device transfers --------------------*- C++ -*-===//
//
// What a real runtime does around a launch: check each input against the
// entry signature (bf16 arguments and results travel as f32 .npy), lay it
// out in HBM in the device's tiled, padded layout
// (tpu/Support/TiledLayout.h; padding is zero), and after the run gather
// each result back into an unpadded array.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_SIM_RUNTIME_H
#define TPU_SIM_RUNTIME_H

#include "tpu/Npy/Npy.h"
#include "tpu/Sim/Memory.h"

#include "absl/status/status.h"

namespace tpu::sim {

/// Checks an input's element type and shape against `argument`; `source`
/// names the input in error messages. tpu-sim calls it on a file's header,
/// before reading the data.
absl::Status checkArgument(const isa::TensorSignature &argument,
                           isa::ElementType elementType,
                           const std::vector<int64_t> &shape,
                           const std::string &source);

/// Checks `array` against `argument` (checkArgument) and copies it into
/// HBM. `source` names the input in error messages. A bf16 argument takes
/// an f32 array, each value rounded to bf16 (to nearest even, as the
/// machine converts); the count of values that were not bf16-exact is
/// returned (0 for other types).
absl::StatusOr<int64_t> transferToDevice(Memory &memory,
                                         const isa::TensorSignature &argument,
                                         const NpyArray &array,
                                         const std::string &source);

/// Reads `result` back from HBM, without its padding; a bf16 result comes
/// back as f32 (the same values).
absl::StatusOr<NpyArray> transferToHost(const Memory &memory,
                                        const isa::TensorSignature &result);

} // namespace tpu::sim

#endif // TPU_SIM_RUNTIME_H
