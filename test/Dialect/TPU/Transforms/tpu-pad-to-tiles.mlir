// The per-op remarks are checked by -verify-diagnostics (the totals remark,
// one per function, by the TOTALS run below); the IR by FileCheck.
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true --split-input-file --verify-diagnostics=only-expected | FileCheck %s
// Padded IR is whole tiles: a second run changes nothing.
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true --split-input-file --verify-diagnostics=only-expected | tpu-opt --tpu-pad-to-tiles=report=true | FileCheck %s
// The totals over the whole file (no split):
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true 2>&1 >/dev/null | FileCheck %s --check-prefix=TOTALS

// M to 8, K to 128, N to 128 with zeros; the result is resized back.
// CHECK-LABEL: func @odd
// CHECK: %[[A:.*]] = tpu.resize %arg0 : tensor<7x300xf32> -> tensor<8x384xf32>
// CHECK: %[[B:.*]] = tpu.resize %arg1 : tensor<300x129xf32> -> tensor<384x256xf32>
// CHECK: %[[R:.*]] = tpu.matmul %[[A]], %[[B]] {precision = #tpu.precision<highest>} : tensor<8x384xf32>, tensor<384x256xf32> -> tensor<8x256xf32>
// CHECK: %[[S:.*]] = tpu.resize %[[R]] : tensor<8x256xf32> -> tensor<7x129xf32>
// CHECK: return %[[S]]
func.func @odd(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  // expected-remark @+1 {{tpu.matmul padded from M x K x N = 7 x 300 x 129 to 8 x 384 x 256: 65.6% of its MXU work is padding}}
  %0 = tpu.matmul %a, %b {precision = #tpu.precision<highest>} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
  return %0 : tensor<7x129xf32>
}

// -----

// Whole tiles already: nothing to do.
// CHECK-LABEL: func @aligned
// CHECK-NOT: tpu.resize
// CHECK: tpu.matmul %arg0, %arg1 : tensor<16x128xf32>, tensor<128x256xf32> -> tensor<16x256xf32>
// CHECK-NOT: tpu.resize
func.func @aligned(%a: tensor<16x128xf32>, %b: tensor<128x256xf32>) -> tensor<16x256xf32> {
  %0 = tpu.matmul %a, %b : tensor<16x128xf32>, tensor<128x256xf32> -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

// bf16 rows pack two to a word, but M pads to 8 all the same (one packed
// tile holds two row blocks; the kernel pushes the one that holds rows). The
// accumulator pads like the result; batch dimensions are left alone.
// CHECK-LABEL: func @bf16_batched_acc
// CHECK: tpu.resize %arg0 : tensor<2x1x1xbf16> -> tensor<2x8x128xbf16>
// CHECK: tpu.resize %arg1 : tensor<2x1x1xf32> -> tensor<2x128x128xf32>
// CHECK: %[[C:.*]] = tpu.resize %arg2 : tensor<2x1x1xf32> -> tensor<2x8x128xf32>
// CHECK: tpu.matmul {{.*}} acc %[[C]] : tensor<2x8x128xbf16>, tensor<2x128x128xf32>, tensor<2x8x128xf32> -> tensor<2x8x128xf32>
// CHECK: tpu.resize {{.*}} : tensor<2x8x128xf32> -> tensor<2x1x1xf32>
func.func @bf16_batched_acc(%a: tensor<2x1x1xbf16>, %b: tensor<2x1x1xf32>, %c: tensor<2x1x1xf32>) -> tensor<2x1x1xf32> {
  // expected-remark @+1 {{tpu.matmul padded from M x K x N = 1 x 1 x 1 to 8 x 128 x 128: 100.0% of its MXU work is padding}}
  %0 = tpu.matmul %a, %b acc %c : tensor<2x1x1xbf16>, tensor<2x1x1xf32>, tensor<2x1x1xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// Per function: useful MACs 7*300*129 of 8*384*256 padded; 16*128*256
// unpadded; 2*1*1*1 of 2*8*128*128.
// TOTALS: remark: tpu-pad-to-tiles: 1 of 1 tpu.matmul ops padded; 270900 useful MACs of 786432 after padding (65.6% padding)
// TOTALS: remark: tpu-pad-to-tiles: 0 of 1 tpu.matmul ops padded; 524288 useful MACs of 524288 after padding (0.0% padding)
// TOTALS: remark: tpu-pad-to-tiles: 1 of 1 tpu.matmul ops padded; 2 useful MACs of 262144 after padding (100.0% padding)
