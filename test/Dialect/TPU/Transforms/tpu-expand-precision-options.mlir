// Bad pass options are errors that name the value and the choices.
// RUN: not tpu-opt %s --tpu-expand-precision=split=round 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not tpu-opt %s --tpu-expand-precision=default-precision=double 2>&1 | FileCheck %s --check-prefix=PRECISION

// SPLIT: error: tpu-expand-precision: unknown split rounding 'round'; expected rne (round to nearest even) or trunc
// PRECISION: error: tpu-expand-precision: unknown default-precision 'double'; expected one of
module {}
