// Each run of a pass starts from nothing: two nested modules holding the
// same matmul compile to the same program, with and without threading (a
// pass that kept state in its members once put all of @m1's program in
// front of @m2's).
// RUN: tpu-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(builtin.module(tpu-compile))' | FileCheck %s
// RUN: tpu-opt %s --pass-pipeline='builtin.module(builtin.module(tpu-compile))' | FileCheck %s
// RUN: tpu-opt %s --mlir-disable-threading --pass-pipeline='builtin.module(builtin.module(tpu-compile))' \
// RUN:   | awk '/module @m/ { m = $2 } /inst / { n[m]++ } END { print "m1", n["@m1"]; print "m2", n["@m2"] }' \
// RUN:   | FileCheck %s --check-prefix=COUNT
// RUN: tpu-opt %s --pass-pipeline='builtin.module(builtin.module(tpu-compile))' \
// RUN:   | awk '/module @m/ { m = $2 } /inst / { n[m]++ } END { print "m1", n["@m1"]; print "m2", n["@m2"] }' \
// RUN:   | FileCheck %s --check-prefix=COUNT

// CHECK-LABEL: module @m1
// CHECK: tpu_isa.program @main
// CHECK-COUNT-1: inst halt
// CHECK-NOT: inst halt
// CHECK-LABEL: module @m2
// CHECK: tpu_isa.program @main
// CHECK-COUNT-1: inst halt
// CHECK-NOT: inst halt

// COUNT: m1 [[N:[0-9]+]]
// COUNT-NEXT: m2 [[N]]

module {
  module @m1 attributes {tpu.chip = #tpu.chip<v4>} {
    func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
      %zero = arith.constant 0.0 : f32
      %empty = tensor.empty() : tensor<8x128xf32>
      %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x128xf32>) -> tensor<8x128xf32>
      %c = linalg.matmul ins(%a, %b : tensor<8x128xf32>, tensor<128x128xf32>) outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
      return %c : tensor<8x128xf32>
    }
  }
  module @m2 attributes {tpu.chip = #tpu.chip<v4>} {
    func.func @main(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
      %zero = arith.constant 0.0 : f32
      %empty = tensor.empty() : tensor<8x128xf32>
      %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x128xf32>) -> tensor<8x128xf32>
      %c = linalg.matmul ins(%a, %b : tensor<8x128xf32>, tensor<128x128xf32>) outs(%init : tensor<8x128xf32>) -> tensor<8x128xf32>
      return %c : tensor<8x128xf32>
    }
  }
}
