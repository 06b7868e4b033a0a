// RUN: tpu-opt %s --tpu-canonicalize | FileCheck %s

// Index arithmetic folds and a loop that runs once is inlined, but the
// VPU's float arithmetic stays, identities included: on the VPU x * 1 and
// x + -0 flush a subnormal x and make a NaN canonical (docs/Numerics.md).
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: scf.for
// CHECK-NOT: arith.muli
// CHECK: %[[X:.*]] = tpu.vector_load %arg0[%c8]
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %{{.*}} : vector<8x128xf32>
// CHECK: %[[A:.*]] = arith.addf %[[M]], %{{.*}} : vector<8x128xf32>
// CHECK: %[[D:.*]] = arith.divf %[[A]], %{{.*}} : vector<8x128xf32>
// CHECK: %[[S:.*]] = arith.maximumf %[[D]], %[[D]] : vector<8x128xf32>
// CHECK: tpu.vector_store %[[S]], %arg0[%c8]
func.func @kernel(%buf: memref<16x128xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant dense<1.0> : vector<8x128xf32>
  %negzero = arith.constant dense<-0.0> : vector<8x128xf32>
  scf.for %i = %c0 to %c1 step %c1 {
    %row = arith.muli %c2, %c4 : index
    %x = tpu.vector_load %buf[%row] : memref<16x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
    %m = arith.mulf %x, %one : vector<8x128xf32>
    %a = arith.addf %m, %negzero : vector<8x128xf32>
    %d = arith.divf %a, %one : vector<8x128xf32>
    %s = arith.maximumf %d, %d : vector<8x128xf32>
    tpu.vector_store %s, %buf[%row] : vector<8x128xf32>, memref<16x128xf32, #tpu.memory_space<vmem>>
  }
  return
}

// Two scf.ifs in a row on one condition become one (CombineIfs), an
// scf.if holding one another on the conjunction of their conditions
// (CombineNestedIfs); the one made keeps the branch_weights the kernels
// set on rare parts (tpu-lower-to-isa writes those out of line): those
// of every if on its condition where they agree, and on a conjunction an
// operand's rare-then weights. An unweighted if merged in, or weights
// that make the then part common, leave it none.
// CHECK-LABEL: func.func @weights
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: tpu.dma_wait sem 1 count 1
// CHECK-NEXT: tpu.dma_wait sem 2 count 2
// CHECK-NEXT: } {branch_weights = array<i32: 1, 100>}
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: tpu.dma_wait sem 3 count 3
// CHECK-NEXT: tpu.dma_wait sem 4 count 4
// CHECK-NEXT: }{{$}}
// CHECK: %[[BOTH:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[BOTH]] {
// CHECK-NEXT: tpu.dma_wait sem 5 count 5
// CHECK-NEXT: } {branch_weights = array<i32: 1, 100>}
// CHECK: %[[LATE:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[LATE]] {
// CHECK-NEXT: tpu.dma_wait sem 6 count 6
// CHECK-NEXT: }{{$}}
func.func @weights(%k: index, %col: index) {
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %k, %c0 : index
  %firstGroup = arith.cmpi eq, %col, %c0 : index
  scf.if %first {
    tpu.dma_wait sem 1 count 1
  } {branch_weights = array<i32: 1, 100>}
  scf.if %first {
    tpu.dma_wait sem 2 count 2
  } {branch_weights = array<i32: 1, 100>}
  tpu.dma_wait sem 7 count 7
  scf.if %firstGroup {
    tpu.dma_wait sem 3 count 3
  } {branch_weights = array<i32: 1, 100>}
  scf.if %firstGroup {
    tpu.dma_wait sem 4 count 4
  }
  tpu.dma_wait sem 7 count 7
  scf.if %first {
    scf.if %firstGroup {
      tpu.dma_wait sem 5 count 5
    }
  } {branch_weights = array<i32: 1, 100>}
  tpu.dma_wait sem 7 count 7
  %late = arith.cmpi slt, %c0, %k : index
  scf.if %late {
    scf.if %firstGroup {
      tpu.dma_wait sem 6 count 6
    }
  } {branch_weights = array<i32: 100, 1>}
  return
}
