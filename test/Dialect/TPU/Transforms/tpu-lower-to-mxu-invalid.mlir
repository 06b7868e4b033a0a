// Every error tpu-lower-to-mxu reports: kernels that cannot be written.
// RUN: tpu-opt %s --tpu-lower-to-mxu --split-input-file --verify-diagnostics

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<8x100xf32, #tiled, #hbm>, %b: memref<100x128xf32, #tiled, #hbm>, %c: memref<8x128xf32, #tiled, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: operands must be padded to whole tiles (run tpu-pad-to-tiles first), got 'memref<8x100xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' x 'memref<100x128xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>'}}
  tpu.matmul_passes lhs(%a) rhs(%b) outs(%c) {nan_fixed_terms = 0 : i64} : (memref<8x100xf32, #tiled, #hbm>, memref<100x128xf32, #tiled, #hbm>, memref<8x128xf32, #tiled, #hbm>) -> ()
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<8x100xf32, #tiled, #hbm>, %p: memref<16x256xf32, #tiled, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: can only pad or slice rows and the columns inside the last (8,128) tile, from 'memref<8x100xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' to 'memref<16x256xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>'}}
  tpu.resize %a outs(%p) : memref<8x100xf32, #tiled, #hbm> outs memref<16x256xf32, #tiled, #hbm>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<8x8000000xf32, #tiled, #hbm>, %p: memref<16x8000000xf32, #tiled, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: rows of 62500 tiles do not fit VMEM}}
  tpu.resize %a outs(%p) : memref<8x8000000xf32, #tiled, #hbm> outs memref<16x8000000xf32, #tiled, #hbm>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#tiled3 = affine_map<(d0, d1, d2) -> (d0, d1 floordiv 8, d2 floordiv 128, d1 mod 8, d2 mod 128)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<8x256xf32, #tiled, #hbm>, %r: memref<8x2x128xf32, #tiled3, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: cannot reshape 'memref<8x256xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' to 'memref<8x2x128xf32, affine_map<(d0, d1, d2) -> (d0, d1 floordiv 8, d2 floordiv 128, d1 mod 8, d2 mod 128)>, #tpu.memory_space<hbm>>' with a kernel; only between a vector and a column, or regrouping rows}}
  tpu.reshape %a outs(%r) : memref<8x256xf32, #tiled, #hbm> outs memref<8x2x128xf32, #tiled3, #hbm>
  return
}

// -----

// A matmul whose working set cannot fit VMEM even one row block at a time:
// 4 MXUs' double-buffered weights alone are 1024 rows, so K makes no
// difference; rows do, through the chunk, and nothing makes this fit.
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#hbm = #tpu.memory_space<hbm>
module attributes {tpu.chip = #tpu.chip<v4>} {
  func.func @main(%a: memref<8x128xf32, #tiled, #hbm>, %b: memref<128x128xf32, #tiled, #hbm>, %c: memref<8x128xf32, #tiled, #hbm>) {
    tpu.matmul_passes lhs(%a) rhs(%b) outs(%c) {nan_fixed_terms = 0 : i64} : (memref<8x128xf32, #tiled, #hbm>, memref<128x128xf32, #tiled, #hbm>, memref<8x128xf32, #tiled, #hbm>) -> ()
    return
  }
}

// -----

#tiled4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 8, d3 floordiv 128, d2 mod 8, d3 mod 128)>
#tiled6 = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4 floordiv 8, d5 floordiv 128, d4 mod 8, d5 mod 128)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%x: memref<1x1x40000x128xf32, #tiled4, #hbm>, %t: memref<1x1x1x1x40000x128xf32, #tiled6, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: the windows of an image row of 'memref<1x1x40000x128xf32, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 8, d3 floordiv 128, d2 mod 8, d3 mod 128)>, #tpu.memory_space<hbm>>' do not fit VMEM; use narrower images}}
  tpu.windows %x outs(%t) {window = array<i64: 1, 1>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : memref<1x1x40000x128xf32, #tiled4, #hbm> outs memref<1x1x1x1x40000x128xf32, #tiled6, #hbm>
  return
}

// -----

// Kernels that move words take no packed bf16 (tpu-bufferize extends it).
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<16x128xbf16, #packed, #hbm>, %t: memref<128x16xbf16, #packed, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: 'tpu.transpose' moves 32-bit words, but 'memref<16x128xbf16, affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>, #tpu.memory_space<hbm>>' is packed bf16; give it f32 (tpu-bufferize extends bf16 operands of such kernels)}}
  tpu.transpose %a outs(%t) : memref<16x128xbf16, #packed, #hbm> outs memref<128x16xbf16, #packed, #hbm>
  return
}

// -----

// An epilogue reads a matrix input tile for tile with the f32 result: a
// packed bf16 one cannot be (tpu-fuse leaves such a consumer unfused).
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
#hbm = #tpu.memory_space<hbm>
func.func @main(%a: memref<8x128xf32, #tiled, #hbm>, %b: memref<128x128xf32, #tiled, #hbm>, %r: memref<8x128xbf16, #packed, #hbm>, %c: memref<8x128xf32, #tiled, #hbm>) {
  // expected-error @+1 {{tpu-lower-to-mxu: the epilogue reads 'memref<8x128xbf16, affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>, #tpu.memory_space<hbm>>' tile for tile with the f32 result, but it is packed bf16; give it f32 (only a bf16 row, a rank-1 bias, is read packed)}}
  tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%r) outs(%c) {nan_fixed_terms = 0 : i64} : (memref<8x128xf32, #tiled, #hbm>, memref<128x128xf32, #tiled, #hbm>, memref<8x128xbf16, #packed, #hbm>, memref<8x128xf32, #tiled, #hbm>) -> () {
  ^bb0(%s: f32, %y: bf16):
    %w = arith.extf %y : bf16 to f32
    %t = arith.addf %s, %w : f32
    tpu.yield %t : f32
  }
  return
}
