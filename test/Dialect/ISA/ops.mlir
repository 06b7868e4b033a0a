// tpu_isa round-trips in custom and generic form.
// RUN: tpu-opt %s | tpu-opt | FileCheck %s
// RUN: tpu-opt %s --mlir-print-op-generic | tpu-opt | FileCheck %s

// CHECK: tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>], results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>], useful_macs = 7 : i64} {
// CHECK-NEXT: hbm_data dense<2.000000e+00> : tensor<4xf32> at 9
// CHECK-NEXT: bundle {
// CHECK-NEXT:   inst s.li s1, -7
// CHECK-NEXT:   inst v.ld v2, s1, 16, s0, 0x0f
// CHECK-NEXT:   inst mxu.ldw 3, s1, s2
// CHECK-NEXT:   inst mxu.pop v5, 3, s4
// CHECK-NEXT:   inst dma.wait 7, 3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT:   inst v.rne.bf16 v1, v2
// CHECK-NEXT:   inst mxu.latch 3
// CHECK-NEXT:   inst jmp b0
// CHECK-NEXT: }
tpu_isa.program @main attributes {
    arguments = [#tpu_isa.tensor<"x", tensor<8x128xf32>, hbm = 0>],
    results = [#tpu_isa.tensor<"y", tensor<8x128xf32>, hbm = 1>],
    useful_macs = 7} {
  hbm_data dense<2.0> : tensor<4xf32> at 9
  bundle {
    inst s.li s1, -7
    inst v.ld v2, s1, 16, s0, 15
    inst mxu.ldw 3, s1, s2
    inst mxu.pop v5, 3, s4
    inst dma.wait 7, 3
  }
  bundle {
    inst v.rne.bf16 v1, v2
    inst mxu.latch 3
    inst jmp b0
  }
}
