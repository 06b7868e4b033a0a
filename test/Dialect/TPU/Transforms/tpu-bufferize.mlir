// RUN: tpu-opt %s --tpu-bufferize --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-bufferize=entry=other --split-input-file | FileCheck %s --check-prefix=OTHER

// The entry's tensors become tiled HBM buffers; each kernel op allocates
// its result and writes it in its buffer form (the useful MACs go along);
// a resize or reshape that keeps the tiled image is a view of its source.
// CHECK: #tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[A:.*]]: memref<7x300xf32, #tiled, #tpu.memory_space<hbm>>, %[[B:.*]]: memref<300x129xf32, #tiled, #tpu.memory_space<hbm>>) -> memref<7x129xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[PA:.*]] = tpu.tiled_view %[[A]] : memref<7x300xf32, #tiled, #tpu.memory_space<hbm>> to memref<8x384xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[PB:.*]] = memref.alloc() : memref<384x256xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.resize %[[B]] outs(%[[PB]])
// CHECK: %[[HI:.*]] = memref.alloc() : memref<8x384xbf16, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[LO:.*]] = memref.alloc() : memref<8x384xbf16, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.split %[[PA]] outs(%[[HI]], %[[LO]]) {rounding = #tpu.rounding<rne>}
// CHECK: %[[C:.*]] = memref.alloc() : memref<8x256xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.matmul_passes lhs(%[[LO]], %[[HI]]) rhs(%[[PB]], %[[PB]]) outs(%[[C]]) {nan_fixed_terms = 1 : i64, tpu.useful_macs = 7 : i64}
// CHECK: %[[R:.*]] = tpu.tiled_view %[[C]] : memref<8x256xf32, #tiled, #tpu.memory_space<hbm>> to memref<7x129xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: return %[[R]]
// Other functions keep their tensors.
// CHECK-LABEL: func.func @other(%{{.*}}: tensor<8x128xf32>) -> tensor<8x128xf32>
// OTHER-LABEL: func.func @main(%{{.*}}: tensor<7x300xf32>
// OTHER-LABEL: func.func @other(%{{.*}}: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>)
func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %pa = tpu.resize %a : tensor<7x300xf32> -> tensor<8x384xf32>
  %pb = tpu.resize %b : tensor<300x129xf32> -> tensor<384x256xf32>
  %hi, %lo = tpu.split %pa {rounding = #tpu.rounding<rne>} : tensor<8x384xf32> -> tensor<8x384xbf16>, tensor<8x384xbf16>
  %c = tpu.matmul_passes lhs(%lo, %hi) rhs(%pb, %pb) {nan_fixed_terms = 1 : i64, tpu.useful_macs = 7 : i64} : (tensor<8x384xbf16>, tensor<8x384xbf16>, tensor<384x256xf32>, tensor<384x256xf32>) -> tensor<8x256xf32>
  %r = tpu.resize %c : tensor<8x256xf32> -> tensor<7x129xf32>
  return %r : tensor<7x129xf32>
}
func.func @other(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  return %a : tensor<8x128xf32>
}

// -----

// An elementwise op keeps its body; the dead leftovers of the front end
// (an empty tensor nothing reads) are erased first.
// CHECK-LABEL: func.func @main
// CHECK-NOT: tensor.empty
// CHECK: %[[O:.*]] = memref.alloc() : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise ins(%arg0, %arg1 : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) outs(%[[O]] : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
// CHECK: arith.maximumf
// A reshape that keeps the tiles is a view; vector to column is a kernel.
// CHECK: tpu.tiled_view %[[O]] : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> to memref<1x8x128xf32, #tiled2, #tpu.memory_space<hbm>>
// CHECK: %[[COL:.*]] = memref.alloc() : memref<300x1xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.reshape %arg2 outs(%[[COL]])
func.func @main(%a: tensor<8x128xf32>, %b: tensor<8x128xf32>, %v: tensor<300xf32>) -> (tensor<1x8x128xf32>, tensor<300x1xf32>) {
  %unused = tensor.empty() : tensor<8x128xf32>
  %m = tpu.elementwise ins(%a, %b : tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.maximumf %x, %y : f32
    tpu.yield %r : f32
  }
  %e = tpu.reshape %m : tensor<8x128xf32> -> tensor<1x8x128xf32>
  %c = tpu.reshape %v : tensor<300xf32> -> tensor<300x1xf32>
  return %e, %c : tensor<1x8x128xf32>, tensor<300x1xf32>
}
func.func @other() {
  return
}

// -----

// An elementwise op that maps zero to zero (truncf, multiplication) keeps
// zero padding: padding its result for a matmul is a view (and a resize
// that needs a kernel knows it need not zero that padding).
// CHECK-LABEL: func.func @main
// CHECK: tpu.elementwise
// CHECK: tpu.tiled_view %{{.*}} : memref<7x100xbf16, #tiled, #tpu.memory_space<hbm>> to memref<8x128xbf16, #tiled, #tpu.memory_space<hbm>>
func.func @main(%a: tensor<7x100xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %t = tpu.elementwise ins(%a, %a : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xbf16> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.truncf %m : f32 to bf16
    tpu.yield %r : bf16
  }
  %p = tpu.resize %t : tensor<7x100xbf16> -> tensor<8x128xbf16>
  %c = tpu.matmul_passes lhs(%p) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xbf16>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}
func.func @other() {
  return
}

// -----

// An elementwise op's padding is its body applied to the inputs' padding
// (here 0 + 1 = 1): growing it into elements takes the resize kernel,
// which zeroes it, not a view. (One that maps zero to zero, as truncf does,
// is a view like any other.)
// CHECK-LABEL: func.func @main
// CHECK: %[[Q:.*]] = memref.alloc() : memref<7x100xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise
// CHECK: %[[P:.*]] = memref.alloc() : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.resize %[[Q]] outs(%[[P]]) :
// CHECK-NOT: tpu.tiled_view
func.func @main(%a: tensor<7x100xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %q = tpu.elementwise ins(%a : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %x, %one : f32
    tpu.yield %s : f32
  }
  %p = tpu.resize %q : tensor<7x100xf32> -> tensor<8x128xf32>
  %c = tpu.matmul_passes lhs(%p) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}
func.func @other() {
  return
}
