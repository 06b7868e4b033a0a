// RUN: tpu-opt %s --tpu-convert-linalg --split-input-file | FileCheck %s
// RUN: tpu-opt %s --tpu-convert-linalg="default-precision=float32" --split-input-file | FileCheck %s --check-prefix=HIGHEST
// RUN: tpu-opt %s --tpu-convert-linalg="default-precision=BF16_BF16_F32_X3" --split-input-file | FileCheck %s --check-prefix=HIGH

// A zero fill is the usual "start from zero": no accumulator, and the fill
// goes away. The default precision applies.
// CHECK-LABEL: func @zero_init
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = tpu.matmul %arg0, %arg1 {precision = #tpu.precision<default>} : tensor<7x300xf32>, tensor<300x129xf32> -> tensor<7x129xf32>
// CHECK: return %[[R]]
// HIGHEST-LABEL: func @zero_init
// HIGHEST: tpu.matmul {{.*}} {precision = #tpu.precision<highest>}
// HIGH-LABEL: func @zero_init
// HIGH: tpu.matmul {{.*}} {precision = #tpu.precision<high>}
func.func @zero_init(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x129xf32>) -> tensor<7x129xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>) outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %c : tensor<7x129xf32>
}

// -----

// Any other init is accumulated into; the op's own precision wins.
// CHECK-LABEL: func @accumulate
// CHECK: tpu.matmul %arg0, %arg1 acc %arg2 {precision = #tpu.precision<highest>} : tensor<8x128xbf16>, tensor<128x256xf32>, tensor<8x256xf32> -> tensor<8x256xf32>
// HIGH-LABEL: func @accumulate
// HIGH: {precision = #tpu.precision<highest>}
func.func @accumulate(%a: tensor<8x128xbf16>, %b: tensor<128x256xf32>, %c: tensor<8x256xf32>) -> tensor<8x256xf32> {
  %r = linalg.matmul {tpu.precision = #tpu.precision<highest>} ins(%a, %b : tensor<8x128xbf16>, tensor<128x256xf32>) outs(%c : tensor<8x256xf32>) -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}

// -----

// A fill of something else than zero is an accumulator like any other.
// CHECK-LABEL: func @one_init
// CHECK: %[[FILL:.*]] = linalg.fill
// CHECK: tpu.matmul %arg0, %arg1 acc %[[FILL]]
func.func @one_init(%a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<1x1xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<1x1xf32>) -> tensor<1x1xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1x1xf32>, tensor<1x1xf32>) outs(%init : tensor<1x1xf32>) -> tensor<1x1xf32>
  return %c : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func @batched
// CHECK: tpu.matmul %arg0, %arg1 {precision = #tpu.precision<default>} : tensor<3x7x300xf32>, tensor<3x300x129xf32> -> tensor<3x7x129xf32>
func.func @batched(%a: tensor<3x7x300xf32>, %b: tensor<3x300x129xf32>) -> tensor<3x7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<3x7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<3x7x129xf32>) -> tensor<3x7x129xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<3x7x300xf32>, tensor<3x300x129xf32>) outs(%init : tensor<3x7x129xf32>) -> tensor<3x7x129xf32>
  return %c : tensor<3x7x129xf32>
}

// -----

// A matrix-vector product multiplies by a K x 1 matrix.
// CHECK-LABEL: func @matvec
// CHECK: %[[X:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1]] output_shape [300, 1] : tensor<300xf32> into tensor<300x1xf32>
// CHECK: %[[Y:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1]] output_shape [7, 1] : tensor<7xf32> into tensor<7x1xf32>
// CHECK: %[[R:.*]] = tpu.matmul %arg0, %[[X]] acc %[[Y]] {precision = #tpu.precision<default>} : tensor<7x300xf32>, tensor<300x1xf32>, tensor<7x1xf32> -> tensor<7x1xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0, 1]] : tensor<7x1xf32> into tensor<7xf32>
// CHECK: return %[[C]]
func.func @matvec(%a: tensor<7x300xf32>, %x: tensor<300xf32>, %y: tensor<7xf32>) -> tensor<7xf32> {
  %r = linalg.matvec ins(%a, %x : tensor<7x300xf32>, tensor<300xf32>) outs(%y : tensor<7xf32>) -> tensor<7xf32>
  return %r : tensor<7xf32>
}
