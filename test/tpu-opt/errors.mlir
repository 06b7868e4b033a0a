// Every class of user error tpu-opt sees exits with 1 and a message that
// names the problem and what to do about it.
// RUN: not tpu-opt %S/Inputs/malformed.mlir --tpu-compile 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: tpu-opt %S/Inputs/malformed.mlir --tpu-compile -o /dev/null 2>/dev/null; test $? -eq 1
// PARSE: malformed.mlir:3:10: error: use of undeclared SSA value name

// RUN: not tpu-opt %S/Inputs/unsupported-op.mlir --tpu-compile 2>&1 | FileCheck %s --check-prefix=OP
// RUN: tpu-opt %S/Inputs/unsupported-op.mlir --tpu-compile -o /dev/null 2>/dev/null; test $? -eq 1
// OP: unsupported-op.mlir:4:8: error: 'linalg.conv_2d_nchw_fchw' is not supported by the TPU compiler; it takes linalg.matmul, linalg.batch_matmul and linalg.matvec (with linalg.fill inits), linalg.conv_2d_nhwc_hwcf, linalg.pooling_nhwc_max, _min and _sum, linalg.broadcast, linalg.reduce (and reduction linalg.generic) over one of the last two dimensions or leading ones, linalg.softmax, linalg.transpose, and elementwise ops

// RUN: not tpu-opt %S/Inputs/dynamic-shape.mlir --tpu-compile 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: tpu-opt %S/Inputs/dynamic-shape.mlir --tpu-compile -o /dev/null 2>/dev/null; test $? -eq 1
// SHAPE: dynamic-shape.mlir:6:8: error: cannot convert 'linalg.matmul': its lhs has the dynamic shape tensor<?x128xf32>; the TPU compiler needs static shapes

// RUN: not tpu-opt %S/Inputs/integer-matmul.mlir --tpu-compile 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: tpu-opt %S/Inputs/integer-matmul.mlir --tpu-compile -o /dev/null 2>/dev/null; test $? -eq 1
// TYPE: integer-matmul.mlir:4:8: error: cannot convert 'linalg.matmul': its lhs has element type i32; the TPU matmul takes f32 or bf16 operands and accumulates in f32

// Unknown option values list the valid ones.
// RUN: not tpu-opt %S/../../examples/matmul.mlir --tpu-compile="chip=v9" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: tpu-opt %S/../../examples/matmul.mlir --tpu-compile="chip=v9" -o /dev/null 2>/dev/null; test $? -eq 1
// CHIP: unknown chip 'v9'; expected one of v2, v3, v4
// RUN: not tpu-opt %S/../../examples/matmul.mlir --tpu-compile="default-precision=fastest" 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: unknown precision 'fastest'; expected one of default, high, highest
// RUN: not tpu-opt %S/../../examples/matmul.mlir --tpu-compile="split=round" 2>&1 | FileCheck %s --check-prefix=SPLIT
// SPLIT: unknown rounding 'round'; expected rne (round to nearest even) or trunc
// RUN: not tpu-opt %S/../../examples/matmul.mlir --tpu-compile="entry=forward" 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: error: tpu-bufferize: no func.func @forward to compile (name the entry with entry=NAME)

// A file that is not there.
// RUN: not tpu-opt %t.missing.mlir --tpu-compile 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file '{{.*}}missing.mlir': No such file or directory
