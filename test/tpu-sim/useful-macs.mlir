// The useful-MAC counts are the binary's claims; tpu-sim checks them against
// what ran and withholds the figures they would make up.

// A hand-edited claim: 699944 useful MACs from a program that issues none.
// RUN: sed "s/^ *arguments = /useful_macs = 699944 : i64, arguments = /" %S/../Target/Inputs/double.mlir > %t.edited.mlir
// RUN: tpu-translate --export-tpu-bin %t.edited.mlir -o %t.edited.tpu
// RUN: tpu-ref random --shape=8x128 --seed=7 -o %t.x.npy
// RUN: tpu-sim %t.edited.tpu --input %t.x.npy --stats %t.edited.json 2> %t.edited.err
// RUN: FileCheck %s --check-prefix=WARN < %t.edited.err
// RUN: FileCheck %s --check-prefix=NULL < %t.edited.json
// WARN: MXU utilization{{ +}}withheld %
// WARN: tpu-sim: warning: the binary claims 699944 useful MXU MACs but the run issued 0; utilization and padding efficiency are withheld
// NULL: "mxu_utilization": null,
// NULL: "mxu_utilization_f32": null,
// NULL: "padding_efficiency": null,

// A compiled HIGHEST matmul: six passes per f32 MAC, so the f32-equivalent
// utilization is a sixth of the pass-level one (7 x 300 x 129 = 270900).
// RUN: tpu-opt %S/../../examples/matmul.mlir --tpu-compile="chip=v4 default-precision=highest" | tpu-translate --export-tpu-bin -o %t.mm.tpu
// RUN: tpu-ref random --shape=7x300 --seed=1 -o %t.a.npy
// RUN: tpu-ref random --shape=300x129 --seed=2 -o %t.b.npy
// RUN: tpu-sim %t.mm.tpu --quiet --input %t.a.npy --input %t.b.npy --stats %t.mm.json 2> %t.mm.err
// RUN: FileCheck %s --check-prefix=HIGHEST < %t.mm.json
// RUN: count 0 < %t.mm.err
// 1625400 / (3466 cycles x 4 MXUs x 16384) and 270900 / the same.
// HIGHEST: "cycles": 3466,
// HIGHEST: "mxu_macs_useful": 1625400,
// HIGHEST: "mxu_f32_macs_useful": 270900,
// HIGHEST: "mxu_utilization": 0.0071556941,
// HIGHEST: "mxu_utilization_f32": 0.00119261568,
