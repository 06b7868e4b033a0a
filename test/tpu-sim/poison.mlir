// --poison-uninitialized: reads of HBM, VMEM or vector registers nothing
// wrote trap (with the address), or read NaNs in the nan mode. The program
// stores VMEM rows 8..15, which nothing loaded.
// RUN: tpu-translate --export-tpu-bin %S/Inputs/uninitialized.mlir -o %t.tpu
// RUN: tpu-ref random --shape=8x128 --seed=3 -o %t.x.npy
// RUN: not tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.y.npy --poison-uninitialized 2>&1 | FileCheck %s --check-prefix=TRAP
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.y.npy --poison-uninitialized; test $? -eq 3
// TRAP: tpu-sim: error: trap at cycle 110, pc b3 (dma.st 1, s1, s2, s1, s1): uninitialized read: dma.st: VMEM row 8 is read before anything wrote it

// Without the check the rows read as zeros; with nan, as the poison NaN
// 0xFFC0DEAD.
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.zero.npy
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.nan.npy --poison-uninitialized=nan
// RUN: tpu-ref random --shape=8x128 --dist=constant --value=0 -o %t.zeros.npy
// RUN: tpu-ref compare %t.zero.npy %t.zeros.npy | FileCheck %s --check-prefix=SAME
// RUN: not tpu-ref compare %t.nan.npy %t.zeros.npy | FileCheck %s --check-prefix=POISON
// SAME: OK: 1024 elements bit-exact
// POISON: mismatch at flat index 0: got -nan (0xffc0dead), want 0 (0x00000000)

// A result the program never stores is an uninitialized read too, when the
// runtime reads it back (exit code 3); one it stores is fine.
// RUN: tpu-translate --export-tpu-bin %S/Inputs/no-store.mlir -o %t.nostore.tpu
// RUN: not tpu-sim %t.nostore.tpu --quiet --input %t.x.npy --output %t.n.npy --poison-uninitialized 2>&1 | FileCheck %s --check-prefix=NOSTORE
// RUN: tpu-sim %t.nostore.tpu --quiet --input %t.x.npy --output %t.n.npy --poison-uninitialized; test $? -eq 3
// NOSTORE: tpu-sim: error: result 'y' was never written in full: HBM tile 1 is read before anything wrote it
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.double.tpu
// RUN: tpu-sim %t.double.tpu --quiet --input %t.x.npy --output %t.d.npy --poison-uninitialized
// RUN: not tpu-sim %t.double.tpu --quiet --input %t.x.npy --output %t.d.npy --poison-uninitialized=maybe 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: tpu-sim: error: --poison-uninitialized=maybe is not a mode; use zero, trap or nan
