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
// CHECK: %[[HI:.*]] = memref.alloc() : memref<8x384xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: %[[LO:.*]] = memref.alloc() : memref<8x384xbf16, #packed, #tpu.memory_space<hbm>>
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
// CHECK: tpu.tiled_view %{{.*}} : memref<7x100xbf16, #packed, #tpu.memory_space<hbm>> to memref<8x128xbf16, #packed, #tpu.memory_space<hbm>>
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

// -----

// A resize that shrinks makes the elements it drops padding, and nothing
// says they are zero (a matmul's padding rows times an inf are NaN): growing
// its result again takes the resize kernel, which zeroes them, not a view.
// CHECK-LABEL: func.func @main
// CHECK: %[[S:.*]] = memref.alloc() : memref<7x129xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.resize %{{.*}} outs(%[[S]]) {zero_padded_source}
// CHECK: %[[G:.*]] = memref.alloc() : memref<8x256xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.resize %[[S]] outs(%[[G]]) :
// CHECK-NOT: tpu.tiled_view
func.func @main(%a: tensor<16x256xf32>) -> tensor<8x256xf32> {
  %s = tpu.resize %a : tensor<16x256xf32> -> tensor<7x129xf32>
  %g = tpu.resize %s : tensor<7x129xf32> -> tensor<8x256xf32>
  return %g : tensor<8x256xf32>
}
func.func @other() {
  return
}

// -----

// Zero padding is found in one pass over the entry: forty diamonds of
// elementwise ops (2^40 paths from the last to the argument) take no time.
// CHECK-LABEL: func.func @main
// CHECK-COUNT-80: tpu.elementwise
// CHECK: tpu.tiled_view
func.func @main(%a: tensor<7x100xf32>) -> tensor<8x128xf32> {
  %l0 = tpu.elementwise ins(%a : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d0 = tpu.elementwise ins(%l0, %a : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l1 = tpu.elementwise ins(%d0 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d1 = tpu.elementwise ins(%l1, %d0 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l2 = tpu.elementwise ins(%d1 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d2 = tpu.elementwise ins(%l2, %d1 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l3 = tpu.elementwise ins(%d2 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d3 = tpu.elementwise ins(%l3, %d2 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l4 = tpu.elementwise ins(%d3 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d4 = tpu.elementwise ins(%l4, %d3 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l5 = tpu.elementwise ins(%d4 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d5 = tpu.elementwise ins(%l5, %d4 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l6 = tpu.elementwise ins(%d5 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d6 = tpu.elementwise ins(%l6, %d5 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l7 = tpu.elementwise ins(%d6 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d7 = tpu.elementwise ins(%l7, %d6 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l8 = tpu.elementwise ins(%d7 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d8 = tpu.elementwise ins(%l8, %d7 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l9 = tpu.elementwise ins(%d8 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d9 = tpu.elementwise ins(%l9, %d8 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l10 = tpu.elementwise ins(%d9 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d10 = tpu.elementwise ins(%l10, %d9 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l11 = tpu.elementwise ins(%d10 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d11 = tpu.elementwise ins(%l11, %d10 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l12 = tpu.elementwise ins(%d11 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d12 = tpu.elementwise ins(%l12, %d11 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l13 = tpu.elementwise ins(%d12 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d13 = tpu.elementwise ins(%l13, %d12 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l14 = tpu.elementwise ins(%d13 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d14 = tpu.elementwise ins(%l14, %d13 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l15 = tpu.elementwise ins(%d14 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d15 = tpu.elementwise ins(%l15, %d14 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l16 = tpu.elementwise ins(%d15 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d16 = tpu.elementwise ins(%l16, %d15 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l17 = tpu.elementwise ins(%d16 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d17 = tpu.elementwise ins(%l17, %d16 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l18 = tpu.elementwise ins(%d17 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d18 = tpu.elementwise ins(%l18, %d17 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l19 = tpu.elementwise ins(%d18 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d19 = tpu.elementwise ins(%l19, %d18 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l20 = tpu.elementwise ins(%d19 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d20 = tpu.elementwise ins(%l20, %d19 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l21 = tpu.elementwise ins(%d20 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d21 = tpu.elementwise ins(%l21, %d20 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l22 = tpu.elementwise ins(%d21 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d22 = tpu.elementwise ins(%l22, %d21 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l23 = tpu.elementwise ins(%d22 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d23 = tpu.elementwise ins(%l23, %d22 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l24 = tpu.elementwise ins(%d23 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d24 = tpu.elementwise ins(%l24, %d23 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l25 = tpu.elementwise ins(%d24 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d25 = tpu.elementwise ins(%l25, %d24 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l26 = tpu.elementwise ins(%d25 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d26 = tpu.elementwise ins(%l26, %d25 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l27 = tpu.elementwise ins(%d26 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d27 = tpu.elementwise ins(%l27, %d26 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l28 = tpu.elementwise ins(%d27 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d28 = tpu.elementwise ins(%l28, %d27 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l29 = tpu.elementwise ins(%d28 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d29 = tpu.elementwise ins(%l29, %d28 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l30 = tpu.elementwise ins(%d29 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d30 = tpu.elementwise ins(%l30, %d29 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l31 = tpu.elementwise ins(%d30 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d31 = tpu.elementwise ins(%l31, %d30 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l32 = tpu.elementwise ins(%d31 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d32 = tpu.elementwise ins(%l32, %d31 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l33 = tpu.elementwise ins(%d32 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d33 = tpu.elementwise ins(%l33, %d32 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l34 = tpu.elementwise ins(%d33 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d34 = tpu.elementwise ins(%l34, %d33 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l35 = tpu.elementwise ins(%d34 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d35 = tpu.elementwise ins(%l35, %d34 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l36 = tpu.elementwise ins(%d35 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d36 = tpu.elementwise ins(%l36, %d35 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l37 = tpu.elementwise ins(%d36 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d37 = tpu.elementwise ins(%l37, %d36 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l38 = tpu.elementwise ins(%d37 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d38 = tpu.elementwise ins(%l38, %d37 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %l39 = tpu.elementwise ins(%d38 : tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32):
    %n = arith.negf %x : f32
    tpu.yield %n : f32
  }
  %d39 = tpu.elementwise ins(%l39, %d38 : tensor<7x100xf32>, tensor<7x100xf32>) -> tensor<7x100xf32> {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %y : f32
    tpu.yield %m : f32
  }
  %p = tpu.resize %d39 : tensor<7x100xf32> -> tensor<8x128xf32>
  return %p : tensor<8x128xf32>
}
func.func @other() {
  return
}

// -----

// Tensor constants become private constant globals in the tiled HBM
// layout, read with memref.get_global: one global per value and type
// (the second 1.5 splat shares the first's, the bf16 one has its own), a
// name apart from the module's other symbols.
// CHECK: memref.global "private" @tpu_constant : memref<1x2xf32, #tpu.memory_space<hbm>>
// CHECK: memref.global "private" constant @[[W:tpu_constant_[0-9]+]] : memref<3x4xf32, #tiled, #tpu.memory_space<hbm>> = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]]>
// CHECK: memref.global "private" constant @[[S:tpu_constant_[0-9]+]] : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> = dense<1.500000e+00>
// CHECK: memref.global "private" constant @[[H:tpu_constant_[0-9]+]] : memref<8x128xbf16, #packed, #tpu.memory_space<hbm>> = dense<1.500000e+00>
// CHECK-LABEL: func.func @main(
// CHECK: %[[GW:.*]] = memref.get_global @[[W]] : memref<3x4xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[GS:.*]] = memref.get_global @[[S]]
// CHECK: %[[GS2:.*]] = memref.get_global @[[S]]
// CHECK: %[[GH:.*]] = memref.get_global @[[H]]
// CHECK: tpu.tiled_view %[[GW]]
// CHECK: tpu.elementwise ins(%[[GS]], %[[GS2]], %[[GH]], %arg0 :
// CHECK: return %[[GW]], %{{.*}} : memref<3x4xf32, #tiled, #tpu.memory_space<hbm>>, memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>
memref.global "private" @tpu_constant : memref<1x2xf32, #tpu.memory_space<hbm>>
func.func @main(%x: tensor<8x128xf32>) -> (tensor<3x4xf32>, tensor<8x128xf32>) {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %s = arith.constant dense<1.5> : tensor<8x128xf32>
  %t = arith.constant dense<1.5> : tensor<8x128xf32>
  %h = arith.constant dense<1.5> : tensor<8x128xbf16>
  %p = tpu.resize %w : tensor<3x4xf32> -> tensor<8x128xf32>
  %e = tpu.elementwise ins(%s, %t, %h, %x : tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xbf16>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%a: f32, %b: f32, %c: bf16, %d: f32):
    %ce = arith.extf %c : bf16 to f32
    %ab = arith.addf %a, %b : f32
    %abc = arith.addf %ab, %ce : f32
    %r = arith.addf %abc, %d : f32
    tpu.yield %r : f32
  }
  %f = tpu.elementwise ins(%e, %p : tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    tpu.yield %r : f32
  }
  return %w, %f : tensor<3x4xf32>, tensor<8x128xf32>
}
func.func @other() {
  return
}

// -----

// bf16 buffers are packed, two rows to a word (#packed). A kernel that
// moves words takes bf16 as f32: extended before, rounded after, each a
// tpu.elementwise (exact for bf16 values). A reshape that is a view of f32
// (8-row matrices merged) is not one of packed bf16 (half a tile each), so
// it is widened too, and the f32 reshape is the view.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[A:.*]]: memref<16x128xbf16, #packed, #tpu.memory_space<hbm>>, %[[B:.*]]: memref<2x8x128xbf16, #packed1, #tpu.memory_space<hbm>>
// CHECK: %[[AW:.*]] = memref.alloc() : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise ins(%[[A]] : {{.*}}) outs(%[[AW]] : {{.*}}) {
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[TW:.*]] = memref.alloc() : memref<128x16xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: tpu.transpose %[[AW]] outs(%[[TW]])
// CHECK: %[[T:.*]] = memref.alloc() : memref<128x16xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise ins(%[[TW]] : {{.*}}) outs(%[[T]] : {{.*}}) {
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: %[[BW:.*]] = memref.alloc() : memref<2x8x128xf32, #tiled1, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise ins(%[[B]] : {{.*}}) outs(%[[BW]] : {{.*}}) {
// CHECK: %[[V:.*]] = tpu.tiled_view %[[BW]] : memref<2x8x128xf32, #tiled1, #tpu.memory_space<hbm>> to memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
// CHECK: %[[R:.*]] = memref.alloc() : memref<16x128xbf16, #packed, #tpu.memory_space<hbm>>
// CHECK: tpu.elementwise ins(%[[V]] : {{.*}}) outs(%[[R]] : {{.*}}) {
// CHECK: return %[[T]], %[[R]]
func.func @main(%a: tensor<16x128xbf16>, %b: tensor<2x8x128xbf16>) -> (tensor<128x16xbf16>, tensor<16x128xbf16>) {
  %t = tpu.transpose %a : tensor<16x128xbf16> -> tensor<128x16xbf16>
  %r = tpu.reshape %b : tensor<2x8x128xbf16> -> tensor<16x128xbf16>
  return %t, %r : tensor<128x16xbf16>, tensor<16x128xbf16>
}
func.func @other() {
  return
}
