// The attributes round-trip; precision aliases print canonically.
// RUN: tpu-opt %s | tpu-opt | FileCheck %s

// CHECK: module attributes {tpu.chip = #tpu.chip<v3>}
module attributes {tpu.chip = #tpu.chip<v3>} {

// CHECK-LABEL: func @precision_names
// CHECK-SAME: p0 = #tpu.precision<default>
// CHECK-SAME: p1 = #tpu.precision<default>
// CHECK-SAME: p2 = #tpu.precision<default>
// CHECK-SAME: p3 = #tpu.precision<high>
// CHECK-SAME: p4 = #tpu.precision<high>
// CHECK-SAME: p5 = #tpu.precision<high>
// CHECK-SAME: p6 = #tpu.precision<high>
// CHECK-SAME: p7 = #tpu.precision<highest>
// CHECK-SAME: p8 = #tpu.precision<highest>
// CHECK-SAME: p9 = #tpu.precision<highest>
// CHECK-SAME: pa = #tpu.precision<highest>
func.func @precision_names() attributes {
  p0 = #tpu.precision<DEFAULT>,
  p1 = #tpu.precision<bfloat16>,
  p2 = #tpu.precision<BF16_BF16_F32>,
  p3 = #tpu.precision<HIGH>,
  p4 = #tpu.precision<bfloat16_3x>,
  p5 = #tpu.precision<tensorfloat32>,
  p6 = #tpu.precision<BF16_BF16_F32_X3>,
  p7 = #tpu.precision<highest>,
  p8 = #tpu.precision<float32>,
  p9 = #tpu.precision<BF16_BF16_F32_X6>,
  pa = #tpu.precision<"HIGHEST">
} {
  return
}

// CHECK-LABEL: func @chips
// CHECK-SAME: c2 = #tpu.chip<v2>, c3 = #tpu.chip<v3>, c4 = #tpu.chip<v4>
func.func @chips() attributes {c2 = #tpu.chip<v2>, c3 = #tpu.chip<v3>, c4 = #tpu.chip<v4>} {
  return
}

// CHECK-LABEL: func @memory_spaces
// CHECK-SAME: memref<8x128xf32, #tpu.memory_space<hbm>>
// CHECK-SAME: memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK-SAME: memref<16xi32, #tpu.memory_space<smem>>
func.func @memory_spaces(%h: memref<8x128xf32, #tpu.memory_space<hbm>>,
                         %v: memref<8x128xf32, #tpu.memory_space<vmem>>,
                         %s: memref<16xi32, #tpu.memory_space<smem>>) {
  return
}

// CHECK-LABEL: func @tiled_layouts
// CHECK-SAME: tensor<16x256xf32, #tpu.tiled<8x128>>
// CHECK-SAME: tensor<2x32x128xbf16, #tpu.tiled<16x128>>
// CHECK-SAME: tensor<7x300xf32, #tpu.tiled<8x128>>
func.func @tiled_layouts(%a: tensor<16x256xf32, #tpu.tiled<8x128>>,
                         %b: tensor<2x32x128xbf16, #tpu.tiled<16x128>>,
                         %c: tensor<7x300xf32, #tpu.tiled<8x128>>) {
  return
}

}
