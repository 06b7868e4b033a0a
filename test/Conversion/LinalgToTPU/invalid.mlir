// Every error tpu-convert-linalg reports.
// RUN: tpu-opt %s --tpu-convert-linalg -split-input-file -verify-diagnostics
// RUN: not tpu-opt %s --tpu-convert-linalg="default-precision=fastest" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tpu-opt %s --tpu-convert-linalg -split-input-file -mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=UNTOUCHED
// OPTION: for the --default-precision option: unknown precision 'fastest'; expected one of default, high, highest (or JAX's bfloat16, bfloat16_3x, tensorfloat32, float32, BF16_BF16_F32, BF16_BF16_F32_X3, BF16_BF16_F32_X6)

func.func @conv(%i: tensor<1x1x8x8xf32>, %f: tensor<1x1x3x3xf32>, %o: tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nchw_fchw' is not supported by the TPU compiler; it takes linalg.matmul, linalg.batch_matmul and linalg.matvec (with linalg.fill inits), linalg.conv_2d_nhwc_hwcf, linalg.pooling_nhwc_max, _min and _sum, linalg.broadcast, linalg.reduce (and reduction linalg.generic) over one of the last two dimensions or leading ones, linalg.softmax, linalg.transpose, and elementwise ops (linalg.generic and the named ones) the VPU can run}}
  %r = linalg.conv_2d_nchw_fchw ins(%i, %f : tensor<1x1x8x8xf32>, tensor<1x1x3x3xf32>) outs(%o : tensor<1x1x6x6xf32>) -> tensor<1x1x6x6xf32>
  return %r : tensor<1x1x6x6xf32>
}

// -----

func.func @transposed(%a: tensor<300x7xf32>, %b: tensor<300x129xf32>, %c: tensor<7x129xf32>) -> tensor<7x129xf32> {
  // expected-error @+1 {{'linalg.matmul' with user-defined indexing maps (transposed or broadcast operands) is not supported yet; transpose the operands first}}
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<300x7xf32>, tensor<300x129xf32>) outs(%c : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %r : tensor<7x129xf32>
}

// -----

func.func @batch_transposed(%a: tensor<2x300x7xf32>, %b: tensor<2x300x129xf32>, %c: tensor<2x7x129xf32>) -> tensor<2x7x129xf32> {
  // expected-error @+1 {{'linalg.batch_matmul' with user-defined indexing maps is not supported yet}}
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
         ins(%a, %b : tensor<2x300x7xf32>, tensor<2x300x129xf32>) outs(%c : tensor<2x7x129xf32>) -> tensor<2x7x129xf32>
  return %r : tensor<2x7x129xf32>
}

// -----

func.func @integers(%a: tensor<8x128xi8>, %b: tensor<128x128xi8>, %c: tensor<8x128xi32>) -> tensor<8x128xi32> {
  // expected-error @+1 {{cannot convert 'linalg.matmul': its lhs has element type i8; the TPU matmul takes f32 or bf16 operands and accumulates in f32}}
  %r = linalg.matmul ins(%a, %b : tensor<8x128xi8>, tensor<128x128xi8>) outs(%c : tensor<8x128xi32>) -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}

// -----

func.func @bf16_result(%a: tensor<8x128xbf16>, %b: tensor<128x128xbf16>, %c: tensor<8x128xbf16>) -> tensor<8x128xbf16> {
  // expected-error @+1 {{cannot convert 'linalg.matmul': its init has element type bf16; the TPU matmul takes f32 or bf16 operands and accumulates in f32}}
  %r = linalg.matmul ins(%a, %b : tensor<8x128xbf16>, tensor<128x128xbf16>) outs(%c : tensor<8x128xbf16>) -> tensor<8x128xbf16>
  return %r : tensor<8x128xbf16>
}

// -----

func.func @dynamic(%a: tensor<?x128xf32>, %b: tensor<128x128xf32>, %c: tensor<?x128xf32>) -> tensor<?x128xf32> {
  // expected-error @+1 {{cannot convert 'linalg.matmul': its lhs has the dynamic shape tensor<?x128xf32>; the TPU compiler needs static shapes}}
  %r = linalg.matmul ins(%a, %b : tensor<?x128xf32>, tensor<128x128xf32>) outs(%c : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// -----

func.func @buffers(%a: memref<8x128xf32>, %b: memref<128x128xf32>, %c: memref<8x128xf32>) {
  // expected-error @+1 {{cannot convert 'linalg.matmul': its lhs operates on buffers; the TPU compiler takes linalg on tensors}}
  linalg.matmul ins(%a, %b : memref<8x128xf32>, memref<128x128xf32>) outs(%c : memref<8x128xf32>)
  return
}

// -----

func.func @no_vpu_op(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: its body holds 'math.sin', which the VPU has no instruction for (docs/ISA.md lists them)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%empty : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %t = math.sin %x : f32
    linalg.yield %t : f32
  } -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @transpose(%a: tensor<128x8xf32>) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: transposing maps (and constant indices) are not supported yet; an input's map may drop dimensions (a broadcast), the result's must be the identity}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<128x8xf32>) outs(%empty : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @two_results(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: 2 results; one is supported}}
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%empty, %empty : tensor<8x128xf32>, tensor<8x128xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<8x128xf32>, tensor<8x128xf32>)
  return %r#0 : tensor<8x128xf32>
}

// -----

func.func @elementwise_buffers(%a: memref<8x128xf32>, %o: memref<8x128xf32>) {
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: it operates on buffers; the TPU compiler takes linalg on tensors}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x128xf32>) outs(%o : memref<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

func.func @elementwise_dynamic(%a: tensor<?x128xf32>, %e: tensor<?x128xf32>) -> tensor<?x128xf32> {
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: the TPU compiler needs static shapes}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x128xf32>) outs(%e : tensor<?x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// -----

func.func @elementwise_integers(%a: tensor<8x128xi32>) -> tensor<8x128xi32> {
  %empty = tensor.empty() : tensor<8x128xi32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: element type i32 is not supported; the VPU computes on f32 and bf16}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xi32>) outs(%empty : tensor<8x128xi32>) {
  ^bb0(%x: i32, %out: i32):
    linalg.yield %x : i32
  } -> tensor<8x128xi32>
  return %r : tensor<8x128xi32>
}

// -----

func.func @reads_init(%a: tensor<8x128xf32>, %c: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: its body reads the init; only the inputs may be read}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%c : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %s = arith.addf %x, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @outside_value(%a: tensor<8x128xf32>, %s: f32) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: its body uses a value defined outside it (in 'arith.mulf'); pass it as an input instead (float constants may be used)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%empty : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  } -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @integer_body(%a: tensor<8x128xf32>) -> tensor<8x128xf32> {
  %empty = tensor.empty() : tensor<8x128xf32>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: 'arith.fptosi' works on integers; the VPU computes on f32 (and bf16 values)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%empty : tensor<8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    %i = arith.fptosi %x : f32 to i32
    %f = arith.sitofp %i : i32 to f32
    linalg.yield %f : f32
  } -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @truncf_rounding(%a: tensor<8x128xf32>) -> tensor<8x128xbf16> {
  %empty = tensor.empty() : tensor<8x128xbf16>
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: 'arith.truncf' is supported from f32 to bf16 with the default rounding only}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x128xf32>) outs(%empty : tensor<8x128xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %t = arith.truncf %x to_nearest_away : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x128xbf16>
  return %r : tensor<8x128xbf16>
}

// -----

func.func @lane_broadcast(%a: tensor<8xf32>) -> tensor<2x8x128xf32> {
  %empty = tensor.empty() : tensor<2x8x128xf32>
  // expected-error @+1 {{cannot broadcast 'tensor<8xf32>' on the TPU: the last dimension would be new, which repeats one value across the lanes of a row; that is supported when it is the only new dimension}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : tensor<8xf32>) outs(%empty : tensor<2x8x128xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<2x8x128xf32>
  return %r : tensor<2x8x128xf32>
}

// -----

func.func @row_broadcast_of_a_matrix(%a: tensor<2x128xf32>) -> tensor<2x8x128xf32> {
  %empty = tensor.empty() : tensor<2x8x128xf32>
  // expected-error @+1 {{cannot broadcast 'tensor<2x128xf32>' on the TPU: a new second-to-last dimension repeats rows, which is supported for a rank-1 source (a row) only}}
  %r = linalg.broadcast ins(%a : tensor<2x128xf32>) outs(%empty : tensor<2x8x128xf32>) dimensions = [1]
  return %r : tensor<2x8x128xf32>
}

// -----

func.func @reduce_rows_and_columns(%x: tensor<7x300xf32>, %init: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: it reduces one of the last two dimensions, or leading dimensions (neither of the last two); not a mix of them}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

func.func @reduce_init(%x: tensor<7x300xf32>, %init: tensor<7xf32>) -> tensor<7xf32> {
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: its init must be a linalg.fill of a float constant}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7xf32>
}

// -----

func.func @reduce_body(%x: tensor<7x300xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: its body holds 'arith.mulf'; the VPU reduces with arith.addf, arith.maximumf, arith.minimumf, arith.maxnumf and arith.minnumf}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.mulf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7xf32>
}

// -----

func.func @reduce_body_shape(%x: tensor<7x300xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: its body must be one arith.addf, arith.maximumf, arith.minimumf, arith.maxnumf or arith.minnumf of its two arguments}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %d = arith.addf %in, %in : f32
      %s = arith.addf %d, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7xf32>
}

// -----

func.func @reduce_same_argument(%x: tensor<7x300xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: its body must be one arith.addf, arith.maximumf, arith.minimumf, arith.maxnumf or arith.minnumf of its two arguments}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %acc, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7xf32>
}

// -----

func.func @reduce_yield_only(%x: tensor<7x300xf32>) -> tensor<7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  // expected-error @+1 {{cannot convert this 'linalg.reduce' to the TPU: its body must be one arith.addf, arith.maximumf, arith.minimumf, arith.maxnumf or arith.minnumf of its two arguments}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      linalg.yield %in : f32
    }
  return %r : tensor<7xf32>
}

// -----

// Every input is checked before any is broadcast: the first input's row
// broadcast is not built when the second cannot be.
// UNTOUCHED-LABEL: func.func @broadcast_then_fail
// UNTOUCHED-NOT: tpu.broadcast
// UNTOUCHED: linalg.generic
func.func @broadcast_then_fail(%row: tensor<128xf32>, %b: tensor<8xf32>) -> tensor<2x8x128xf32> {
  %empty = tensor.empty() : tensor<2x8x128xf32>
  // expected-error @+1 {{cannot broadcast 'tensor<8xf32>' on the TPU: the last dimension would be new}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%row, %b : tensor<128xf32>, tensor<8xf32>) outs(%empty : tensor<2x8x128xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x8x128xf32>
  return %r : tensor<2x8x128xf32>
}

// -----

func.func @reshape_dynamic(%x: tensor<?x8x128xf32>) -> tensor<?x128xf32> {
  // expected-error @+1 {{cannot convert this 'tensor.collapse_shape' to the TPU: the TPU compiler needs static shapes}}
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<?x8x128xf32> into tensor<?x128xf32>
  return %c : tensor<?x128xf32>
}

// -----

// A reduce of no dimension is elementwise (to linalg), and reads its init.
func.func @reduce_nothing(%x: tensor<7x300xf32>, %init: tensor<7x300xf32>) -> tensor<7x300xf32> {
  // expected-error @+1 {{cannot convert this elementwise 'linalg.generic' to the TPU: its body reads the init; only the inputs may be read}}
  %r = linalg.reduce ins(%x : tensor<7x300xf32>) outs(%init : tensor<7x300xf32>) dimensions = []
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7x300xf32>
}

// -----

func.func @conv_int(%x: tensor<1x8x8x3xi32>, %w: tensor<3x3x3x4xi32>, %o: tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32> {
  // expected-error @+1 {{cannot convert 'linalg.conv_2d_nhwc_hwcf': its image has element type i32; the TPU matmul takes f32 or bf16 operands and accumulates in f32}}
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x8x8x3xi32>, tensor<3x3x3x4xi32>) outs(%o : tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32>
  return %y : tensor<1x6x6x4xi32>
}

// -----

func.func @pool_bf16(%x: tensor<1x8x8x3xbf16>, %o: tensor<1x4x4x3xbf16>) -> tensor<1x4x4x3xbf16> {
  %w = tensor.empty() : tensor<2x2xbf16>
  // expected-error @+1 {{cannot convert this 'linalg.pooling_nhwc_max' to the TPU: the TPU pools static f32 tensors}}
  %y = linalg.pooling_nhwc_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x3xbf16>, tensor<2x2xbf16>) outs(%o : tensor<1x4x4x3xbf16>) -> tensor<1x4x4x3xbf16>
  return %y : tensor<1x4x4x3xbf16>
}

// -----

func.func @pool_init(%x: tensor<1x8x8x3xf32>, %o: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  // expected-error @+1 {{cannot convert this 'linalg.pooling_nhwc_sum' to the TPU: its init must be a linalg.fill of a float constant}}
  %y = linalg.pooling_nhwc_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x8x8x3xf32>, tensor<2x2xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

func.func @pad_channels(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot convert this 'tensor.pad' to the TPU: the TPU pads only the rows and columns (dimensions 1 and 2) of a static NHWC image, by static amounts}}
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 0, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x3xf32> to tensor<1x8x8x4xf32>
  return %p : tensor<1x8x8x4xf32>
}

// -----

func.func @pad_int(%x: tensor<1x8x8x3xi32>) -> tensor<1x10x8x3xi32> {
  %zero = arith.constant 0 : i32
  // expected-error @+1 {{cannot convert this 'tensor.pad' to the TPU: the TPU pads f32 and bf16 images}}
  %p = tensor.pad %x low[0, 1, 0, 0] high[0, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : i32
  } : tensor<1x8x8x3xi32> to tensor<1x10x8x3xi32>
  return %p : tensor<1x10x8x3xi32>
}

// -----

// A pad whose value is not a constant is not folded into the convolution
// either: it says why once.
func.func @pad_value(%x: tensor<1x8x8x3xf32>, %v: f32, %w: tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @+1 {{cannot convert this 'tensor.pad' to the TPU: its padding value must be a constant}}
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %v : f32
  } : tensor<1x8x8x3xf32> to tensor<1x10x10x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %y = linalg.conv_2d_nhwc_hwcf ins(%p, %w : tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%init : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}

// -----

// linalg lets an output leave out the last windows; tpu.windows makes all.
func.func @conv_cropped(%x: tensor<1x4x4x128xf32>, %w: tensor<1x1x128x8xf32>, %o: tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32> {
  // expected-error @+1 {{cannot convert this 'linalg.conv_2d_nhwc_hwcf' to the TPU: its output of 2 x 2 positions leaves out windows of the image; the TPU computes all of them (slice the result to drop some)}}
  %y = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x4x4x128xf32>, tensor<1x1x128x8xf32>) outs(%o : tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  return %y : tensor<1x2x2x8xf32>
}

// -----

func.func @slice_strided(%x: tensor<8x300xf32>, %y: tensor<4x300xf32>) -> tensor<8x300xf32> {
  // expected-error @+1 {{cannot convert this 'tensor.insert_slice' to the TPU: only unit strides are supported}}
  %s = tensor.insert_slice %y into %x[0, 0] [4, 300] [2, 1] : tensor<4x300xf32> into tensor<8x300xf32>
  return %s : tensor<8x300xf32>
}

// -----

func.func @slice_dynamic(%x: tensor<8x300xf32>, %i: index) -> tensor<4x300xf32> {
  // expected-error @+1 {{cannot convert this 'tensor.extract_slice' to the TPU: the TPU compiler needs static shapes and offsets}}
  %s = tensor.extract_slice %x[%i, 0] [4, 300] [1, 1] : tensor<8x300xf32> to tensor<4x300xf32>
  return %s : tensor<4x300xf32>
}

// -----

func.func @slice_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot convert this 'tensor.extract_slice' to the TPU: a slice of a rank-0 tensor is the tensor itself; use the tensor}}
  %s = tensor.extract_slice %x[] [] [] : tensor<f32> to tensor<f32>
  return %s : tensor<f32>
}

// -----

func.func @transpose_buffers(%a: memref<7x300xf32>, %b: memref<300x7xf32>) {
  // expected-error @+1 {{cannot convert this 'linalg.transpose' to the TPU: it operates on buffers; the TPU compiler takes linalg on tensors}}
  linalg.transpose ins(%a : memref<7x300xf32>) outs(%b : memref<300x7xf32>) permutation = [1, 0]
  return
}

// -----

func.func @transpose_dynamic(%a: tensor<?x4x128xf32>, %e: tensor<4x?x128xf32>) -> tensor<4x?x128xf32> {
  // expected-error @+1 {{cannot convert this 'linalg.transpose' to the TPU: the TPU compiler needs static shapes}}
  %t = linalg.transpose ins(%a : tensor<?x4x128xf32>) outs(%e : tensor<4x?x128xf32>) permutation = [1, 0, 2]
  return %t : tensor<4x?x128xf32>
}
