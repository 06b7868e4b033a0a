// The examples the README's main job uses stay valid and round-trip.
// RUN: tpu-opt %tpu_src_root/examples/matmul.mlir | tpu-opt | FileCheck %s
// CHECK: module attributes {tpu.chip = #tpu.chip<v4>}
// CHECK: func.func @main(
// CHECK: linalg.matmul
// CHECK: func.func @main_tpu(
// CHECK: tpu.matmul {{.*}} {precision = #tpu.precision<highest>}
