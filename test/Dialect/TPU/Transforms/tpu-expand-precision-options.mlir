// Bad pass options are errors that name the value and the choices.
// RUN: not tpu-opt %s --tpu-expand-precision=split=round 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not tpu-opt %s --tpu-expand-precision=default-precision=double 2>&1 | FileCheck %s --check-prefix=PRECISION

// SPLIT: for the --split option: unknown rounding 'round'; expected rne (round to nearest even) or trunc
// PRECISION: for the --default-precision option: unknown precision 'double'; expected one of default, high, highest
module {}
