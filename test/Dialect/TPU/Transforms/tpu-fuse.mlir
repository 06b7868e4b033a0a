// RUN: tpu-opt %s --tpu-fuse --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-fuse=report=true --split-input-file 2>&1 | FileCheck %s --check-prefix=REMARK

// A chain of elementwise ops is one: the producer's body, then the
// consumer's with the producer's value for the element it read; the
// producer's inputs first, then the consumer's others.
// CHECK-LABEL: func @chain
// CHECK: %[[R:.*]] = tpu.elementwise ins(%arg0, %arg1, %arg2 : tensor<7x300xf32>, tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[S]] : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[Z]], %[[E]] : f32
// CHECK-NEXT: tpu.yield %[[M]] : f32
// CHECK-NOT: tpu.elementwise
// CHECK: return %[[R]]
// REMARK: remark: tpu-fuse: fused into the body of its tpu.elementwise consumer (its result no longer goes to HBM)
// REMARK: note: the tpu.elementwise it joined
// REMARK: remark: tpu-fuse: fused into the body of its tpu.elementwise consumer
func.func @chain(%a: tensor<7x300xf32>, %b: tensor<7x300xf32>, %c: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %s = tpu.elementwise ins(%a, %b : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tpu.yield %r : f32
  }
  %e = tpu.elementwise ins(%s : tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32):
    %r = math.exp %x : f32
    tpu.yield %r : f32
  }
  %m = tpu.elementwise ins(%c, %e : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.mulf %x, %y : f32
    tpu.yield %r : f32
  }
  return %m : tensor<7x300xf32>
}

// -----

// A producer something else reads stays (its result is needed in HBM).
// CHECK-LABEL: func @shared
// CHECK: %[[S:.*]] = tpu.elementwise ins(%arg0
// CHECK: tpu.elementwise ins(%[[S]]
// CHECK: return
func.func @shared(%a: tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>) {
  %s = tpu.elementwise ins(%a : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32):
    %r = math.exp %x : f32
    tpu.yield %r : f32
  }
  %t = tpu.elementwise ins(%s : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32):
    %r = math.tanh %x : f32
    tpu.yield %r : f32
  }
  return %s, %t : tensor<8x128xf32>, tensor<8x128xf32>
}

// -----

// A matmul's consumer through the resize that drops its padding becomes
// its epilogue; the other input (7x300) is grown to the padded 8x384 and
// the resize follows the matmul. A second consumer joins the epilogue.
// CHECK-LABEL: func @epilogue
// CHECK: %[[BIAS:.*]] = tpu.resize %arg2 : tensor<7x300xf32> -> tensor<8x384xf32>
// CHECK: %[[RES:.*]] = tpu.resize %arg3 : tensor<7x300xf32> -> tensor<8x384xf32>
// CHECK: %[[M:.*]] = tpu.matmul_passes lhs(%arg0) rhs(%arg1) epilogue(%[[BIAS]], %[[RES]]) {nan_fixed_terms = 0 : i64, tpu.useful_macs = 10 : i64}
// CHECK-NEXT: ^bb0(%[[SUM:.*]]: f32, %[[B:.*]]: f32, %[[R:.*]]: f32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[SUM]], %[[B]] : f32
// CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[T]], %[[ZERO]] : f32
// CHECK-NEXT: %[[OUT:.*]] = arith.addf %[[R]], %[[RELU]] : f32
// CHECK-NEXT: tpu.yield %[[OUT]] : f32
// CHECK: %[[Y:.*]] = tpu.resize %[[M]] : tensor<8x384xf32> -> tensor<7x300xf32>
// CHECK: return %[[Y]]
// REMARK: remark: tpu-fuse: fused into the epilogue of the tpu.matmul_passes it reads (the matmul's result no longer goes to HBM)
// REMARK: note: the tpu.matmul_passes it joined
// REMARK: remark: tpu-fuse: fused into the epilogue of the tpu.matmul_passes it reads
func.func @epilogue(%a: tensor<8x128xf32>, %b: tensor<128x384xf32>, %bias: tensor<7x300xf32>, %residual: tensor<7x300xf32>) -> tensor<7x300xf32> {
  %m = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64, tpu.useful_macs = 10 : i64} : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
  %r = tpu.resize %m : tensor<8x384xf32> -> tensor<7x300xf32>
  %h = tpu.elementwise ins(%r, %bias : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32, %y: f32):
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %x, %y : f32
    %t = arith.maximumf %s, %zero : f32
    tpu.yield %t : f32
  }
  %o = tpu.elementwise ins(%residual, %h : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tpu.yield %s : f32
  }
  return %o : tensor<7x300xf32>
}

// -----

// Not fused: a matmul whose result is read twice, and a consumer with a
// bf16 result (a matmul's is f32).
// CHECK-LABEL: func @not_fused
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%arg1) {nan_fixed_terms = 0 : i64}
// CHECK-NOT: epilogue
// CHECK: tpu.elementwise
// CHECK: tpu.elementwise
func.func @not_fused(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xbf16>) {
  %m = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  %e = tpu.elementwise ins(%m : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32):
    %r = math.exp %x : f32
    tpu.yield %r : f32
  }
  %t = tpu.elementwise ins(%m : tensor<8x128xf32>) -> tensor<8x128xbf16> {
  ^bb0(%x: f32):
    %r = arith.truncf %x : f32 to bf16
    tpu.yield %r : bf16
  }
  return %e, %t : tensor<8x128xf32>, tensor<8x128xbf16>
}

// -----

// Not fused: a consumer with a bf16 input (packed, two rows to a word; the
// epilogue reads f32 tiles with the result's).
// CHECK-LABEL: func @bf16_input
// CHECK: %[[M:.*]] = tpu.matmul_passes lhs(%arg0) rhs(%arg1) {nan_fixed_terms = 0 : i64}
// CHECK-NOT: epilogue
// CHECK: tpu.elementwise ins(%[[M]], %arg2
func.func @bf16_input(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %r: tensor<8x128xbf16>) -> tensor<8x128xf32> {
  %m = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  %e = tpu.elementwise ins(%m, %r : tensor<8x128xf32>, tensor<8x128xbf16>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: bf16):
    %w = arith.extf %y : bf16 to f32
    %s = arith.addf %x, %w : f32
    tpu.yield %s : f32
  }
  return %e : tensor<8x128xf32>
}

// -----

// A bf16 bias row is fused all the same: a row is read as one row of
// words, packed or not.
// CHECK-LABEL: func @bf16_bias
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%arg1) epilogue(%arg2) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<128xbf16>) -> tensor<8x128xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: bf16):
// CHECK-NOT: tpu.elementwise
func.func @bf16_bias(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %bias: tensor<128xbf16>) -> tensor<8x128xf32> {
  %m = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  %r = tpu.broadcast %bias dimensions = [0] : tensor<128xbf16> -> tensor<8x128xbf16>
  %e = tpu.elementwise ins(%m, %r : tensor<8x128xf32>, tensor<8x128xbf16>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: bf16):
    %w = arith.extf %y : bf16 to f32
    %s = arith.addf %x, %w : f32
    tpu.yield %s : f32
  }
  return %e : tensor<8x128xf32>
}

// -----

// A producer of one value read only by a row reduction is its prologue
// (a sum of squares in one pass); one of two values, or one read by
// something else, stays.
// CHECK-LABEL: func @prologue
// CHECK: %[[S:.*]] = tpu.reduce %arg0 kind = <sum> init = 0.000000e+00 : tensor<7x300xf32> -> tensor<7x1xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: tpu.yield %[[SQ]] : f32
// CHECK: %[[D:.*]] = tpu.elementwise ins(%arg0, %arg1
// CHECK: tpu.reduce %[[D]] kind = <max>
// CHECK-NOT: {
// CHECK: return %[[S]]
// REMARK: remark: tpu-fuse: fused into the prologue of the tpu.reduce that reads it (its result no longer goes to HBM)
// REMARK: note: the tpu.reduce it joined
func.func @prologue(%x: tensor<7x300xf32>, %y: tensor<7x300xf32>) -> (tensor<7x1xf32>, tensor<7x1xf32>) {
  %sq = tpu.elementwise ins(%x, %x : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.mulf %a, %b : f32
    tpu.yield %r : f32
  }
  %s = tpu.reduce %sq kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32>
  %d = tpu.elementwise ins(%x, %y : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.subf %a, %b : f32
    tpu.yield %r : f32
  }
  %m = tpu.reduce %d kind = <max> init = 0xFF800000 : tensor<7x300xf32> -> tensor<7x1xf32>
  return %s, %m : tensor<7x1xf32>, tensor<7x1xf32>
}

// -----

// A bias broadcast over the rows joins the epilogue as the row itself
// (its 300 lanes are the padded 384's three tiles), and the broadcast
// goes; a resize that grows the matmul's result is not a way in.
// CHECK-LABEL: func @bias_row
// CHECK-NOT: tpu.broadcast
// CHECK: %[[M:.*]] = tpu.matmul_passes lhs(%arg0) rhs(%arg1) epilogue(%arg2) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x384xf32>, tensor<300xf32>) -> tensor<8x384xf32> {
// CHECK: tpu.resize %[[M]] : tensor<8x384xf32> -> tensor<7x300xf32>
// CHECK: %[[G:.*]] = tpu.resize %{{.*}} : tensor<8x128xf32> -> tensor<16x256xf32>
// CHECK: tpu.elementwise ins(%[[G]]
func.func @bias_row(%a: tensor<8x128xf32>, %b: tensor<128x384xf32>, %bias: tensor<300xf32>, %c: tensor<128x128xf32>) -> (tensor<7x300xf32>, tensor<16x256xf32>) {
  %m = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x384xf32>) -> tensor<8x384xf32>
  %r = tpu.resize %m : tensor<8x384xf32> -> tensor<7x300xf32>
  %wide = tpu.broadcast %bias dimensions = [0] : tensor<300xf32> -> tensor<7x300xf32>
  %h = tpu.elementwise ins(%r, %wide : tensor<7x300xf32>, tensor<7x300xf32>) -> tensor<7x300xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tpu.yield %s : f32
  }
  %n = tpu.matmul_passes lhs(%a) rhs(%c) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  %g = tpu.resize %n : tensor<8x128xf32> -> tensor<16x256xf32>
  %e = tpu.elementwise ins(%g : tensor<16x256xf32>) -> tensor<16x256xf32> {
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %x, %one : f32
    tpu.yield %s : f32
  }
  return %h, %e : tensor<7x300xf32>, tensor<16x256xf32>
}

// -----

// HIGH's splits, read by the matmul alone, are taken in: each term reads
// the f32 operand and the part it used (the split's result number), with
// the splits' rounding; the splits go.
// CHECK-LABEL: func @splits
// CHECK-NOT: tpu.split
// CHECK: tpu.matmul_passes lhs(%arg0, %arg0, %arg0) rhs(%arg1, %arg1, %arg1) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<trunc>}
// CHECK-NOT: tpu.split
// REMARK: remark: tpu-fuse: fused into the tpu.matmul_passes that reads its parts (each tile is split in VMEM on the way to the MXU; the parts no longer go to HBM)
// REMARK: note: the tpu.matmul_passes it joined
// REMARK: remark: tpu-fuse: fused into the tpu.matmul_passes that reads its parts
func.func @splits(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %ahi, %alo = tpu.split %a {rounding = #tpu.rounding<trunc>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
  %bhi, %blo = tpu.split %b {rounding = #tpu.rounding<trunc>} : tensor<128x128xf32> -> tensor<128x128xbf16>, tensor<128x128xbf16>
  %r = tpu.matmul_passes lhs(%alo, %ahi, %ahi) rhs(%bhi, %blo, %bhi) {nan_fixed_terms = 2 : i64} : (tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

// Not taken in: a split whose part something else reads (its planes go to
// HBM anyway), a split of another rounding than the first taken in, and a
// one-part split (a plain rounding, not a split's hi). A bf16 operand
// stays as it is (-1).
// CHECK-LABEL: func @kept_splits
// CHECK: %[[SHARED:.*]]:2 = tpu.split %arg0
// CHECK: %[[RNE:.*]]:2 = tpu.split %arg1 {rounding = #tpu.rounding<rne>}
// CHECK: %[[ONE:.*]] = tpu.split %arg1
// CHECK: tpu.matmul_passes lhs(%[[SHARED]]#1, %[[SHARED]]#0, %arg2) rhs(%arg1, %[[RNE]]#1, %[[ONE]]) {lhs_parts = array<i64: -1, -1, -1>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, -1, -1>, split = #tpu.rounding<trunc>}
func.func @kept_splits(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %c: tensor<8x128xbf16>) -> (tensor<8x128xf32>, tensor<8x128xbf16>) {
  %ahi, %alo = tpu.split %a {rounding = #tpu.rounding<trunc>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
  %bhi, %blo = tpu.split %b {rounding = #tpu.rounding<trunc>} : tensor<128x128xf32> -> tensor<128x128xbf16>, tensor<128x128xbf16>
  %rhi, %rlo = tpu.split %b {rounding = #tpu.rounding<rne>} : tensor<128x128xf32> -> tensor<128x128xbf16>, tensor<128x128xbf16>
  %one = tpu.split %b {rounding = #tpu.rounding<trunc>} : tensor<128x128xf32> -> tensor<128x128xbf16>
  %r = tpu.matmul_passes lhs(%alo, %ahi, %c) rhs(%bhi, %rlo, %one) {nan_fixed_terms = 2 : i64} : (tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<8x128xf32>
  return %r, %ahi : tensor<8x128xf32>, tensor<8x128xbf16>
}

// -----

// One split read by both sides (a x a): taken in once, read on each side.
// CHECK-LABEL: func @square
// CHECK-NOT: tpu.split
// CHECK: tpu.matmul_passes lhs(%arg0, %arg0, %arg0) rhs(%arg0, %arg0, %arg0) {lhs_parts = array<i64: 1, 0, 0>, nan_fixed_terms = 2 : i64, rhs_parts = array<i64: 0, 1, 0>, split = #tpu.rounding<rne>}
// REMARK: tpu-fuse.mlir:[[@LINE+3]]:{{.*}} remark: tpu-fuse: fused into the tpu.matmul_passes that reads its parts
// REMARK-NOT: reads its parts
func.func @square(%a: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %hi, %lo = tpu.split %a {rounding = #tpu.rounding<rne>} : tensor<128x128xf32> -> tensor<128x128xbf16>, tensor<128x128xbf16>
  %r = tpu.matmul_passes lhs(%lo, %hi, %hi) rhs(%hi, %lo, %hi) {nan_fixed_terms = 2 : i64} : (tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// The RHS's zero rows to K are taken in: the matmul reads the resize's
// source with the rows that complete its last row tile (300 to 304, a
// resize; 1000 already whole, the source itself), after taking in the
// splits of the padded RHS, whose terms all read it.
// CHECK-LABEL: func @rhs_padding
// CHECK: %[[A:.*]] = tpu.resize %arg0 : tensor<7x300xf32> -> tensor<8x384xf32>
// CHECK: %[[B:.*]] = tpu.resize %arg1 : tensor<300x129xf32> -> tensor<304x256xf32>
// CHECK: tpu.matmul_passes lhs(%[[A]], %[[A]], %[[A]]) rhs(%[[B]], %[[B]], %[[B]]) {{.*}} : (tensor<8x384xf32>, tensor<8x384xf32>, tensor<8x384xf32>, tensor<304x256xf32>, tensor<304x256xf32>, tensor<304x256xf32>) -> tensor<8x256xf32>
// CHECK: %[[C:.*]] = tpu.resize %arg2 : tensor<8x1000xf32> -> tensor<8x1024xf32>
// CHECK: tpu.matmul_passes lhs(%[[C]]) rhs(%arg3) {{.*}} : (tensor<8x1024xf32>, tensor<1000x128xf32>) -> tensor<8x128xf32>
// CHECK-NOT: tensor<1024x128xf32>
// REMARK-COUNT-2: remark: tpu-fuse: fused into the tpu.matmul_passes that reads its parts
// REMARK: remark: tpu-fuse: its zero rows fused into the tpu.matmul_passes that reads it (the kernel zero-fills the last K tile's missing rows in VMEM; they no longer go through HBM)
// REMARK: note: the tpu.matmul_passes it joined
// REMARK: remark: tpu-fuse: its zero rows fused
func.func @rhs_padding(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>, %c: tensor<8x1000xf32>, %d: tensor<1000x128xf32>) -> (tensor<8x256xf32>, tensor<8x128xf32>) {
  %a8 = tpu.resize %a : tensor<7x300xf32> -> tensor<8x384xf32>
  %b8 = tpu.resize %b : tensor<300x129xf32> -> tensor<384x256xf32>
  %ahi, %alo = tpu.split %a8 {rounding = #tpu.rounding<rne>} : tensor<8x384xf32> -> tensor<8x384xbf16>, tensor<8x384xbf16>
  %bhi, %blo = tpu.split %b8 {rounding = #tpu.rounding<rne>} : tensor<384x256xf32> -> tensor<384x256xbf16>, tensor<384x256xbf16>
  %r = tpu.matmul_passes lhs(%alo, %ahi, %ahi) rhs(%bhi, %blo, %bhi) {nan_fixed_terms = 2 : i64} : (tensor<8x384xbf16>, tensor<8x384xbf16>, tensor<8x384xbf16>, tensor<384x256xbf16>, tensor<384x256xbf16>, tensor<384x256xbf16>) -> tensor<8x256xf32>
  %c8 = tpu.resize %c : tensor<8x1000xf32> -> tensor<8x1024xf32>
  %d8 = tpu.resize %d : tensor<1000x128xf32> -> tensor<1024x128xf32>
  %s = tpu.matmul_passes lhs(%c8) rhs(%d8) {nan_fixed_terms = 0 : i64} : (tensor<8x1024xf32>, tensor<1024x128xf32>) -> tensor<8x128xf32>
  return %r, %s : tensor<8x256xf32>, tensor<8x128xf32>
}

// -----

// A bf16 RHS completes its packed tiles of 16 rows (200 to 208); a batch
// RHS shortens each matrix.
// CHECK-LABEL: func @rhs_padding_bf16_batch
// CHECK: %[[B:.*]] = tpu.resize %arg1 : tensor<200x128xbf16> -> tensor<208x128xbf16>
// CHECK: tpu.matmul_passes lhs(%{{.*}}) rhs(%[[B]]) {{.*}} : (tensor<8x256xbf16>, tensor<208x128xbf16>) -> tensor<8x128xf32>
// CHECK: tpu.matmul_passes lhs(%{{.*}}) rhs(%arg3) {{.*}} : (tensor<2x8x256xf32>, tensor<2x200x128xf32>) -> tensor<2x8x128xf32>
// REMARK-COUNT-2: remark: tpu-fuse: its zero rows fused
func.func @rhs_padding_bf16_batch(%a: tensor<8x200xbf16>, %b: tensor<200x128xbf16>, %c: tensor<2x8x200xf32>, %d: tensor<2x200x128xf32>) -> (tensor<8x128xf32>, tensor<2x8x128xf32>) {
  %a8 = tpu.resize %a : tensor<8x200xbf16> -> tensor<8x256xbf16>
  %b8 = tpu.resize %b : tensor<200x128xbf16> -> tensor<256x128xbf16>
  %r = tpu.matmul_passes lhs(%a8) rhs(%b8) {nan_fixed_terms = 0 : i64} : (tensor<8x256xbf16>, tensor<256x128xbf16>) -> tensor<8x128xf32>
  %c8 = tpu.resize %c : tensor<2x8x200xf32> -> tensor<2x8x256xf32>
  %d8 = tpu.resize %d : tensor<2x200x128xf32> -> tensor<2x256x128xf32>
  %s = tpu.matmul_passes lhs(%c8) rhs(%d8) {nan_fixed_terms = 0 : i64} : (tensor<2x8x256xf32>, tensor<2x256x128xf32>) -> tensor<2x8x128xf32>
  return %r, %s : tensor<8x128xf32>, tensor<2x8x128xf32>
}

// -----

// Kept: rows a K tile or more short of K (100 of 256), an RHS that is no
// resize, terms whose RHS would shorten differently (one already whole), a
// resize something else reads too (its copy stays), and a resize that
// drops rows (1010 to 1008: rows 1008 and 1009 must not come back).
// CHECK-LABEL: func @rhs_padding_kept
// CHECK: tpu.matmul_passes lhs(%{{.*}}) rhs(%[[FAR:.*]]) {{.*}} : (tensor<8x256xf32>, tensor<256x128xf32>)
// CHECK: tpu.matmul_passes lhs(%arg0, %arg0) rhs(%arg2, %[[WHOLE:.*]]) {{.*}} : (tensor<8x256xf32>, tensor<8x256xf32>, tensor<256x128xf32>, tensor<256x128xf32>)
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%[[SHARED:.*]]) {{.*}} : (tensor<8x256xf32>, tensor<256x128xf32>)
// CHECK: tpu.matmul_passes lhs(%{{.*}}) rhs(%[[DROPS:.*]]) {{.*}} : (tensor<8x1024xf32>, tensor<1008x128xf32>)
// REMARK-NOT: zero rows
func.func @rhs_padding_kept(%a: tensor<8x256xf32>, %b: tensor<100x128xf32>, %c: tensor<256x128xf32>, %d: tensor<200x128xf32>, %e: tensor<8x1024xf32>, %f: tensor<1010x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<256x128xf32>, tensor<8x128xf32>) {
  %b8 = tpu.resize %b : tensor<100x128xf32> -> tensor<256x128xf32>
  %r = tpu.matmul_passes lhs(%a) rhs(%b8) {nan_fixed_terms = 0 : i64} : (tensor<8x256xf32>, tensor<256x128xf32>) -> tensor<8x128xf32>
  %d8 = tpu.resize %d : tensor<200x128xf32> -> tensor<256x128xf32>
  %s = tpu.matmul_passes lhs(%a, %a) rhs(%c, %d8) {nan_fixed_terms = 0 : i64} : (tensor<8x256xf32>, tensor<8x256xf32>, tensor<256x128xf32>, tensor<256x128xf32>) -> tensor<8x128xf32>
  %shared = tpu.resize %d : tensor<200x128xf32> -> tensor<256x128xf32>
  %t = tpu.matmul_passes lhs(%a) rhs(%shared) {nan_fixed_terms = 0 : i64} : (tensor<8x256xf32>, tensor<256x128xf32>) -> tensor<8x128xf32>
  %f8 = tpu.resize %f : tensor<1010x128xf32> -> tensor<1008x128xf32>
  %u = tpu.matmul_passes lhs(%e) rhs(%f8) {nan_fixed_terms = 0 : i64} : (tensor<8x1024xf32>, tensor<1008x128xf32>) -> tensor<8x128xf32>
  return %r, %s, %t, %shared, %u : tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<256x128xf32>, tensor<8x128xf32>
}
