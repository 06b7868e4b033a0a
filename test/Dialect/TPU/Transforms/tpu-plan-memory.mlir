// RUN: tpu-opt %s --tpu-plan-memory --split-input-file --verify-diagnostics | FileCheck %s

// Arguments first, in order, then HBM allocs in program order, each at the
// next free 4 KiB tile: a 7x300 tensor takes 1 x 3 tiles, 300x129 38 x 2.
// VMEM is a stack of rows: a freed buffer's rows are reused.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %arg0: memref<7x300xf32, #tpu.memory_space<hbm>> {tpu.address = 0 : i64}
// CHECK-SAME: %arg1: memref<300x129xf32, #tpu.memory_space<hbm>> {tpu.address = 3 : i64}
// CHECK-SAME: tpu.vmem_rows = 48 : i64
// CHECK: memref.alloc() {tpu.address = 79 : i64} : memref<7x129xf32, #tpu.memory_space<hbm>>
// CHECK: memref.alloc() {tpu.address = 0 : i64} : memref<16x128xf32, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() {tpu.address = 16 : i64} : memref<32x128xf32, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() {tpu.address = 16 : i64} : memref<8x128xf32, #tpu.memory_space<vmem>>
// CHECK: memref.alloc() {tpu.address = 81 : i64} : memref<2x8x128xf32, #tpu.memory_space<hbm>>
func.func @main(%a: memref<7x300xf32, #tpu.memory_space<hbm>>, %b: memref<300x129xf32, #tpu.memory_space<hbm>>) -> memref<7x129xf32, #tpu.memory_space<hbm>> {
  %c = memref.alloc() : memref<7x129xf32, #tpu.memory_space<hbm>>
  %v0 = memref.alloc() : memref<16x128xf32, #tpu.memory_space<vmem>>
  %v1 = memref.alloc() : memref<32x128xf32, #tpu.memory_space<vmem>>
  memref.dealloc %v1 : memref<32x128xf32, #tpu.memory_space<vmem>>
  %v2 = memref.alloc() : memref<8x128xf32, #tpu.memory_space<vmem>>
  %d = memref.alloc() : memref<2x8x128xf32, #tpu.memory_space<hbm>>
  return %c : memref<7x129xf32, #tpu.memory_space<hbm>>
}

// -----

// expected-error @+1 {{tpu-plan-memory: argument 0 of @main is 'tensor<8x128xf32>', expected a buffer in HBM (run tpu-lower-to-mxu first)}}
func.func @main(%a: tensor<8x128xf32>) {
  return
}

// -----

func.func @main() {
  %v0 = memref.alloc() : memref<32000x128xf32, #tpu.memory_space<vmem>>
  // expected-error @+1 {{tpu-plan-memory: VMEM is full: this buffer needs rows [32000, 33000) of 32768 (16896000 bytes of 16777216)}}
  %v1 = memref.alloc() : memref<1000x128xf32, #tpu.memory_space<vmem>>
  return
}

// -----

func.func @main() {
  // expected-error @+1 {{tpu-plan-memory: cannot place 'memref<8x64xf32, #tpu.memory_space<vmem>>'; buffers are HBM tensors or VMEM rows (memref<Nx128xf32, #tpu.memory_space<vmem>>)}}
  %v0 = memref.alloc() : memref<8x64xf32, #tpu.memory_space<vmem>>
  return
}

// -----

// A v2 core has 8 GiB, half the chip's: one 4.02 GiB argument fits, a
// second one does not.
module attributes {tpu.chip = #tpu.chip<v2>} {
  // expected-error @+1 {{tpu-plan-memory: argument 1 (memref<32768x32776xf32, #tpu.memory_space<hbm>>, 4311744512 bytes) does not fit the HBM of a v2 core: the program's buffers need 8623489024 bytes, the core has 8589934592; use smaller operands, or a chip with more HBM per core}}
  func.func @main(%a: memref<32768x32776xf32, #tpu.memory_space<hbm>>, %b: memref<32768x32776xf32, #tpu.memory_space<hbm>>) {
    return
  }
}

// -----

// The same two on a v4 core (32 GiB); a buffer the program allocates is
// named by its own location.
module attributes {tpu.chip = #tpu.chip<v4>} {
  func.func @main(%a: memref<32768x32776xf32, #tpu.memory_space<hbm>>, %b: memref<32768x32776xf32, #tpu.memory_space<hbm>>) {
    // expected-error @+1 {{tpu-plan-memory: this buffer (memref<8x131072x32768xf32, #tpu.memory_space<hbm>>, 137438953472 bytes) does not fit the HBM of a v4 core: the program's buffers need 146062442496 bytes, the core has 34359738368}}
    %c = memref.alloc() : memref<8x131072x32768xf32, #tpu.memory_space<hbm>>
    return
  }
}

// -----

// A constant global is placed once, where the entry first reads it (after
// the arguments, among the allocs in program order); a second read shares
// its tiles.
// CHECK: memref.global "private" constant @w : memref<9x130xf32, #tpu.memory_space<hbm>> = dense<2.000000e+00> {tpu.address = 1 : i64}
// CHECK-LABEL: func.func @main
// CHECK: memref.get_global @w
// CHECK: memref.alloc() {tpu.address = 5 : i64} : memref<8x128xf32, #tpu.memory_space<hbm>>
// CHECK: memref.get_global @w
memref.global "private" constant @w : memref<9x130xf32, #tpu.memory_space<hbm>> = dense<2.0>
func.func @main(%a: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  %w = memref.get_global @w : memref<9x130xf32, #tpu.memory_space<hbm>>
  %b = memref.alloc() : memref<8x128xf32, #tpu.memory_space<hbm>>
  %v = memref.get_global @w : memref<9x130xf32, #tpu.memory_space<hbm>>
  return
}

// -----

memref.global "private" constant @w : memref<8x128xf32> = dense<2.0>
func.func @main() {
  // expected-error @+1 {{tpu-plan-memory: w is not a global in HBM (tpu-bufferize makes them)}}
  %w = memref.get_global @w : memref<8x128xf32>
  return
}
