// Round trip in the custom form, and through the generic form back again.
// RUN: tpu-opt %s | tpu-opt | FileCheck %s
// RUN: tpu-opt %s --mlir-print-op-generic | tpu-opt | FileCheck %s
// RUN: tpu-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

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
