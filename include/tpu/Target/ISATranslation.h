//===- ISATranslation.h - tpu_isa MLIR <-> Program --------------*- C++ -*-===//
//
// The bridge between the ISA-level MLIR and the in-memory Program that the
// binary format, the listing and the simulator share; and the tpu-translate
// registrations built on it: --export-tpu-bin, --export-tpu-asm and
// --import-tpu-bin.
//
//===----------------------------------------------------------------------===//

#ifndef TPU_TARGET_ISATRANSLATION_H
#define TPU_TARGET_ISATRANSLATION_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "tpu/ISA/Program.h"

namespace tpu {

/// The module's single tpu_isa.program as a Program; diagnoses what does not
/// fit (no program, several, a program the chip cannot run).
llvm::FailureOr<isa::Program> exportProgram(mlir::ModuleOp module);

/// A module holding `program` as tpu_isa IR, with `tpu.chip` set.
mlir::OwningOpRef<mlir::ModuleOp> importProgram(const isa::Program &program,
                                                mlir::MLIRContext *context);

/// Registers the three translations with mlir-translate's registry.
void registerISATranslations();

} // namespace tpu

#endif // TPU_TARGET_ISATRANSLATION_H
