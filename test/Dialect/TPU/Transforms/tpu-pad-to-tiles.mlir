// The per-op remarks are checked by -verify-diagnostics (the totals remark,
// on the module, by the TOTALS run below); the IR by FileCheck.
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true --split-input-file --verify-diagnostics=only-expected | FileCheck %s
// Padded IR is whole tiles: a second run changes nothing.
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true --split-input-file --verify-diagnostics=only-expected | tpu-opt --tpu-pad-to-tiles=report=true | FileCheck %s
// The totals over the whole file (no split):
// RUN: tpu-opt %s --tpu-pad-to-tiles=report=true 2>&1 >/dev/null | FileCheck %s --check-prefix=TOTALS

// M to 8, K to 128, N to 128; the result is sliced back.
// CHECK-LABEL: func @odd
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[A:.*]] = tensor.pad %arg0 low[0, 0] high[1, 84]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: } : tensor<7x300xf32> to tensor<8x384xf32>
// CHECK: %[[B:.*]] = tensor.pad %arg1 low[0, 0] high[84, 127]
// CHECK: } : tensor<300x129xf32> to tensor<384x256xf32>
// CHECK: %[[R:.*]] = tpu.matmul %[[A]], %[[B]] {precision = #tpu.precision<highest>} : tensor<8x384xf32>, tensor<384x256xf32> -> tensor<8x256xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[R]][0, 0] [7, 129] [1, 1] : tensor<8x256xf32> to tensor<7x129xf32>
// CHECK: return %[[S]]
func.func @odd(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  // expected-remark @+1 {{tpu.matmul padded from M x K x N = 7 x 300 x 129 to 8 x 384 x 256: 65.6% of its MXU work is padding}}
  %0 = tpu.matmul %a, %b {precision = #tpu.precision<highest>} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
  return %0 : tensor<7x129xf32>
}

// -----

// Whole tiles already: nothing to do.
// CHECK-LABEL: func @aligned
// CHECK-NOT: tensor.pad
// CHECK: tpu.matmul %arg0, %arg1 : tensor<16x128xf32>, tensor<128x256xf32> -> tensor<16x256xf32>
// CHECK-NOT: tensor.extract_slice
func.func @aligned(%a: tensor<16x128xf32>, %b: tensor<128x256xf32>) -> tensor<16x256xf32> {
  %0 = tpu.matmul %a, %b : tensor<16x128xf32>, tensor<128x256xf32> -> tensor<16x256xf32>
  return %0 : tensor<16x256xf32>
}

// -----

// bf16 rows pack two to a word: M pads to 16. The accumulator pads like the
// result; batch dimensions are left alone.
// CHECK-LABEL: func @bf16_batched_acc
// CHECK: tensor.pad %arg0 low[0, 0, 0] high[0, 15, 127]
// CHECK: } : tensor<2x1x1xbf16> to tensor<2x16x128xbf16>
// CHECK: tensor.pad %arg1 low[0, 0, 0] high[0, 127, 127]
// CHECK: } : tensor<2x1x1xf32> to tensor<2x128x128xf32>
// CHECK: %[[C:.*]] = tensor.pad %arg2 low[0, 0, 0] high[0, 15, 127]
// CHECK: } : tensor<2x1x1xf32> to tensor<2x16x128xf32>
// CHECK: tpu.matmul {{.*}} acc %[[C]] : tensor<2x16x128xbf16>, tensor<2x128x128xf32>, tensor<2x16x128xf32> -> tensor<2x16x128xf32>
// CHECK: tensor.extract_slice {{.*}}[0, 0, 0] [2, 1, 1] [1, 1, 1] : tensor<2x16x128xf32> to tensor<2x1x1xf32>
func.func @bf16_batched_acc(%a: tensor<2x1x1xbf16>, %b: tensor<2x1x1xf32>, %c: tensor<2x1x1xf32>) -> tensor<2x1x1xf32> {
  // expected-remark @+1 {{tpu.matmul padded from M x K x N = 1 x 1 x 1 to 16 x 128 x 128: 100.0% of its MXU work is padding}}
  %0 = tpu.matmul %a, %b acc %c : tensor<2x1x1xbf16>, tensor<2x1x1xf32>, tensor<2x1x1xf32> -> tensor<2x1x1xf32>
  return %0 : tensor<2x1x1xf32>
}

// 2 of 3 matmuls padded; useful MACs 7*300*129 + 16*128*256 + 2*1*1*1,
// padded MACs 8*384*256 + 16*128*256 + 2*16*128*128.
// TOTALS: remark: tpu-pad-to-tiles: 2 of 3 tpu.matmul ops padded; 795190 useful MACs of 1835008 after padding (56.7% padding)
