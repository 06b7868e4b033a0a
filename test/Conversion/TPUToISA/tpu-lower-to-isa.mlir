// RUN: tpu-opt %s --tpu-lower-to-isa --split-input-file --verify-diagnostics | FileCheck %s
// RUN: tpu-opt %s --tpu-lower-to-isa --split-input-file --verify-diagnostics -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=LOC

// One instruction per bundle, in program order: a planned VMEM address is
// v.ld's and v.st's immediate (row 64), the others are added to their
// offsets (HBM tile 2), the loop is an induction register and a latch,
// scf.if a negated branch, minsi one s.min; s31 holds 1, s0 reads 0. A register is the one free the longest: the pop
// takes v4, not the v3 the pushes' operand left just before, so it need
// not wait for v3's readers. A constant an op before loaded in the same
// straight-line code is read where it is (the store's HBM tile 2, s7, the
// s.min's); the code after the scf.if's join label (the loop's latch)
// loads its own.
// CHECK: tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"arg0", tensor<16x128xf32>, hbm = 0>], results = [#tpu_isa.tensor<"result0", tensor<16x128xf32>, hbm = 2>], useful_macs = 7 : i64} {
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s31, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s1, 64
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s2, 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 0, s1, s0, s2, s31
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 0, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s3, s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s4, 8
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.mul s5, s3, s4
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.ld v0, s5, 64, s31, 0xff
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.trunc.bf16 v1, v0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.cmp.ne v2, v1, v1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.sel v3, v2, v0, v1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.ne s3, s0, b15
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst mxu.push 0, v3, s3, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst jmp b16
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst mxu.push 0, v3, s3, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst mxu.pop v4, 0, s3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.st v4, s5, 64, s31, 0xff
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s3, s3, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s6, 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.lt s3, s6, b6
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s7, 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s8, 8
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.min s9, s7, s8
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s10, 64
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.st 1, s7, s10, s9, s31
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 1, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst halt
// CHECK-NEXT: }

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%a: memref<16x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) -> memref<16x128xf32, #tiled, #tpu.memory_space<hbm>> attributes {tpu.useful_macs = 7 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %out = memref.alloc() {tpu.address = 2 : i64} : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
    %buf = memref.alloc() {tpu.address = 64 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>
    tpu.dma_load %a[%c0, stride %c1] to %buf[%c0] tiles %c2 sem 0 : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<16x128xf32, #tpu.memory_space<vmem>>
    tpu.dma_wait sem 0 count 1
    scf.for %i = %c0 to %c2 step %c1 {
      %row = arith.muli %i, %c8 : index
      %x = tpu.vector_load %buf[%row] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %r = tpu.round_to_bf16 %x {rounding = #tpu.rounding<trunc>} : vector<8x128xf32>
      %nan = arith.cmpf une, %r, %r : vector<8x128xf32>
      %s = arith.select %nan, %x, %r : vector<8x128xi1>, vector<8x128xf32>
      %is0 = arith.cmpi eq, %i, %c0 : index
      scf.if %is0 {
        tpu.mxu_push %s to mxu 0 slot %i : vector<8x128xf32>
      } else {
        tpu.mxu_push %s to mxu 0 slot %i accumulate : vector<8x128xf32>
      }
      %p = tpu.mxu_pop mxu 0 slot %i : vector<8x128xf32>
      tpu.vector_store %p, %buf[%row] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
    }
    %n = arith.minsi %c2, %c8 : index
    tpu.dma_store %buf[%c0] to %out[%c0, stride %c1] tiles %n sem 1 : memref<16x128xf32, #tpu.memory_space<vmem>>, memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
    tpu.dma_wait sem 1 count 1
    return %out : memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
  }
}

// -----

// An scf.if whose branch_weights make one part rare (the kernels' ifRarely
// and ifUsually) has that part after the halt, reached by a branch the
// common path does not take and ending in a jump back to the bundle after
// that branch, so that path runs straight through: the rare then part
// (k == 0) behind br.eq (at b19, back to b3), the rare else part (the
// last k) behind the negated test (at b21, back to b7). A rare then part
// on a conjunction branches on its first operand (k == 0 again) and tests
// the second there (2 < k), going back unless it holds (at b23, to b8);
// on a conjunction whose first operand is one too it stays in line, a
// negated branch on each operand (to the latch, b15).
// CHECK: tpu_isa.program @main
// CHECK: inst s.addi s[[K:[0-9]+]], s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.eq s[[K]], s0, b19
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s[[NEXT:[0-9]+]], s[[K]], 1
// CHECK: inst br.ge s[[NEXT]], s{{[0-9]+}}, b21
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 2, 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.eq s[[K]], s0, b23
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 5, 5
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.ne s[[K]], s0, b15
// CHECK: inst br.ge s{{[0-9]+}}, s[[K]], b15
// CHECK: inst br.ge s[[NEXT]], s{{[0-9]+}}, b15
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 6, 6
// CHECK: inst br.lt s[[K]], s{{[0-9]+}}, b
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst halt
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 1, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst jmp b3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 3, 3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst jmp b7
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s[[TWO:[0-9]+]], 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.ge s[[TWO]], s[[K]], b8
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 4, 4
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst jmp b8
// CHECK-NEXT: }
// CHECK-NEXT: }
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        tpu.dma_wait sem 1 count 1
      } {branch_weights = array<i32: 1, 100>}
      %next = arith.addi %k, %c1 : index
      %hasNext = arith.cmpi slt, %next, %c8 : index
      scf.if %hasNext {
        tpu.dma_wait sem 2 count 2
      } else {
        tpu.dma_wait sem 3 count 3
      } {branch_weights = array<i32: 100, 1>}
      %late = arith.cmpi slt, %c2, %k : index
      %both = arith.andi %first, %late : i1
      scf.if %both {
        tpu.dma_wait sem 4 count 4
      } {branch_weights = array<i32: 1, 100>}
      tpu.dma_wait sem 5 count 5
      %all = arith.andi %both, %hasNext : i1
      scf.if %all {
        tpu.dma_wait sem 6 count 6
      } {branch_weights = array<i32: 1, 100>}
    }
    return
  }
}

// -----

// A rare then part on a conjunction with an else part: where the first
// operand holds (k == 0, the branch to b9) and the rest does not (2 < k),
// the cold part goes to the else part (b3), not past it.
// CHECK: tpu_isa.program @main
// CHECK: inst s.addi s[[K:[0-9]+]], s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.eq s[[K]], s0, b9
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 2, 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 3, 3
// CHECK: inst halt
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li s[[TWO:[0-9]+]], 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.ge s[[TWO]], s[[K]], b3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 1, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst jmp b4
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %first = arith.cmpi eq, %k, %c0 : index
      %late = arith.cmpi slt, %c2, %k : index
      %both = arith.andi %first, %late : i1
      scf.if %both {
        tpu.dma_wait sem 1 count 1
      } else {
        tpu.dma_wait sem 2 count 2
      } {branch_weights = array<i32: 1, 100>}
      tpu.dma_wait sem 3 count 3
    }
    return
  }
}

// -----

// A loop runs at least once where its bounds are one value plus constants
// a positive span apart (a kernel's loop over a chunk's rows, from row + 0
// to row + 896, say): no guard before it. A loop from 0 to i, which may
// run zero times, keeps its guard.
// CHECK: tpu_isa.program @main
// CHECK: inst s.addi s[[I:[0-9]+]], s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s[[END:[0-9]+]], s[[I]], 64
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s[[J:[0-9]+]], s[[I]], 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 1, 1
// CHECK: inst br.lt s[[J]], s[[END]], b4
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi s[[J2:[0-9]+]], s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.ge s[[J2]], s[[I]], b12
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 2, 2
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %end = arith.addi %i, %c64 : index
      scf.for %j = %i to %end step %c1 {
        tpu.dma_wait sem 1 count 1
      }
      scf.for %j = %c0 to %i step %c1 {
        tpu.dma_wait sem 2 count 2
      }
    }
    return
  }
}

// -----

// expected-error @+1 {{tpu-lower-to-isa: arg0 of @main must be a planned f32 or bf16 HBM buffer (run tpu-bufferize, tpu-lower-to-mxu and tpu-plan-memory first), got 'memref<8x128xf32, #tpu.memory_space<hbm>>'}}
func.func @main(%a: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<8x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{tpu-lower-to-isa: buffer has no address (run tpu-plan-memory first)}}
  %x = tpu.vector_load %buf[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tpu-lower-to-isa: cannot lower 'arith.divui' to instructions; expected the loop-level ops tpu-lower-to-mxu produces}}
  %q = arith.divui %c0, %c0 : index
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tpu-lower-to-isa: loop steps must be positive constants}}
  scf.for %i = %c0 to %c1 step %c0 {
  }
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tpu-lower-to-isa: loops with iteration arguments are not supported}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %c0) -> index {
    scf.yield %x : index
  }
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tpu-lower-to-isa: only slt and sgt comparisons produce a value; other predicates may only be branch conditions}}
  %e = arith.cmpi eq, %c0, %c1 : index
  %s = arith.select %e, %c0, %c1 : index
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{tpu-lower-to-isa: unsigned comparisons have no branch instruction}}
  %e = arith.cmpi ult, %c0, %c1 : index
  scf.if %e {
  }
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
  %v = tpu.vector_load %buf[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  // expected-error @+1 {{tpu-lower-to-isa: vector comparison 'one' has no instruction; use oeq, une, olt, ole, ogt or oge}}
  %e = arith.cmpf one, %v, %v : vector<8x128xf32>
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = arith.cmpi slt, %c0, %c1 : index
  // expected-error @+1 {{tpu-lower-to-isa: scf.if with results is not supported}}
  %r = scf.if %e -> index {
    scf.yield %c0 : index
  } else {
    scf.yield %c1 : index
  }
  return
}

// -----

// More vector values live at once than there are vregs.
func.func @main() {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
  %x0 = tpu.vector_load %buf[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %x1 = arith.addf %x0, %x0 : vector<8x128xf32>
  %x2 = arith.addf %x1, %x0 : vector<8x128xf32>
  %x3 = arith.addf %x2, %x1 : vector<8x128xf32>
  %x4 = arith.addf %x3, %x2 : vector<8x128xf32>
  %x5 = arith.addf %x4, %x3 : vector<8x128xf32>
  %x6 = arith.addf %x5, %x4 : vector<8x128xf32>
  %x7 = arith.addf %x6, %x5 : vector<8x128xf32>
  %x8 = arith.addf %x7, %x6 : vector<8x128xf32>
  %x9 = arith.addf %x8, %x7 : vector<8x128xf32>
  %x10 = arith.addf %x9, %x8 : vector<8x128xf32>
  %x11 = arith.addf %x10, %x9 : vector<8x128xf32>
  %x12 = arith.addf %x11, %x10 : vector<8x128xf32>
  %x13 = arith.addf %x12, %x11 : vector<8x128xf32>
  %x14 = arith.addf %x13, %x12 : vector<8x128xf32>
  %x15 = arith.addf %x14, %x13 : vector<8x128xf32>
  %x16 = arith.addf %x15, %x14 : vector<8x128xf32>
  %x17 = arith.addf %x16, %x15 : vector<8x128xf32>
  %x18 = arith.addf %x17, %x16 : vector<8x128xf32>
  %x19 = arith.addf %x18, %x17 : vector<8x128xf32>
  %x20 = arith.addf %x19, %x18 : vector<8x128xf32>
  %x21 = arith.addf %x20, %x19 : vector<8x128xf32>
  %x22 = arith.addf %x21, %x20 : vector<8x128xf32>
  %x23 = arith.addf %x22, %x21 : vector<8x128xf32>
  %x24 = arith.addf %x23, %x22 : vector<8x128xf32>
  %x25 = arith.addf %x24, %x23 : vector<8x128xf32>
  %x26 = arith.addf %x25, %x24 : vector<8x128xf32>
  %x27 = arith.addf %x26, %x25 : vector<8x128xf32>
  %x28 = arith.addf %x27, %x26 : vector<8x128xf32>
  %x29 = arith.addf %x28, %x27 : vector<8x128xf32>
  %x30 = arith.addf %x29, %x28 : vector<8x128xf32>
  %x31 = arith.addf %x30, %x29 : vector<8x128xf32>
  // expected-error @+1 {{tpu-lower-to-isa: out of vector registers: 32 values and 0 temporaries are live here, and the allocator does not spill; split the computation so fewer values are live at once}}
  %x32 = arith.addf %x31, %x30 : vector<8x128xf32>
  %all = arith.addf %x0, %x1 : vector<8x128xf32>
  %a2 = arith.addf %all, %x2 : vector<8x128xf32>
  %a3 = arith.addf %a2, %x3 : vector<8x128xf32>
  %a4 = arith.addf %a3, %x4 : vector<8x128xf32>
  %a5 = arith.addf %a4, %x5 : vector<8x128xf32>
  %a6 = arith.addf %a5, %x6 : vector<8x128xf32>
  %a7 = arith.addf %a6, %x7 : vector<8x128xf32>
  %a8 = arith.addf %a7, %x8 : vector<8x128xf32>
  %a9 = arith.addf %a8, %x9 : vector<8x128xf32>
  %a10 = arith.addf %a9, %x10 : vector<8x128xf32>
  %a11 = arith.addf %a10, %x11 : vector<8x128xf32>
  %a12 = arith.addf %a11, %x12 : vector<8x128xf32>
  %a13 = arith.addf %a12, %x13 : vector<8x128xf32>
  %a14 = arith.addf %a13, %x14 : vector<8x128xf32>
  %a15 = arith.addf %a14, %x15 : vector<8x128xf32>
  %a16 = arith.addf %a15, %x16 : vector<8x128xf32>
  %a17 = arith.addf %a16, %x17 : vector<8x128xf32>
  %a18 = arith.addf %a17, %x18 : vector<8x128xf32>
  %a19 = arith.addf %a18, %x19 : vector<8x128xf32>
  %a20 = arith.addf %a19, %x20 : vector<8x128xf32>
  %a21 = arith.addf %a20, %x21 : vector<8x128xf32>
  %a22 = arith.addf %a21, %x22 : vector<8x128xf32>
  %a23 = arith.addf %a22, %x23 : vector<8x128xf32>
  %a24 = arith.addf %a23, %x24 : vector<8x128xf32>
  %a25 = arith.addf %a24, %x25 : vector<8x128xf32>
  %a26 = arith.addf %a25, %x26 : vector<8x128xf32>
  %a27 = arith.addf %a26, %x27 : vector<8x128xf32>
  %a28 = arith.addf %a27, %x28 : vector<8x128xf32>
  %a29 = arith.addf %a28, %x29 : vector<8x128xf32>
  %a30 = arith.addf %a29, %x30 : vector<8x128xf32>
  %a31 = arith.addf %a30, %x31 : vector<8x128xf32>
  %a32 = arith.addf %a31, %x32 : vector<8x128xf32>
  return
}

// -----

// An address beyond what an instruction's immediate holds.
// expected-error @+1 {{tpu-lower-to-isa: the program cannot be encoded:}}
func.func @main() {
  %far = arith.constant 5000000000 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
  %x = tpu.vector_load %buf[%far] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}

// -----

// A 128 x 128 transpose: v0..v15 in, v.xpose, v16..v31 out.
// CHECK: tpu_isa.program @main
// CHECK: inst s.li [[SRC:s[0-9]+]], 128
// CHECK: inst v.ld v0, [[SRC]], 0, s31, 0xff
// CHECK: inst v.ld v15, [[SRC]], 120, s31, 0xff
// CHECK: inst v.xpose v16, v0
// CHECK: inst v.st v16, s0, 0, s31, 0xff
// CHECK: inst v.st v31, s0, 120, s31, 0xff
func.func @main() {
  %c0 = arith.constant 0 : index
  %in = memref.alloc() {tpu.address = 128 : i64} : memref<128x128xf32, #tpu.memory_space<vmem>>
  %out = memref.alloc() {tpu.address = 0 : i64} : memref<128x128xf32, #tpu.memory_space<vmem>>
  tpu.transpose_block %in[%c0] to %out[%c0] : memref<128x128xf32, #tpu.memory_space<vmem>>, memref<128x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// Sublane strides: 1 (s31), 0 (s0, a sublane broadcast), and any other
// loaded into a register (a stride-2 window's columns).
// CHECK: tpu_isa.program @main
// CHECK: inst v.ld [[A:v[0-9]+]], s0, 0, s31, 0xff
// CHECK: inst v.ld [[B:v[0-9]+]], s0, 0, s0, 0xff
// CHECK: inst s.li [[TWO:s[0-9]+]], 2
// CHECK: inst v.ld [[C:v[0-9]+]], s0, 0, [[TWO]], 0xff
func.func @main() {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>
  %a = tpu.vector_load %buf[%c0] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %b = tpu.vector_load %buf[%c0] {sublane_stride = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %c = tpu.vector_load %buf[%c0] {sublane_stride = 2 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %s = arith.addf %a, %b : vector<8x128xf32>
  %t = arith.addf %s, %c : vector<8x128xf32>
  tpu.vector_store %t, %buf[%c0] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @main() {
  %c0 = arith.constant 0 : index
  %in = memref.alloc() {tpu.address = 0 : i64} : memref<128x128xf32, #tpu.memory_space<vmem>>
  %x = tpu.vector_load %in[%c0] : memref<128x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  // expected-error @+1 {{tpu-lower-to-isa: tpu.transpose_block needs all vector registers, but a vector value is live across it}}
  tpu.transpose_block %in[%c0] to %in[%c0] : memref<128x128xf32, #tpu.memory_space<vmem>>, memref<128x128xf32, #tpu.memory_space<vmem>>
  tpu.vector_store %x, %in[%c0] : vector<8x128xf32>, memref<128x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// The elementwise ops of VpuOps.def, one instruction each, operands in
// order; a splat constant is broadcast from a scalar register.
// CHECK: tpu_isa.program @main
// CHECK: inst v.ld [[A:v[0-9]+]], s0, 0, s31, 0xff
// CHECK: inst v.ld [[B:v[0-9]+]], s0, 8, s31, 0xff
// CHECK: inst v.add [[S:v[0-9]+]], [[A]], [[B]]
// CHECK: inst v.sub [[D:v[0-9]+]], [[S]], [[B]]
// CHECK: inst v.mul [[M:v[0-9]+]], [[D]], [[A]]
// CHECK: inst v.max [[X:v[0-9]+]], [[M]], [[B]]
// CHECK: inst s.li [[H:s[0-9]+]], 1056964608
// CHECK: inst v.bcast [[HALF:v[0-9]+]], [[H]]
// CHECK: inst v.min [[N:v[0-9]+]], [[X]], [[HALF]]
// CHECK: inst v.div [[Q:v[0-9]+]], [[N]], [[A]]
// CHECK: inst v.st [[Q]], s0, 0, s31, 0xff
func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>
  %a = tpu.vector_load %buf[%c0] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %b = tpu.vector_load %buf[%c8] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %s = arith.addf %a, %b : vector<8x128xf32>
  %d = arith.subf %s, %b : vector<8x128xf32>
  %m = arith.mulf %d, %a : vector<8x128xf32>
  %x = arith.maximumf %m, %b : vector<8x128xf32>
  %half = arith.constant dense<0.5> : vector<8x128xf32>
  %n = arith.minimumf %x, %half : vector<8x128xf32>
  %q = arith.divf %n, %a : vector<8x128xf32>
  tpu.vector_store %q, %buf[%c0] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  func.return
}

// -----

// The VPU's table rows (VpuOps.def) are one instruction each; ogt and oge
// are olt and ole with the operands swapped; a float constant is a
// broadcast of its bits.
// CHECK: inst v.ld v[[A:[0-9]+]], s0, 0, s31, 0xff
// CHECK: inst v.ld v[[B:[0-9]+]], s0, 8, s31, 0xff
// CHECK: inst v.cmp.lt v[[GT:[0-9]+]], v[[B]], v[[A]]
// CHECK: inst v.cmp.le v[[GE:[0-9]+]], v[[B]], v[[A]]
// CHECK: inst v.neg v[[N:[0-9]+]], v[[A]]
// CHECK: inst v.exp v[[E:[0-9]+]], v[[N]]
// CHECK: inst v.abs v[[ABS:[0-9]+]], v[[E]]
// CHECK: inst v.sel v[[S:[0-9]+]], v[[GT]], v[[ABS]], v[[B]]
// CHECK: inst s.li s[[BITS:[0-9]+]], 1069547520
// CHECK: inst v.bcast v[[HALF:[0-9]+]], s[[BITS]]
// CHECK: inst v.sel v{{[0-9]+}}, v[[GE]], v[[S]], v[[HALF]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>
  %a = tpu.vector_load %buf[%c0] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %b = tpu.vector_load %buf[%c8] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %gt = arith.cmpf ogt, %a, %b : vector<8x128xf32>
  %ge = arith.cmpf oge, %a, %b : vector<8x128xf32>
  %n = arith.negf %a : vector<8x128xf32>
  %e = math.exp %n : vector<8x128xf32>
  %abs = math.absf %e : vector<8x128xf32>
  %s = arith.select %gt, %abs, %b : vector<8x128xi1>, vector<8x128xf32>
  %c = arith.constant dense<1.5> : vector<8x128xf32>
  %t = arith.select %ge, %s, %c : vector<8x128xi1>, vector<8x128xf32>
  tpu.vector_store %t, %buf[%c0] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// A sublane broadcast reads with stride s0 (zero); a masked store names
// its sublanes.
// CHECK: inst v.ld v[[ROW:[0-9]+]], s0, 0, s0, 0xff
// CHECK: inst v.st v[[ROW]], s0, 0, s31, 0x7f
func.func @main() {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
  %row = tpu.vector_load %buf[%c0] {sublane_stride = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  tpu.vector_store %row, %buf[%c0] {sublane_mask = 127 : i64} : vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// Reductions' vreg ops: a lane mask from a count, each kind's lane
// reduction, a lane broadcast.
// CHECK: inst s.li s[[N:[0-9]+]], 44
// CHECK: inst v.lmask v{{[0-9]+}}, s[[N]]
// CHECK: inst v.rsum
// CHECK: inst v.rmax
// CHECK: inst v.rmin
// CHECK: inst v.lbcast
func.func @main() {
  %c0 = arith.constant 0 : index
  %c44 = arith.constant 44 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
  %v = tpu.vector_load %buf[%c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %mask = tpu.lane_mask %c44 : vector<8x128xi1>
  %z = arith.constant dense<0.0> : vector<8x128xf32>
  %m = arith.select %mask, %v, %z : vector<8x128xi1>, vector<8x128xf32>
  %s = tpu.lane_reduce %m {kind = #tpu.reduction<sum>} : vector<8x128xf32>
  %x = tpu.lane_reduce %s {kind = #tpu.reduction<max>} : vector<8x128xf32>
  %n = tpu.lane_reduce %x {kind = #tpu.reduction<min>} : vector<8x128xf32>
  %b = tpu.lane_broadcast %n : vector<8x128xf32>
  tpu.vector_store %b, %buf[%c0] : vector<8x128xf32>, memref<8x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// Each constant global the entry reads is HBM data at its planned tile:
// its zero-padded tiled image, f32 as its bits, bf16 packed: rows 0-7 of
// a 16-row tile in the low halves of the words (bf16 1.5 is 0x3FC0 in word
// 0; row 1 starts 128 words on). A result may be a constant. The globals
// go; one the entry does not read stays.
// CHECK: memref.global "private" constant @unread
// CHECK-NOT: memref.global
// CHECK: tpu_isa.program @main attributes {arguments = [], results = [#tpu_isa.tensor<"result0", tensor<1x2xf32>, hbm = 3>]
// CHECK-NEXT: hbm_data dense<"0x0000803F00000040{{0+}}"> : tensor<1024xi32> at 3
// CHECK-NEXT: hbm_data dense<"0xC03F0000{{((00000000){127})}}00C00000{{0+}}"> : tensor<1024xi32> at 4
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
module {
  memref.global "private" constant @w : memref<1x2xf32, #tiled, #tpu.memory_space<hbm>> = dense<[[1.0, 2.0]]> {tpu.address = 3 : i64}
  memref.global "private" constant @h : memref<2x1xbf16, #packed, #tpu.memory_space<hbm>> = dense<[[1.5], [-2.0]]> {tpu.address = 4 : i64}
  memref.global "private" constant @unread : memref<2x1xbf16, #packed, #tpu.memory_space<hbm>> = dense<1.0>
  func.func @main() -> memref<1x2xf32, #tiled, #tpu.memory_space<hbm>> {
    %w = memref.get_global @w : memref<1x2xf32, #tiled, #tpu.memory_space<hbm>>
    %h = memref.get_global @h : memref<2x1xbf16, #packed, #tpu.memory_space<hbm>>
    return %w : memref<1x2xf32, #tiled, #tpu.memory_space<hbm>>
  }
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module {
  memref.global "private" constant @w : memref<1x2xf32, #tiled, #tpu.memory_space<hbm>> = dense<[[1.0, 2.0]]>
  func.func @main() {
    // expected-error @+1 {{tpu-lower-to-isa: w must be a planned constant global with dense values (run tpu-bufferize and tpu-plan-memory first)}}
    %w = memref.get_global @w : memref<1x2xf32, #tiled, #tpu.memory_space<hbm>>
    return
  }
}

// -----

// A compare only a branch uses is selected into the branch, which reads
// its operands there: i + 1 keeps its register until the branch.
// CHECK: inst s.addi [[NEXT:s[0-9]+]], {{s[0-9]+}}, 1
// CHECK-NOT: inst {{[a-z.]+}} [[NEXT]],
// CHECK: inst br.ge [[NEXT]],
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %next = arith.addi %i, %c1 : index
    %more = arith.cmpi slt, %next, %c2 : index
    scf.if %more {
      tpu.dma_wait sem 0 count 1
    }
  }
  return
}

// -----

// A VMEM row whose constant does not fit v.ld's 16-bit immediate with
// the base keeps the base there and the offset in a register; a base that
// does not fit (past VMEM's rows, which tpu-plan-memory never plans) is
// added to the offset.
// CHECK: tpu_isa.program @main
// CHECK: inst s.li [[SIXTEEN:s[0-9]+]], 16
// CHECK: inst v.ld [[X:v[0-9]+]], [[SIXTEEN]], 32760, s31, 0xff
// CHECK: inst s.addi [[ROW:s[0-9]+]], {{s[0-9]+}}, 40000
// CHECK: inst v.st [[X]], [[ROW]], 0, s31, 0xff
func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %near = memref.alloc() {tpu.address = 32760 : i64} : memref<24x128xf32, #tpu.memory_space<vmem>>
  %far = memref.alloc() {tpu.address = 40000 : i64} : memref<24x128xf32, #tpu.memory_space<vmem>>
  %x = tpu.vector_load %near[%c16] : memref<24x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  scf.for %row = %c0 to %c16 step %c8 {
    tpu.vector_store %x, %far[%row] : vector<8x128xf32>, memref<24x128xf32, #tpu.memory_space<vmem>>
  }
  func.return
}

// -----

// A row x + c that only v.ld and v.st take is x's register with c added
// to their immediates (the buffer's base 64, 16 + 64, 8 + 64): the add
// has no s.addi. One that another op reads too (the push's slot) is an
// s.addi, and so is one whose constant does not fit the immediate with
// the base (32760 + 64).
// CHECK: tpu_isa.program @main
// CHECK: inst s.mul [[X:s[0-9]+]], {{s[0-9]+}}, {{s[0-9]+}}
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.ld [[A:v[0-9]+]], [[X]], 80, s31, 0xff
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.st [[A]], [[X]], 72, s31, 0xff
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[SLOT:s[0-9]+]], [[X]], 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.ld [[B:v[0-9]+]], [[SLOT]], 64, s31, 0xff
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst mxu.push 0, [[B]], [[SLOT]], 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[FAR:s[0-9]+]], [[X]], 32760
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst v.st [[B]], [[FAR]], 64, s31, 0xff
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32760 = arith.constant 32760 : index
  %buf = memref.alloc() {tpu.address = 64 : i64} : memref<40000x128xf32, #tpu.memory_space<vmem>>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = arith.muli %i, %i : index
    %plus16 = arith.addi %x, %c16 : index
    %plus8 = arith.addi %c8, %x : index
    %a = tpu.vector_load %buf[%plus16] : memref<40000x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %a, %buf[%plus8] : vector<8x128xf32>, memref<40000x128xf32, #tpu.memory_space<vmem>>
    %slot = arith.addi %x, %c1 : index
    %b = tpu.vector_load %buf[%slot] : memref<40000x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.mxu_push %b to mxu 0 slot %slot : vector<8x128xf32>
    %far = arith.addi %x, %c32760 : index
    tpu.vector_store %b, %buf[%far] : vector<8x128xf32>, memref<40000x128xf32, #tpu.memory_space<vmem>>
  }
  func.return
}

// -----

// Each instruction carries the named location of the op it was selected
// for (the source op, tpu-name-locations): a loop's own instructions (the
// induction register, the latch) the loop's, an op without a named
// location the enclosing op's, and the prologue the function's.
// LOC: inst s.li s31, 1 loc("func.func"("m.py":1:1))
// LOC-NEXT: }
// LOC: inst s.addi [[I:s[0-9]+]], s0, 0 loc("scf.for"("m.py":3:1))
// LOC: inst dma.wait 0, 1 loc("tpu.dma_wait"("m.py":4:1))
// LOC: inst dma.wait 1, 1 loc("scf.for"("m.py":3:1))
// LOC: inst s.addi [[I]], [[I]], 1 loc("scf.for"("m.py":3:1))
// LOC: inst br.lt [[I]], {{.*}} loc("scf.for"("m.py":3:1))
// LOC: inst halt loc("func.return"("m.py":6:1))
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    tpu.dma_wait sem 0 count 1 loc("tpu.dma_wait"("m.py":4:1))
    tpu.dma_wait sem 1 count 1 loc("m.py":5:1)
  } loc("scf.for"("m.py":3:1))
  return loc("func.return"("m.py":6:1))
} loc("func.func"("m.py":1:1))

// -----

// An op that reads one constant twice loads it once: a DMA of 16 tiles
// at a stride of 16, and a VMEM row of 16 (the buffer's 0 plus 16), read
// the one temporary. The next op in the same straight-line code reads it
// too (a few constants are kept from op to op). Code a branch lands in
// loads its own: the scf.if's then part, and the code after it, which
// the branch that skips the then part reaches.
// CHECK: tpu_isa.program @main
// CHECK: inst s.li [[SIXTEEN:s[0-9]+]], 16
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 0, [[SIXTEEN]], s0, [[SIXTEEN]], [[SIXTEEN]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 1, s0, s0, [[SIXTEEN]], [[SIXTEEN]]
// CHECK: inst br.ne
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li [[THEN:s[0-9]+]], 16
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 2, s0, s0, [[THEN]], [[THEN]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.wait 2, 1
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li [[JOIN:s[0-9]+]], 16
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 3, s0, s0, [[JOIN]], [[JOIN]]
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%hbm: memref<256x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %buf = memref.alloc() {tpu.address = 0 : i64} : memref<256x128xf32, #tpu.memory_space<vmem>>
    tpu.dma_load %hbm[%c0, stride %c16] to %buf[%c16] tiles %c16 sem 0 : memref<256x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<256x128xf32, #tpu.memory_space<vmem>>
    tpu.dma_load %hbm[%c0, stride %c16] to %buf[%c0] tiles %c16 sem 1 : memref<256x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<256x128xf32, #tpu.memory_space<vmem>>
    tpu.dma_wait sem 0 count 1
    tpu.dma_wait sem 1 count 1
    scf.for %i = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        tpu.dma_load %hbm[%c0, stride %c16] to %buf[%c0] tiles %c16 sem 2 : memref<256x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<256x128xf32, #tpu.memory_space<vmem>>
        tpu.dma_wait sem 2 count 1
      }
      tpu.dma_load %hbm[%c0, stride %c16] to %buf[%c0] tiles %c16 sem 3 : memref<256x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<256x128xf32, #tpu.memory_space<vmem>>
      tpu.dma_wait sem 3 count 1
    }
    return
  }
}

// -----

// A DMA's VMEM row or HBM tile x + c (and a weight load's row) is one
// s.addi: c and the buffer's base in its immediate, the add no
// instruction of its own. An x + c also used as a count stays an add.
// CHECK: tpu_isa.program @main
// CHECK: inst s.addi [[I:s[0-9]+]], s0, 0
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[ROW:s[0-9]+]], [[I]], 192
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[TILE:s[0-9]+]], [[I]], 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 0, [[ROW]], [[TILE]], s31, s31
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[WROW:s[0-9]+]], [[I]], 72
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li [[EIGHT:s[0-9]+]], 8
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst mxu.ldw 0, [[WROW]], [[EIGHT]]
// CHECK: inst s.addi [[N:s[0-9]+]], [[I]], 3
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.addi [[NROW:s[0-9]+]], [[N]], 64
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 1, [[NROW]], s0, [[N]], s31
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%hbm: memref<64x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    %buf = memref.alloc() {tpu.address = 64 : i64} : memref<512x128xf32, #tpu.memory_space<vmem>>
    scf.for %i = %c0 to %c4 step %c1 {
      %row = arith.addi %i, %c128 : index
      %tile = arith.addi %i, %c2 : index
      tpu.dma_load %hbm[%tile, stride %c1] to %buf[%row] tiles %c1 sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<512x128xf32, #tpu.memory_space<vmem>>
      %wrow = arith.addi %i, %c8 : index
      tpu.mxu_load_weights %buf[%wrow, stride %c8] mxu 0 : memref<512x128xf32, #tpu.memory_space<vmem>>
      %n = arith.addi %i, %c3 : index
      tpu.dma_load %hbm[%c0, stride %c1] to %buf[%n] tiles %n sem 1 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<512x128xf32, #tpu.memory_space<vmem>>
    }
    tpu.dma_wait sem 0 count 4
    tpu.dma_wait sem 1 count 4
    return
  }
}

// -----

// A branch to a jump goes where the jump goes: the inner scf.if skips its
// then part to the end of the outer then part, whose jump skips the else
// part; the inner branch skips both at once.
// CHECK: tpu_isa.program @main
// CHECK: inst br.ge {{s[0-9]+}}, s31, b[[END:[0-9]+]]
// CHECK: inst jmp b[[END]]
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%hbm: memref<64x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() {tpu.address = 64 : i64} : memref<64x128xf32, #tpu.memory_space<vmem>>
    scf.for %i = %c0 to %c4 step %c1 {
      %a = arith.cmpi slt, %i, %c2 : index
      scf.if %a {
        %b = arith.cmpi slt, %i, %c1 : index
        scf.if %b {
          tpu.dma_load %hbm[%c0, stride %c1] to %buf[%c0] tiles %c1 sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
        }
      } else {
        tpu.dma_load %hbm[%c1, stride %c1] to %buf[%c0] tiles %c1 sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
      }
    }
    tpu.dma_wait sem 0 count 3
    return
  }
}

// -----

// A conjunction of branch conditions (tpu-canonicalize makes one of nested
// scf.ifs) is a branch on each to the same label: an eq compare, which has
// no instruction that makes its value, stays a branch condition.
// CHECK: tpu_isa.program @main
// CHECK-NOT: s.and
// CHECK: inst br.ne [[I:s[0-9]+]], s0, b[[SKIP:[0-9]+]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li [[TWO:s[0-9]+]], 2
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst br.eq {{s[0-9]+}}, [[TWO]], b[[SKIP]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.li
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst dma.ld 0
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%hbm: memref<64x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() {tpu.address = 64 : i64} : memref<64x128xf32, #tpu.memory_space<vmem>>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %a = arith.cmpi eq, %i, %c0 : index
        %b = arith.cmpi ne, %j, %c2 : index
        %both = arith.andi %a, %b : i1
        scf.if %both {
          tpu.dma_load %hbm[%c0, stride %c1] to %buf[%c0] tiles %c1 sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
        }
      }
    }
    tpu.dma_wait sem 0 count 3
    return
  }
}

// -----

// A scalar select is b + cond * (a - b), cond being 0 or 1; with b 0 it
// is a * cond, one s.mul (the kernels' DMA counts that are 0 past the
// last block).
// CHECK: tpu_isa.program @main
// CHECK: inst s.slt [[C:s[0-9]+]], [[I:s[0-9]+]], {{s[0-9]+}}
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.mul [[N:s[0-9]+]], [[I]], [[C]]
// CHECK: inst dma.ld 0, {{s[0-9]+}}, s0, [[N]], s31
// CHECK: inst s.li [[FOUR:s[0-9]+]], 4
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.sub [[D:s[0-9]+]], [[I]], [[FOUR]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.mul [[D]], [[D]], [[C]]
// CHECK-NEXT: }
// CHECK-NEXT: bundle {
// CHECK-NEXT: inst s.add [[M:s[0-9]+]], [[FOUR]], [[D]]
// CHECK: inst dma.ld 0, {{s[0-9]+}}, s0, [[M]], s31
// A constant i1 true is 1 (s31), not -1: the select is the value itself.
// CHECK: inst s.mul [[K:s[0-9]+]], [[I]], s31
// CHECK: inst dma.ld 0, {{s[0-9]+}}, s0, [[K]], s31
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%hbm: memref<64x128xf32, #tiled, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %buf = memref.alloc() {tpu.address = 64 : i64} : memref<64x128xf32, #tpu.memory_space<vmem>>
    scf.for %i = %c0 to %c4 step %c1 {
      %c = arith.cmpi slt, %i, %c2 : index
      %n = arith.select %c, %i, %c0 : index
      tpu.dma_load %hbm[%c0, stride %c1] to %buf[%c0] tiles %n sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
      %m = arith.select %c, %i, %c4 : index
      tpu.dma_load %hbm[%c0, stride %c1] to %buf[%c0] tiles %m sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
      %true = arith.constant true
      %k = arith.select %true, %i, %c0 : index
      tpu.dma_load %hbm[%c0, stride %c1] to %buf[%c0] tiles %k sem 0 : memref<64x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<64x128xf32, #tpu.memory_space<vmem>>
    }
    tpu.dma_wait sem 0 count 12
    return
  }
}

// -----

// More scalar values live at once than there are registers besides the
// kept constants: the allocator gives a kept constant's register back
// (the oldest, which the op does not read) rather than running out; the
// constant is loaded again where it is read next.
// CHECK: tpu_isa.program @main
// CHECK: inst s.li [[THREE:s[0-9]+]], 3
// CHECK: inst s.mul {{s[0-9]+}}, {{s[0-9]+}}, [[THREE]]
// CHECK: inst s.li {{s[0-9]+}}, 3
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %buf = memref.alloc() {tpu.address = 0 : i64} : memref<8192x128xf32, #tpu.memory_space<vmem>>
  scf.for %i = %c0 to %c2 step %c1 {
    %k3 = arith.constant 3 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    %k7 = arith.constant 7 : index
    %k9 = arith.constant 9 : index
    %k10 = arith.constant 10 : index
    %m0 = arith.muli %i, %k3 : index
    %m1 = arith.muli %i, %k5 : index
    %m2 = arith.muli %i, %k6 : index
    %m3 = arith.muli %i, %k7 : index
    %m4 = arith.muli %i, %k9 : index
    %m5 = arith.muli %i, %k10 : index
    %d0 = arith.constant 1000 : index
    %d1 = arith.constant 1001 : index
    %d2 = arith.constant 1002 : index
    %d3 = arith.constant 1003 : index
    %d4 = arith.constant 1004 : index
    %d5 = arith.constant 1005 : index
    %d6 = arith.constant 1006 : index
    %d7 = arith.constant 1007 : index
    %d8 = arith.constant 1008 : index
    %d9 = arith.constant 1009 : index
    %d10 = arith.constant 1010 : index
    %d11 = arith.constant 1011 : index
    %d12 = arith.constant 1012 : index
    %d13 = arith.constant 1013 : index
    %d14 = arith.constant 1014 : index
    %d15 = arith.constant 1015 : index
    %d16 = arith.constant 1016 : index
    %d17 = arith.constant 1017 : index
    %a0 = arith.addi %i, %d0 : index
    %a1 = arith.addi %i, %d1 : index
    %a2 = arith.addi %i, %d2 : index
    %a3 = arith.addi %i, %d3 : index
    %a4 = arith.addi %i, %d4 : index
    %a5 = arith.addi %i, %d5 : index
    %a6 = arith.addi %i, %d6 : index
    %a7 = arith.addi %i, %d7 : index
    %a8 = arith.addi %i, %d8 : index
    %a9 = arith.addi %i, %d9 : index
    %a10 = arith.addi %i, %d10 : index
    %a11 = arith.addi %i, %d11 : index
    %a12 = arith.addi %i, %d12 : index
    %a13 = arith.addi %i, %d13 : index
    %a14 = arith.addi %i, %d14 : index
    %a15 = arith.addi %i, %d15 : index
    %a16 = arith.addi %i, %d16 : index
    %a17 = arith.addi %i, %d17 : index
    %s0 = arith.addi %m0, %m1 : index
    %s1 = arith.addi %s0, %m2 : index
    %s2 = arith.addi %s1, %m3 : index
    %s3 = arith.addi %s2, %m4 : index
    %s4 = arith.addi %s3, %m5 : index
    %s5 = arith.addi %s4, %a0 : index
    %s6 = arith.addi %s5, %a1 : index
    %s7 = arith.addi %s6, %a2 : index
    %s8 = arith.addi %s7, %a3 : index
    %s9 = arith.addi %s8, %a4 : index
    %s10 = arith.addi %s9, %a5 : index
    %s11 = arith.addi %s10, %a6 : index
    %s12 = arith.addi %s11, %a7 : index
    %s13 = arith.addi %s12, %a8 : index
    %s14 = arith.addi %s13, %a9 : index
    %s15 = arith.addi %s14, %a10 : index
    %s16 = arith.addi %s15, %a11 : index
    %s17 = arith.addi %s16, %a12 : index
    %s18 = arith.addi %s17, %a13 : index
    %s19 = arith.addi %s18, %a14 : index
    %s20 = arith.addi %s19, %a15 : index
    %s21 = arith.addi %s20, %a16 : index
    %s22 = arith.addi %s21, %a17 : index
    %again = arith.muli %s22, %k3 : index
    %x = tpu.vector_load %buf[%again] : memref<8192x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    tpu.vector_store %x, %buf[%c0] : vector<8x128xf32>, memref<8192x128xf32, #tpu.memory_space<vmem>>
  }
  return
}
