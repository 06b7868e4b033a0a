// The fuzz targets, driven by their standalone drivers from real seeds:
// binaries of the hand-written programs (raw, mode 0, and as payloads,
// mode 1, which reach the simulator), .npy files, and instruction text.
// A crash or a broken round-trip property aborts the run.
// RUN: tpu-translate --export-tpu-bin %tpu_src_root/examples/isa/matmul-highest.mlir -o %t.h.tpu
// RUN: tpu-translate --export-tpu-bin %S/../Target/Inputs/double.mlir -o %t.d.tpu
// RUN: printf '\000' | cat - %t.h.tpu > %t.seed0
// RUN: printf '\002' > %t.seed1 && tail -c +29 %t.h.tpu >> %t.seed1
// RUN: printf '\003' > %t.seed2 && tail -c +29 %t.d.tpu >> %t.seed2
// RUN: tpu-fuzz-binary-standalone -runs=20000 -seed=1 %t.seed0 %t.seed1 %t.seed2 | FileCheck %s
// RUN: tpu-ref random --shape=3x5 -o %t.npy
// RUN: tpu-fuzz-npy-standalone -runs=20000 -seed=2 %t.npy | FileCheck %s
// RUN: printf 'v.ld v2, s4, -16, s5, 0xff' > %t.asm1
// RUN: printf 'br.lt s1, s2, b12' > %t.asm2
// RUN: printf 'mxu.push 3, v31, s0, 1' > %t.asm3
// RUN: tpu-fuzz-asm-standalone -runs=20000 -seed=3 %t.asm1 %t.asm2 %t.asm3 | FileCheck %s
// CHECK: mutated inputs and {{[0-9]+}} seeds ran without a crash
