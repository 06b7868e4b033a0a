//===- Assembly.h - Readable listing of a TPU program -----------*- C++ -*-===//

#ifndef TPU_ISA_ASSEMBLY_H
#define TPU_ISA_ASSEMBLY_H

#include "tpu/ISA/Program.h"

#include <string>

namespace tpu::isa {

/// The program as an assembly listing: a header with the chip and the entry
/// signature, then one line per bundle, `bN:` and its instructions separated
/// by ` ; `, each in the syntax of formatInstruction.
std::string printAssembly(const Program &program);

/// `f32[7, 300] @hbm 12` for a tensor.
std::string formatTensor(const TensorSignature &tensor);

} // namespace tpu::isa

#endif // TPU_ISA_ASSEMBLY_H
