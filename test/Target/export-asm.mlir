// The listing: a header with chip, entry and signature, then a line a bundle.
// RUN: tpu-translate --export-tpu-asm %S/Inputs/double.mlir | FileCheck %s
// CHECK:      ; chip v4, entry main, 9 bundles, useful MACs 0
// CHECK-NEXT: ; argument x: f32[8, 128] @hbm 0
// CHECK-NEXT: ; result y: f32[8, 128] @hbm 1
// CHECK-NEXT: b0:     s.li s1, 1 ; s.li s2, 1
// CHECK-NEXT: b1:     dma.ld 0, s0, s0, s1, s1
// CHECK:      b5:     v.st v1, s0, 8, s1, 0xff ; s.li s3, 8
// CHECK:      b8:     halt
