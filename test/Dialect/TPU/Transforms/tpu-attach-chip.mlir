// RUN: tpu-opt %s --tpu-attach-chip=chip=v3 --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=V3
// RUN: tpu-opt %s --tpu-attach-chip --split-input-file | FileCheck %s --check-prefix=KEEP
// RUN: not tpu-opt %s --tpu-attach-chip=chip=v9 2>&1 | FileCheck %s --check-prefix=BAD

// The option sets the chip; without it, the default.
// V3: module attributes {tpu.chip = #tpu.chip<v3>}
// KEEP: module attributes {tpu.chip = #tpu.chip<v4>}
module {
}

// -----

// A module may declare its chip; the option must agree with it.
// KEEP: module attributes {tpu.chip = #tpu.chip<v2>}
// expected-error @+1 {{tpu-attach-chip: the module is for v2 (tpu.chip) but chip=v3 was asked for; drop one of them}}
module attributes {tpu.chip = #tpu.chip<v2>} {
}

// BAD: for the --chip option: unknown chip 'v9'; expected one of v2, v3, v4
