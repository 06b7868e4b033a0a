// What tpu-translate says about input it cannot translate.
// RUN: not tpu-translate --export-tpu-bin %s -split-input-file 2>&1 | FileCheck %s --check-prefix=EXPORT
// RUN: printf 'garbage bytes' > %t.bad
// RUN: not tpu-translate --import-tpu-bin %t.bad 2>&1 | FileCheck %s --check-prefix=MAGIC
// RUN: tpu-translate --export-tpu-bin %S/Inputs/double.mlir -o %t.tpu
// RUN: head -c 40 %t.tpu > %t.short
// RUN: not tpu-translate --import-tpu-bin %t.short 2>&1 | FileCheck %s --check-prefix=TRUNCATED

// EXPORT: error: expected exactly one tpu_isa.program in the module, found 0 (lower the input with tpu-opt --tpu-compile first)
func.func @f() {
  return
}

// -----

// EXPORT: error: expected exactly one tpu_isa.program in the module, found 2
tpu_isa.program @a attributes {arguments = [], results = []} {
  bundle {
    inst halt
  }
}
tpu_isa.program @b attributes {arguments = [], results = []} {
  bundle {
    inst halt
  }
}

// -----

// EXPORT: error: 'tpu_isa.program' op argument 'x' ends at HBM tile 8388609, past the chip's 8388608 tiles
tpu_isa.program @main attributes {
    arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 8388608>],
    results = []} {
  bundle {
    inst halt
  }
}

// MAGIC: error: not a TPU binary: it does not start with the magic "TPU-BIN\n" (produce one with tpu-translate --export-tpu-bin)
// TRUNCATED: error: truncated or padded: the header promises
