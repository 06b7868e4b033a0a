// export -> import -> export gives the same bytes, for every hand-written
// program in the suite; the imported MLIR lists the same bundles.
// RUN: tpu-translate --export-tpu-bin %s -o %t.1.tpu
// RUN: tpu-translate --import-tpu-bin %t.1.tpu -o %t.mlir
// RUN: tpu-translate --export-tpu-bin %t.mlir -o %t.2.tpu
// RUN: cmp %t.1.tpu %t.2.tpu
// RUN: FileCheck %s < %t.mlir
// RUN: tpu-translate --export-tpu-bin %tpu_src_root/examples/isa/matmul-highest.mlir -o %t.h1.tpu
// RUN: tpu-translate --import-tpu-bin %t.h1.tpu | tpu-translate --export-tpu-bin -o %t.h2.tpu
// RUN: cmp %t.h1.tpu %t.h2.tpu
// RUN: tpu-translate --export-tpu-bin %tpu_src_root/examples/isa/matmul-default.mlir -o %t.d1.tpu
// RUN: tpu-translate --import-tpu-bin %t.d1.tpu | tpu-translate --export-tpu-bin -o %t.d2.tpu
// RUN: cmp %t.d1.tpu %t.d2.tpu

// Source locations go into the binary's debug section and come back on
// import, so the round trip is exact with them too; a location that names
// no op (this file's own lines) is not kept.
// RUN: tpu-translate --export-tpu-bin %S/../tpu-sim/Inputs/profiled.mlir -o %t.l1.tpu
// RUN: tpu-translate --import-tpu-bin %t.l1.tpu -mlir-print-debuginfo -mlir-print-local-scope -o %t.l.mlir
// RUN: tpu-translate --export-tpu-bin %t.l.mlir -o %t.l2.tpu
// RUN: cmp %t.l1.tpu %t.l2.tpu
// RUN: FileCheck %s --check-prefix=LOC < %t.l.mlir
// LOC: inst s.li s1, 1 loc(unknown)
// LOC-NEXT: inst s.li s2, 1 loc("load"("m.py":1:1))
// LOC: inst v.add v1, v0, v0 loc("add"("m.py":2:5))
// LOC: inst halt loc("end")

// CHECK: module attributes {tpu.chip = #tpu.chip<v2>}
// CHECK: tpu_isa.program @entry attributes {arguments = [#tpu_isa.tensor<"x", tensor<3x5xi32>, hbm = 7>], results = [], useful_macs = 42 : i64}
// CHECK-NEXT: hbm_data dense<[1065353216, -1, 0]> : tensor<3xi32> at 100
// CHECK-NEXT: bundle {
// CHECK-NEXT:   inst s.li s1, -2147483648
// CHECK-NEXT:   inst v.ld v31, s1, -32768, s2, 0x80
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT:   inst br.ne s1, s2, b0
// CHECK-NEXT:   inst mxu.push 0, v3, s4, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT:   inst halt
// CHECK-NEXT: }
module attributes {tpu.chip = #tpu.chip<v2>} {
  tpu_isa.program @entry attributes {
      arguments = [#tpu_isa.tensor<"x", tensor<3x5xi32>, hbm = 7>],
      results = [], useful_macs = 42} {
    hbm_data dense<[1.0, 0xFFFFFFFF, 0.0]> : tensor<3xf32> at 100
    bundle {
      inst s.li s1, -2147483648
      inst v.ld v31, s1, -32768, s2, 0x80
    }
    bundle {
      inst br.ne s1, s2, b0
      inst mxu.push 0, v3, s4, 1
    }
    bundle {
      inst halt
    }
  }
}
