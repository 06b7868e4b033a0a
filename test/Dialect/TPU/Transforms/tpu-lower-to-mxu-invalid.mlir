// RUN: tpu-opt %s --tpu-lower-to-mxu=chip=v4 --split-input-file --verify-diagnostics
// RUN: not tpu-opt %s --tpu-lower-to-mxu=entry=absent --split-input-file 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not tpu-opt %s --tpu-lower-to-mxu=chip=v9 --split-input-file 2>&1 | FileCheck %s --check-prefix=CHIP

// ENTRY: error: tpu-lower-to-mxu: no func.func @absent to compile (name the entry with entry=NAME)
// CHIP: error: tpu-lower-to-mxu: unknown chip 'v9'; expected v2, v3 or v4

// expected-error @+1 {{tpu-lower-to-mxu: argument 0 of @main is 'tensor<8x128xbf16>'; the runtime moves f32 tensors (.npy has no bf16): use f32 and convert inside the function with arith.truncf}}
func.func @main(%a: tensor<8x128xbf16>) -> tensor<8x128xbf16> {
  return %a : tensor<8x128xbf16>
}

// -----

// expected-error @+1 {{tpu-lower-to-mxu: argument 0 of @main has type 'tensor<?x128xf32>'; the TPU takes statically shaped tensors}}
func.func @main(%a: tensor<?x128xf32>) -> tensor<?x128xf32> {
  return %a : tensor<?x128xf32>
}

// -----

// expected-error @+1 {{tpu-lower-to-mxu: result 0 of @main has type 'f32'; the TPU takes statically shaped tensors}}
func.func @main(%a: tensor<8x128xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// -----

func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: cannot compile 'math.exp' for the TPU; supported are the ops tpu-convert-linalg, tpu-pad-to-tiles and tpu-expand-precision produce}}
  %e = math.exp %a : tensor<8x128xf32>
  return %e : tensor<8x128xf32>
}

// -----

func.func @main(%b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: tensor constants are not supported yet; pass the values as an argument}}
  %a = arith.constant dense<1.0> : tensor<8x128xf32>
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

func.func @main(%a: tensor<8x100xf32>) -> tensor<8x128xf32> {
  %one = arith.constant 1.0 : f32
  // expected-error @+1 {{tpu-lower-to-mxu: only zero padding at the high end (what tpu-pad-to-tiles adds) is supported}}
  %p = tensor.pad %a low[0, 0] high[0, 28] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : f32
  } : tensor<8x100xf32> to tensor<8x128xf32>
  return %p : tensor<8x128xf32>
}

// -----

func.func @main(%a: tensor<8x256xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: only slices from the origin with unit strides (what tpu-pad-to-tiles adds) are supported}}
  %s = tensor.extract_slice %a[0, 128] [8, 128] [1, 1] : tensor<8x256xf32> to tensor<8x128xf32>
  return %s : tensor<8x128xf32>
}

// -----

func.func @main(%a: tensor<8x100xf32>) -> tensor<8x256xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{tpu-lower-to-mxu: can only pad or slice rows and the columns inside the last (8,128) tile, from 'tensor<8x100xf32>' to 'tensor<8x256xf32>'}}
  %p = tensor.pad %a low[0, 0] high[0, 156] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x100xf32> to tensor<8x256xf32>
  return %p : tensor<8x256xf32>
}

// -----

func.func @main(%a: tensor<8x100xf32>, %b: tensor<100x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: operands must be padded to whole tiles (run tpu-pad-to-tiles first), got 'tensor<8x100xf32>' x 'tensor<100x128xf32>'}}
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x100xf32>, tensor<100x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// expected-error @+1 {{tpu-lower-to-mxu: the entry must be a single block (no control flow)}}
func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  cf.br ^next
^next:
  return %a : tensor<8x128xf32>
}

// -----

// expected-error @+1 {{tpu-lower-to-mxu: the module is for v2 (tpu.chip) but chip=v4 was asked for; drop one of them}}
module attributes {tpu.chip = #tpu.chip<v2>} {
  func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
    return %a : tensor<8x128xf32>
  }
}

// -----

func.func @main(%a: tensor<8x256xf32>) -> tensor<8x2x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: cannot reshape 'tensor<8x256xf32>' to 'tensor<8x2x128xf32>': only reshapes that keep the (8,128) tiles, and between a vector and a column (as linalg.matvec uses), are supported}}
  %r = tensor.expand_shape %a [[0], [1, 2]] output_shape [8, 2, 128] : tensor<8x256xf32> into tensor<8x2x128xf32>
  return %r : tensor<8x2x128xf32>
}

// -----

func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-lower-to-mxu: only f32 to bf16 truncation is supported}}
  %t = arith.truncf %a : tensor<8x128xf32> to tensor<8x128xf16>
  %e = arith.extf %t : tensor<8x128xf16> to tensor<8x128xf32>
  return %e : tensor<8x128xf32>
}

// -----

func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %t = arith.truncf %a : tensor<8x128xf32> to tensor<8x128xbf16>
  // expected-error @+1 {{tpu-lower-to-mxu: only bf16 to f32 extension is supported}}
  %e = arith.extf %t : tensor<8x128xbf16> to tensor<8x128xf64>
  %r = arith.truncf %e : tensor<8x128xf64> to tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}
