//===- Runtime.h - Host <-> device transfers --------------------*- C++ -*-===//
//
// What a real runtime does around a launch: check each input against the
// entry signature, lay it out in HBM in the device's tiled, padded layout
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
/// HBM. `source` names the input in error messages.
absl::Status transferToDevice(Memory &memory,
                              const isa::TensorSignature &argument,
                              const NpyArray &array, const std::string &source);

/// Reads `result` back from HBM, without its padding.
absl::StatusOr<NpyArray> transferToHost(const Memory &memory,
                                        const isa::TensorSignature &result);

} // namespace tpu::sim

#endif // TPU_SIM_RUNTIME_H
