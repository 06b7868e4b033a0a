// Round trip in the custom form, and through the generic form back again.
// RUN: tpu-opt %s | tpu-opt | FileCheck %s
// RUN: tpu-opt %s --mlir-print-op-generic | tpu-opt | FileCheck %s
// RUN: tpu-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: #tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
// CHECK: #tiled1 = affine_map<(d0) -> (0, d0 floordiv 128, 0, d0 mod 128)>

// CHECK-LABEL: func @matmul_2d
// CHECK: tpu.matmul %{{.*}}, %{{.*}} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
// GENERIC-LABEL: sym_name = "matmul_2d"
// GENERIC: "tpu.matmul"(%{{.*}}, %{{.*}}) : (tensor<7x300xf32>, tensor<300x129xf32>) -> tensor<7x129xf32>
func.func @matmul_2d(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %0 = tpu.matmul %a, %b : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
  return %0 : tensor<7x129xf32>
}

// CHECK-LABEL: func @matmul_acc_precision
// CHECK: tpu.matmul %{{.*}}, %{{.*}} acc %{{.*}} {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x256xbf16>, tensor<8x256xf32> -> tensor<8x256xf32>
// GENERIC-LABEL: sym_name = "matmul_acc_precision"
// GENERIC: "tpu.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) <{precision = #tpu.precision<highest>}>
func.func @matmul_acc_precision(%a: tensor<8x128xf32>, %b: tensor<128x256xbf16>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %0 = tpu.matmul %a, %b acc %c {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x256xbf16>, tensor<8x256xf32> -> tensor<8x256xf32>
  return %0 : tensor<8x256xf32>
}

// CHECK-LABEL: func @matmul_batched_bf16
// CHECK: tpu.matmul %{{.*}}, %{{.*}} {precision = #tpu.precision<default>} : tensor<2x3x1x16xbf16>, tensor<2x3x16x1xbf16> -> tensor<2x3x1x1xf32>
func.func @matmul_batched_bf16(%a: tensor<2x3x1x16xbf16>, %b: tensor<2x3x16x1xbf16>) -> tensor<2x3x1x1xf32> {
  %0 = tpu.matmul %a, %b {precision = #tpu.precision<default>} : tensor<2x3x1x16xbf16>, tensor<2x3x16x1xbf16> -> tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// CHECK-LABEL: func @matmul_unit
// CHECK: tpu.matmul %{{.*}}, %{{.*}} {precision = #tpu.precision<high>} : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
func.func @matmul_unit(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %0 = tpu.matmul %a, %b {precision = #tpu.precision<high>} : tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// The expanded and loop-level ops print as they parse.
// CHECK-LABEL: func @expanded
// CHECK: %[[P:.*]]:2 = tpu.split %arg0 {rounding = #tpu.rounding<trunc>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
// CHECK: tpu.matmul_passes lhs(%[[P]]#1, %[[P]]#0) rhs(%arg1, %arg1) acc(%arg2) {nan_fixed_terms = 1 : i64}
func.func @expanded(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %c: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %hi, %lo = tpu.split %a {rounding = #tpu.rounding<trunc>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
  %r = tpu.matmul_passes lhs(%lo, %hi) rhs(%b, %b) acc(%c) {nan_fixed_terms = 1 : i64} : (tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// The kernel ops' new tensor forms, and every kernel op's buffer form.
// CHECK-LABEL: func @kernels
// CHECK: %[[P:.*]] = tpu.resize %arg0 : tensor<7x100xf32> -> tensor<8x128xf32>
// CHECK: %[[C:.*]] = tpu.reshape %arg1 : tensor<300xf32> -> tensor<300x1xf32>
// CHECK: %[[T:.*]] = tpu.split %[[P]] {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xbf16>
// CHECK: %[[Q:.*]] = tpu.elementwise ins(%[[P]], %[[P]] : tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK-NEXT: tpu.yield %[[D]] : f32
// CHECK-NEXT: }
func.func @kernels(%a: tensor<7x100xf32>, %v: tensor<300xf32>) -> (tensor<8x128xf32>, tensor<300x1xf32>, tensor<8x128xbf16>) {
  %p = tpu.resize %a : tensor<7x100xf32> -> tensor<8x128xf32>
  %c = tpu.reshape %v : tensor<300xf32> -> tensor<300x1xf32>
  %t = tpu.split %p {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xbf16>
  %q = tpu.elementwise ins(%p, %p : tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: f32):
    %d = arith.divf %x, %y : f32
    tpu.yield %d : f32
  }
  return %q, %c, %t : tensor<8x128xf32>, tensor<300x1xf32>, tensor<8x128xbf16>
}

// HBM buffers are tiled: the layout map says so (and prints as #tiled, or
// #packed for bf16, two rows to a word).
// CHECK-LABEL: func @buffer_forms
// CHECK: tpu.resize %arg0 outs(%arg1) : memref<7x100xf32, #tiled, #tpu.memory_space<hbm>> outs memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.split %arg1 outs(%arg2, %arg2) {rounding = #tpu.rounding<trunc>} : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>> outs memref<16x128xbf16, #packed, #tpu.memory_space<hbm>>, memref<16x128xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: tpu.matmul_passes lhs(%arg1) rhs(%arg3) outs(%arg4) {nan_fixed_terms = 0 : i64} : (memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<128x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>) -> ()
// CHECK: tpu.elementwise ins(%arg1 : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>) outs(%arg4 : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>) {
// CHECK: tpu.reshape %arg5 outs(%arg6) : memref<300xf32, #tiled1, #tpu.memory_space<hbm>> outs memref<300x1xf32, #tiled, #tpu.memory_space<hbm>>
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#tiled1 = affine_map<(d0) -> (0, d0 floordiv 128, 0, d0 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
#hbm = #tpu.memory_space<hbm>
func.func @buffer_forms(%a: memref<7x100xf32, #tiled, #hbm>, %b: memref<16x128xf32, #tiled, #hbm>, %h: memref<16x128xbf16, #packed, #hbm>, %w: memref<128x128xf32, #tiled, #hbm>, %o: memref<16x128xf32, #tiled, #hbm>, %v: memref<300xf32, #tiled1, #hbm>, %col: memref<300x1xf32, #tiled, #hbm>) {
  tpu.resize %a outs(%b) : memref<7x100xf32, #tiled, #hbm> outs memref<16x128xf32, #tiled, #hbm>
  tpu.split %b outs(%h, %h) {rounding = #tpu.rounding<trunc>} : memref<16x128xf32, #tiled, #hbm> outs memref<16x128xbf16, #packed, #hbm>, memref<16x128xbf16, #packed, #hbm>
  tpu.matmul_passes lhs(%b) rhs(%w) outs(%o) {nan_fixed_terms = 0 : i64} : (memref<16x128xf32, #tiled, #hbm>, memref<128x128xf32, #tiled, #hbm>, memref<16x128xf32, #tiled, #hbm>) -> ()
  tpu.elementwise ins(%b : memref<16x128xf32, #tiled, #hbm>) outs(%o : memref<16x128xf32, #tiled, #hbm>) {
  ^bb0(%x: f32):
    %s = arith.addf %x, %x : f32
    tpu.yield %s : f32
  }
  tpu.reshape %v outs(%col) : memref<300xf32, #tiled1, #hbm> outs memref<300x1xf32, #tiled, #hbm>
  return
}

// CHECK-LABEL: func @loop_level
// CHECK: tpu.dma_load %arg0[%[[I:.*]], stride %[[I]]] to %arg1[%[[I]]] tiles %[[I]] sem 2
// CHECK: tpu.dma_wait sem 2 count 1
// CHECK: tpu.mxu_load_weights %arg1[%[[I]], stride %[[I]]] mxu 3
// CHECK: tpu.mxu_latch mxu 3
// CHECK: %[[V:.*]] = tpu.vector_load %arg1[%[[I]]]
// CHECK: %[[R:.*]] = tpu.round_to_bf16 %[[V]] {rounding = #tpu.rounding<rne>}
// CHECK: tpu.mxu_push %[[R]] to mxu 1 slot %[[I]] accumulate
// CHECK: %[[P:.*]] = tpu.mxu_pop mxu 1 slot %[[I]]
// CHECK: tpu.vector_store %[[P]], %arg1[%[[I]]]
// CHECK: tpu.dma_store %arg1[%[[I]]] to %arg0[%[[I]], stride %[[I]]] tiles %[[I]] sem 1
// CHECK: tpu.tiled_view %arg0 : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> to memref<7x100xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.transpose_block %arg1[%[[I]]] to %arg1[%[[I]]]
// CHECK: tpu.vector_load %arg1[%[[I]]] {sublane_stride = 0 : i64}
// CHECK: tpu.vector_store %[[P]], %arg1[%[[I]]] {sublane_mask = 7 : i64}
// CHECK: tpu.mxu_load_weights %arg1[%[[I]], stride %[[I]]] mxu 0 packed
// CHECK: %[[PK:.*]] = tpu.pack_bf16 %[[R]], %[[P]] : vector<8x128xf32>
// CHECK: tpu.unpack_bf16 %[[PK]] : vector<8x128xf32>
// CHECK: tpu.unpack_bf16 %[[PK]] high : vector<8x128xf32>
func.func @loop_level(%hbm: memref<8x128xf32, #tiled, #hbm>, %vmem: memref<16x128xf32, #tpu.memory_space<vmem>>, %i: index) {
  tpu.dma_load %hbm[%i, stride %i] to %vmem[%i] tiles %i sem 2 : memref<8x128xf32, #tiled, #hbm>, memref<16x128xf32, #tpu.memory_space<vmem>>
  tpu.dma_wait sem 2 count 1
  tpu.mxu_load_weights %vmem[%i, stride %i] mxu 3 : memref<16x128xf32, #tpu.memory_space<vmem>>
  tpu.mxu_latch mxu 3
  %v = tpu.vector_load %vmem[%i] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %r = tpu.round_to_bf16 %v {rounding = #tpu.rounding<rne>} : vector<8x128xf32>
  tpu.mxu_push %r to mxu 1 slot %i accumulate : vector<8x128xf32>
  %p = tpu.mxu_pop mxu 1 slot %i : vector<8x128xf32>
  tpu.vector_store %p, %vmem[%i] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  tpu.dma_store %vmem[%i] to %hbm[%i, stride %i] tiles %i sem 1 : memref<16x128xf32, #tpu.memory_space<vmem>>, memref<8x128xf32, #tiled, #hbm>
  %w = tpu.tiled_view %hbm : memref<8x128xf32, #tiled, #hbm> to memref<7x100xf32, #tiled, #hbm>
  tpu.transpose_block %vmem[%i] to %vmem[%i] : memref<16x128xf32, #tpu.memory_space<vmem>>, memref<16x128xf32, #tpu.memory_space<vmem>>
  %row = tpu.vector_load %vmem[%i] {sublane_stride = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  tpu.vector_store %p, %vmem[%i] {sublane_mask = 7 : i64} : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  tpu.mxu_load_weights %vmem[%i, stride %i] mxu 0 packed : memref<16x128xf32, #tpu.memory_space<vmem>>
  %packed = tpu.pack_bf16 %r, %p : vector<8x128xf32>
  %low = tpu.unpack_bf16 %packed : vector<8x128xf32>
  %high = tpu.unpack_bf16 %packed high : vector<8x128xf32>
  return
}

// Row reductions to a column and a column across the rows.
// CHECK-LABEL: func @reduce
// CHECK: %[[M:.*]] = tpu.reduce %arg0 kind = <max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<7x1xf32>
// CHECK: tpu.reduce %arg0 kind = <sum> init = 2.500000e+00 : tensor<7x300xf32> -> tensor<7x1xf32>
// CHECK: tpu.broadcast_lanes %[[M]] : tensor<7x1xf32> -> tensor<7x300xf32>
// CHECK: tpu.transpose %arg0 : tensor<7x300xf32> -> tensor<300x7xf32>
// CHECK: tpu.reduce_columns %arg0 kind = <max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<1x300xf32>
// CHECK: tpu.reduce_matrices %arg1 dimensions = [0, 2] kind = <minnum> init = 1.500000e+00 : tensor<2x3x4x7x300xf32> -> tensor<3x7x300xf32>
func.func @reduce(%x: tensor<7x300xf32>, %y: tensor<2x3x4x7x300xf32>) -> (tensor<7x1xf32>, tensor<7x300xf32>) {
  %m = tpu.reduce %x kind = #tpu.reduction<max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<7x1xf32>
  %s = tpu.reduce %x kind = #tpu.reduction<sum> init = 2.5 : tensor<7x300xf32> -> tensor<7x1xf32>
  %w = tpu.broadcast_lanes %m : tensor<7x1xf32> -> tensor<7x300xf32>
  %t = tpu.transpose %x : tensor<7x300xf32> -> tensor<300x7xf32>
  %c = tpu.reduce_columns %x kind = <max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<1x300xf32>
  %r = tpu.reduce_matrices %y dimensions = [0, 2] kind = <minnum> init = 1.5 : tensor<2x3x4x7x300xf32> -> tensor<3x7x300xf32>
  return %s, %w : tensor<7x1xf32>, tensor<7x300xf32>
}

// Image windows, both layouts, and a matmul by a shared rhs.
// CHECK-LABEL: func @windows
// CHECK: %[[T:.*]] = tpu.windows %arg0 {dilations = array<i64: 1, 2>, pad_value = 0xFF800000 : f32, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>, window = array<i64: 2, 3>} : tensor<2x9x11x3xf32> -> tensor<2x3x2x5x10x3xf32>
// CHECK: %[[P:.*]] = tpu.windows %arg1 {{.*}} : tensor<2x9x11x128xf32> -> tensor<2x9x11x1152xf32>
// CHECK: tpu.matmul %[[P]], %arg2 : tensor<2x9x11x1152xf32>, tensor<1152x5xf32> -> tensor<2x9x11x5xf32>
func.func @windows(%x: tensor<2x9x11x3xf32>, %y: tensor<2x9x11x128xf32>, %w: tensor<1152x5xf32>) -> (tensor<2x3x2x5x10x3xf32>, tensor<2x9x11x5xf32>) {
  %t = tpu.windows %x {window = array<i64: 2, 3>, strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, pad_value = 0xFF800000 : f32} : tensor<2x9x11x3xf32> -> tensor<2x3x2x5x10x3xf32>
  %p = tpu.windows %y {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, pad_value = 0.0 : f32} : tensor<2x9x11x128xf32> -> tensor<2x9x11x1152xf32>
  %c = tpu.matmul %p, %w : tensor<2x9x11x1152xf32>, tensor<1152x5xf32> -> tensor<2x9x11x5xf32>
  return %t, %c : tensor<2x3x2x5x10x3xf32>, tensor<2x9x11x5xf32>
}

// A matmul with an epilogue: relu(a x b + bias).
// CHECK-LABEL: func @epilogue
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%arg1) epilogue(%arg2) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %[[B:.*]]: f32):
// CHECK: arith.addf %[[S]], %[[B]] : f32
// CHECK: tpu.yield
func.func @epilogue(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %bias: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %r = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%bias) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %t = arith.addf %s, %y : f32
    %u = arith.maximumf %t, %zero : f32
    tpu.yield %u : f32
  }
  return %r : tensor<8x128xf32>
}

// A row reduction with a prologue: a sum of squares.
// CHECK-LABEL: func @prologue
// CHECK: tpu.reduce %arg0 kind = <sum> init = 0.000000e+00 : tensor<7x300xf32> -> tensor<7x1xf32> {
// CHECK-NEXT: ^bb0(%[[E:.*]]: f32):
// CHECK-NEXT: arith.mulf %[[E]], %[[E]] : f32
func.func @prologue(%x: tensor<7x300xf32>) -> tensor<7x1xf32> {
  %s = tpu.reduce %x kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32> {
  ^bb0(%e: f32):
    %sq = arith.mulf %e, %e : f32
    tpu.yield %sq : f32
  }
  return %s : tensor<7x1xf32>
}

// CHECK-LABEL: func @permute
// CHECK: tpu.permute_matrices %arg0 permutation = [2, 0, 1] : tensor<2x3x4x7x300xf32> -> tensor<4x2x3x7x300xf32>
func.func @permute(%x: tensor<2x3x4x7x300xf32>) -> tensor<4x2x3x7x300xf32> {
  %p = tpu.permute_matrices %x permutation = [2, 0, 1] : tensor<2x3x4x7x300xf32> -> tensor<4x2x3x7x300xf32>
  return %p : tensor<4x2x3x7x300xf32>
}

// CHECK-LABEL: func @permute_rows
// CHECK: tpu.permute_rows %arg0 permutation = [2, 0, 1] : tensor<2x3x7x300xf32> -> tensor<7x2x3x300xf32>
func.func @permute_rows(%x: tensor<2x3x7x300xf32>) -> tensor<7x2x3x300xf32> {
  %p = tpu.permute_rows %x permutation = [2, 0, 1] : tensor<2x3x7x300xf32> -> tensor<7x2x3x300xf32>
  return %p : tensor<7x2x3x300xf32>
}

// CHECK-LABEL: func @rows
// CHECK: %[[S:.*]] = tpu.insert_rows %arg0 extract offsets = [1, 3] : tensor<4x9x300xf32> -> tensor<2x5x300xf32>
// CHECK: %[[I:.*]] = tpu.insert_rows %[[S]] into %arg1 offsets = [0, 2] : tensor<2x5x300xf32>, tensor<3x7x300xf32> -> tensor<3x7x300xf32>
// CHECK: tpu.insert_rows %[[S]] offsets = [1, 0] : tensor<2x5x300xf32> -> tensor<3x7x300xf32>
func.func @rows(%x: tensor<4x9x300xf32>, %y: tensor<3x7x300xf32>) -> (tensor<3x7x300xf32>, tensor<3x7x300xf32>) {
  %s = tpu.insert_rows %x extract offsets = [1, 3] : tensor<4x9x300xf32> -> tensor<2x5x300xf32>
  %i = tpu.insert_rows %s into %y offsets = [0, 2] : tensor<2x5x300xf32>, tensor<3x7x300xf32> -> tensor<3x7x300xf32>
  %z = tpu.insert_rows %s offsets = [1, 0] : tensor<2x5x300xf32> -> tensor<3x7x300xf32>
  return %i, %z : tensor<3x7x300xf32>, tensor<3x7x300xf32>
}

// The vreg-level ops of reductions.
// CHECK-LABEL: func @lanes
// CHECK: tpu.lane_mask %arg1 : vector<8x128xi1>
// CHECK: tpu.lane_reduce %arg0 {kind = #tpu.reduction<min>} : vector<8x128xf32>
// CHECK: tpu.lane_broadcast %arg0 : vector<8x128xf32>
func.func @lanes(%v: vector<8x128xf32>, %n: index) -> (vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>) {
  %mask = tpu.lane_mask %n : vector<8x128xi1>
  %r = tpu.lane_reduce %v {kind = #tpu.reduction<min>} : vector<8x128xf32>
  %b = tpu.lane_broadcast %v : vector<8x128xf32>
  return %mask, %r, %b : vector<8x128xi1>, vector<8x128xf32>, vector<8x128xf32>
}

// A row repeated down new rows and a new leading dimension, in tensor and
// buffer form.
// CHECK-LABEL: func @broadcast
// CHECK: tpu.broadcast %arg0 dimensions = [0, 1] : tensor<300xf32> -> tensor<2x7x300xf32>
// CHECK: tpu.broadcast %arg1 dimensions = [0] : tensor<7x300xf32> -> tensor<3x7x300xf32>
// CHECK: tpu.broadcast %arg2 outs(%arg3) dimensions = [0] : memref<300xf32, #tiled1, #tpu.memory_space<hbm>> outs memref<7x300xf32, #tiled, #tpu.memory_space<hbm>>
func.func @broadcast(%row: tensor<300xf32>, %m: tensor<7x300xf32>, %rowBuf: memref<300xf32, #tiled1, #hbm>, %out: memref<7x300xf32, #tiled, #hbm>) -> (tensor<2x7x300xf32>, tensor<3x7x300xf32>) {
  %a = tpu.broadcast %row dimensions = [0, 1] : tensor<300xf32> -> tensor<2x7x300xf32>
  %b = tpu.broadcast %m dimensions = [0] : tensor<7x300xf32> -> tensor<3x7x300xf32>
  tpu.broadcast %rowBuf outs(%out) dimensions = [0] : memref<300xf32, #tiled1, #hbm> outs memref<7x300xf32, #tiled, #hbm>
  return %a, %b : tensor<2x7x300xf32>, tensor<3x7x300xf32>
}
