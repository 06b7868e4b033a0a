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
