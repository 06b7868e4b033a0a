// Every error tpu-bufferize reports.
// RUN: tpu-opt %s --tpu-bufferize --split-input-file --verify-diagnostics
// RUN: not tpu-opt %s --tpu-bufferize=entry=absent --split-input-file 2>&1 | FileCheck %s --check-prefix=ENTRY

// ENTRY: error: tpu-bufferize: no func.func @absent to compile (name the entry with entry=NAME)

// expected-error @+1 {{tpu-bufferize: argument 0 of @main is 'tensor<8x128xf16>'; the runtime moves f32 and bf16 tensors: convert inside the function (arith.extf, arith.truncf)}}
func.func @main(%a: tensor<8x128xf16>) -> tensor<8x128xf16> {
  return %a : tensor<8x128xf16>
}

// -----

// expected-error @+1 {{tpu-bufferize: argument 0 of @main has type 'tensor<?x128xf32>'; the TPU takes statically shaped tensors}}
func.func @main(%a: tensor<?x128xf32>) -> tensor<?x128xf32> {
  return %a : tensor<?x128xf32>
}

// -----

// expected-error @+1 {{tpu-bufferize: result 0 of @main has type 'f32'; the TPU takes statically shaped tensors}}
func.func @main(%a: tensor<8x128xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// -----

func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-bufferize: cannot compile 'math.exp' for the TPU; supported are the ops tpu-convert-linalg, tpu-pad-to-tiles and tpu-expand-precision produce}}
  %e = math.exp %a : tensor<8x128xf32>
  return %e : tensor<8x128xf32>
}

// -----

func.func @main(%b: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-bufferize: a tensor constant of 'tensor<8x128xi32>' cannot be placed in HBM; the TPU holds f32 and bf16 tensors}}
  %a = arith.constant dense<1> : tensor<8x128xi32>
  %e = tpu.elementwise ins(%a, %b : tensor<8x128xi32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: i32, %y: f32):
    %f = arith.sitofp %x : i32 to f32
    %r = arith.addf %f, %y : f32
    tpu.yield %r : f32
  }
  return %e : tensor<8x128xf32>
}

// -----

func.func @main(%b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-bufferize: this tensor constant's values are not in the program (dense_resource<weights> : tensor<8x128xf32>); write them as a dense<...> literal}}
  %a = arith.constant dense_resource<weights> : tensor<8x128xf32>
  %c = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}

// -----

// expected-error @+1 {{tpu-bufferize: the entry must be a single block (no control flow)}}
func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  cf.br ^next
^next:
  return %a : tensor<8x128xf32>
}

// -----

func.func @main(%a: tensor<8x256xf32>) -> tensor<8x2x128xf32> {
  // expected-error @+1 {{tpu-bufferize: cannot reshape 'tensor<8x256xf32>' to 'tensor<8x2x128xf32>': only reshapes that keep the last dimension (and merge or split the others so that one side's matrices have a multiple of the other's rows), and between a vector and a column (as linalg.matvec uses), are supported}}
  %r = tpu.reshape %a : tensor<8x256xf32> -> tensor<8x2x128xf32>
  return %r : tensor<8x2x128xf32>
}

// -----

// expected-error @+1 {{tpu-bufferize: argument 0 of @main is 'tensor<0x128xf32>', which has no elements; the TPU takes tensors of at least one element}}
func.func @main(%a: tensor<0x128xf32>) -> tensor<0x128xf32> {
  return %a : tensor<0x128xf32>
}

// -----

func.func @main(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{tpu-bufferize: the result 'tensor<0x128xf32>' has no elements; the TPU takes tensors of at least one element}}
  %r = tpu.insert_rows %a extract offsets = [0] : tensor<8x128xf32> -> tensor<0x128xf32>
  %b = tpu.insert_rows %r into %a offsets = [0] : tensor<0x128xf32>, tensor<8x128xf32> -> tensor<8x128xf32>
  return %b : tensor<8x128xf32>
}
