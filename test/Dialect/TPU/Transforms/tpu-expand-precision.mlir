// RUN: tpu-opt %s --tpu-expand-precision --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tpu-opt %s --tpu-expand-precision=split=trunc --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=TRUNC
// RUN: tpu-opt %s --tpu-expand-precision=default-precision=float32 --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=FALLBACK

// DEFAULT: one pass on the f32 operands (the MXU rounds them), no split.
// CHECK-LABEL: func @default
// CHECK-NOT: tpu.split
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%arg1) {nan_fixed_terms = 0 : i64, tpu.useful_macs = 262144 : i64}
func.func @default(%a: tensor<8x128xf32>, %b: tensor<128x256xf32>) -> tensor<8x256xf32> {
  %c = tpu.matmul %a, %b {precision = #tpu.precision<default>} : tensor<8x128xf32>, tensor<128x256xf32> -> tensor<8x256xf32>
  return %c : tensor<8x256xf32>
}

// -----

// HIGH: hi, lo = split(x); FixNaN(lo.hi + hi.lo) + hi.hi.
// CHECK-LABEL: func @high
// CHECK: %[[A:.*]]:2 = tpu.split %arg0 {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>
// CHECK: %[[B:.*]]:2 = tpu.split %arg1 {rounding = #tpu.rounding<rne>}
// CHECK: tpu.matmul_passes lhs(%[[A]]#1, %[[A]]#0, %[[A]]#0) rhs(%[[B]]#0, %[[B]]#1, %[[B]]#0) {nan_fixed_terms = 2 : i64, tpu.useful_macs = 786432 : i64}
// TRUNC-LABEL: func @high
// TRUNC: tpu.split %arg0 {rounding = #tpu.rounding<trunc>}
func.func @high(%a: tensor<8x128xf32>, %b: tensor<128x256xf32>) -> tensor<8x256xf32> {
  %c = tpu.matmul %a, %b {precision = #tpu.precision<high>} : tensor<8x128xf32>, tensor<128x256xf32> -> tensor<8x256xf32>
  return %c : tensor<8x256xf32>
}

// -----

// HIGHEST: hi, mid, lo; the small terms smallest first: mid.mid, lo.hi,
// hi.lo, mid.hi, hi.mid; then hi.hi. The accumulator stays last.
// CHECK-LABEL: func @highest
// CHECK: %[[A:.*]]:3 = tpu.split %arg0
// CHECK: %[[B:.*]]:3 = tpu.split %arg1
// CHECK: tpu.matmul_passes lhs(%[[A]]#1, %[[A]]#2, %[[A]]#0, %[[A]]#1, %[[A]]#0, %[[A]]#0) rhs(%[[B]]#1, %[[B]]#0, %[[B]]#2, %[[B]]#0, %[[B]]#1, %[[B]]#0) acc(%arg2) {nan_fixed_terms = 5 : i64, tpu.useful_macs = 1572864 : i64}
func.func @highest(%a: tensor<8x128xf32>, %b: tensor<128x256xf32>, %acc: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %c = tpu.matmul %a, %b acc %acc {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x256xf32>, tensor<8x256xf32> -> tensor<8x256xf32>
  return %c : tensor<8x256xf32>
}

// -----

// Without a precision the pass's default-precision applies.
// CHECK-LABEL: func @unset
// CHECK-NOT: tpu.split
// CHECK: nan_fixed_terms = 0
// FALLBACK-LABEL: func @unset
// FALLBACK: tpu.split
// FALLBACK: nan_fixed_terms = 5
func.func @unset(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %c = tpu.matmul %a, %b : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// An rhs extended from bf16 (as tpu-convert-linalg writes arith.extf) and
// zero-padded has mid = lo = 0: HIGHEST keeps lo.hi, mid.hi and hi.hi.
// useful MACs count the unpadded K = 100.
// CHECK-LABEL: func @bf16_rhs
// CHECK: %[[P:.*]] = tpu.resize
// CHECK: %[[A:.*]]:3 = tpu.split %arg0
// CHECK-NOT: tpu.split
// CHECK: tpu.matmul_passes lhs(%[[A]]#2, %[[A]]#1, %[[A]]#0) rhs(%[[P]], %[[P]], %[[P]]) {nan_fixed_terms = 2 : i64, tpu.useful_macs = 307200 : i64}
func.func @bf16_rhs(%a: tensor<8x128xf32>, %b16: tensor<100x128xbf16>) -> tensor<8x128xf32> {
  %b = tpu.elementwise ins(%b16 : tensor<100x128xbf16>) -> tensor<100x128xf32> {
  ^bb0(%x: bf16):
    %e = arith.extf %x : bf16 to f32
    tpu.yield %e : f32
  }
  %padded = tpu.resize %b : tensor<100x128xf32> -> tensor<128x128xf32>
  // expected-remark @+1 {{tpu-expand-precision: highest matmul takes 3 MXU passes instead of 6: rhs is bf16-exact}}
  %c = tpu.matmul %a, %padded {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// bf16 x bf16 takes one pass at any precision.
// CHECK-LABEL: func @bf16_both
// CHECK: tpu.matmul_passes lhs(%arg0) rhs(%arg1) {nan_fixed_terms = 0 : i64
func.func @bf16_both(%a: tensor<16x128xbf16>, %b: tensor<128x128xbf16>) -> tensor<16x128xf32> {
  // expected-remark @+1 {{tpu-expand-precision: high matmul takes 1 MXU pass instead of 3: lhs and rhs are bf16-exact}}
  %c = tpu.matmul %a, %b {precision = #tpu.precision<high>} : tensor<16x128xbf16>, tensor<128x128xbf16> -> tensor<16x128xf32>
  return %c : tensor<16x128xf32>
}

// -----

// A constant of bf16-exact values is bf16-exact too.
// CHECK-LABEL: func @constant_lhs
// CHECK-NOT: tpu.split %cst
// CHECK: nan_fixed_terms = 2
func.func @constant_lhs(%b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %a = arith.constant dense<1.5> : tensor<8x128xf32>
  // expected-remark @+1 {{highest matmul takes 3 MXU passes instead of 6: lhs is bf16-exact}}
  %c = tpu.matmul %a, %b {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// An elementwise op that computes something from bf16 is not an extension:
// its result is split.
// CHECK-LABEL: func @not_extension
// CHECK: %[[B:.*]]:3 = tpu.split %{{.*}} {rounding
// CHECK: nan_fixed_terms = 5
func.func @not_extension(%a: tensor<8x128xf32>, %b16: tensor<128x128xbf16>) -> tensor<8x128xf32> {
  %b = tpu.elementwise ins(%b16 : tensor<128x128xbf16>) -> tensor<128x128xf32> {
  ^bb0(%x: bf16):
    %e = arith.extf %x : bf16 to f32
    %s = arith.addf %e, %e : f32
    tpu.yield %s : f32
  }
  %c = tpu.matmul %a, %b {precision = #tpu.precision<highest>} : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}
