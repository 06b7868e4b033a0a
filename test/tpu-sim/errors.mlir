// Bad binaries exit with 2, bad inputs and usage with 1, each with a
// message that names the file and the fix.
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.tpu
// RUN: tpu-ref random --shape=8x128 -o %t.x.npy
// RUN: tpu-ref random --shape=8x129 -o %t.wide.npy
// RUN: printf 'garbage' > %t.garbage

// RUN: tpu-sim %t.tpu --quiet; test $? -eq 1
// RUN: not tpu-sim %t.tpu --quiet 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: tpu-sim: error: {{.*}}.tpu takes 1 argument(s) but 0 --input file(s) were given

// RUN: not tpu-sim %t.tpu --quiet --input %t.wide.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: tpu-sim: error: {{.*}}wide.npy: argument 'x' has shape (8, 128) but the file holds shape (8, 129)

// RUN: not tpu-sim %t.tpu --quiet --input %t.garbage 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: tpu-sim: error: {{.*}}garbage: not a valid .npy file: it does not start with \x93NUMPY (write it with numpy.save)

// RUN: not tpu-sim %t.tpu --quiet --input %t.missing.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tpu-sim: error: {{.*}}missing.npy: cannot open the file

// RUN: not tpu-sim %t.tpu --quiet --input %t.x.npy --output %t.1.npy --output %t.2.npy 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: tpu-sim: error: {{.*}} has 1 result(s) but 2 --output file(s) were given

// RUN: not tpu-sim 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: tpu-sim: error: expected exactly one binary, as in: tpu-sim prog.tpu --input a.npy --output c.npy (see --help)

// RUN: tpu-sim %t.garbage --quiet; test $? -eq 2
// RUN: not tpu-sim %t.garbage 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: tpu-sim: error: {{.*}}garbage: not a TPU binary: it does not start with the magic "TPU-BIN\n" (produce one with tpu-translate --export-tpu-bin)

// RUN: head -c 100 %t.tpu > %t.short
// RUN: not tpu-sim %t.short 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: tpu-sim: error: {{.*}}short: truncated or padded: the header promises {{[0-9]+}} payload bytes but the file has 72

// RUN: tpu-sim %t.tpu --quiet --chip=v3 --input %t.x.npy; test $? -eq 2
// RUN: not tpu-sim %t.tpu --chip=v3 --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: tpu-sim: error: {{.*}}.tpu was built for v4, not v3; rebuild it with chip=v3, or pass --allow-chip-mismatch to run it anyway
// RUN: tpu-sim %t.tpu --quiet --chip=v3 --allow-chip-mismatch --input %t.x.npy --output %t.y.npy
// RUN: not tpu-sim %t.tpu --chip=v9 2>&1 | FileCheck %s --check-prefix=NOCHIP
// NOCHIP: tpu-sim: error: --chip=v9 is not a chip; use v2, v3, v4

// The .npy classes: element type, byte order, memory order, each with the
// fix; checked from the header, before the data is read.
// RUN: python3 %S/Inputs/write-npy.py %t.f64.npy '<f8' False 8 128
// RUN: not tpu-sim %t.tpu --quiet --input %t.f64.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: tpu-sim %t.tpu --quiet --input %t.f64.npy; test $? -eq 1
// DTYPE: tpu-sim: error: {{.*}}f64.npy: dtype '<f8' is not supported; inputs must be float32 ('<f4') or int32 ('<i4'): convert with a.astype(numpy.float32)
// RUN: python3 %S/Inputs/write-npy.py %t.big.npy '>f4' False 8 128
// RUN: not tpu-sim %t.tpu --quiet --input %t.big.npy 2>&1 | FileCheck %s --check-prefix=ENDIAN
// ENDIAN: tpu-sim: error: {{.*}}big.npy: dtype '>f4' is not supported; inputs must be float32 ('<f4') or int32 ('<i4'): convert with a.astype(numpy.float32)
// RUN: python3 %S/Inputs/write-npy.py %t.fortran.npy '<f4' True 8 128
// RUN: not tpu-sim %t.tpu --quiet --input %t.fortran.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// FORTRAN: tpu-sim: error: {{.*}}fortran.npy: the array is in Fortran order; save a C-ordered copy (numpy.ascontiguousarray)
// RUN: python3 %S/Inputs/write-npy.py %t.int.npy '<i4' False 8 128
// RUN: not tpu-sim %t.tpu --quiet --input %t.int.npy 2>&1 | FileCheck %s --check-prefix=INT
// INT: tpu-sim: error: {{.*}}int.npy: argument 'x' is f32 but the file holds i32; convert it with a.astype(numpy.float32)

// Too many inputs, and flags: an unknown one, a bad value.
// RUN: not tpu-sim %t.tpu --quiet --input %t.x.npy --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: tpu-sim: error: {{.*}}.tpu takes 1 argument(s) but 2 --input file(s) were given
// RUN: not tpu-sim %t.tpu --quiet --input %t.x.npy --max-cylces=5 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: tpu-sim %t.tpu --quiet --input %t.x.npy --max-cylces=5; test $? -eq 1
// FLAG: tpu-sim: error: unknown flag --max-cylces; --help lists the flags
// RUN: not tpu-sim %t.tpu --quiet --input 2>&1 | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: tpu-sim: error: --input needs a value, as in --input FILE

