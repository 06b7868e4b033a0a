// The examples stay valid, round-trip, and compile; the README's main job
// (scripts/demo.sh) runs examples/matmul.mlir end to end.
// RUN: tpu-opt %tpu_src_root/examples/matmul.mlir | tpu-opt | FileCheck %s
// RUN: tpu-opt %tpu_src_root/examples/matmul-tpu.mlir | tpu-opt | FileCheck %s --check-prefix=TPU
// RUN: tpu-opt %tpu_src_root/examples/matmul.mlir --tpu-compile="default-precision=highest" | FileCheck %s --check-prefix=COMPILED
// RUN: tpu-opt %tpu_src_root/examples/matmul-tpu.mlir --tpu-compile | FileCheck %s --check-prefix=COMPILED
// RUN: tpu-opt %tpu_src_root/examples/matmul-high.mlir --tpu-compile=chip=v3 | FileCheck %s --check-prefix=HIGH
// CHECK: module attributes {tpu.chip = #tpu.chip<v4>}
// CHECK: func.func @main(
// CHECK: linalg.matmul
// TPU: tpu.matmul {{.*}} {precision = #tpu.precision<highest>}
// COMPILED: tpu_isa.program @main {{.*}} useful_macs = 1625400
// HIGH: tpu_isa.program @main {{.*}} useful_macs = 541800
