// Every error tpu-convert-linalg reports.
// RUN: tpu-opt %s --tpu-convert-linalg -split-input-file -verify-diagnostics
// RUN: not tpu-opt %s --tpu-convert-linalg="default-precision=fastest" 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: error: tpu-convert-linalg: unknown default-precision 'fastest'; expected one of default, high, highest (or JAX's bfloat16, bfloat16_3x, tensorfloat32, float32, BF16_BF16_F32, BF16_BF16_F32_X3, BF16_BF16_F32_X6)

func.func @conv(%i: tensor<1x8x8x1xf32>, %f: tensor<3x3x1x1xf32>, %o: tensor<1x6x6x1xf32>) -> tensor<1x6x6x1xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_hwcf' is not supported by the TPU compiler; it takes linalg.matmul, linalg.batch_matmul and linalg.matvec (with linalg.fill inits)}}
  %r = linalg.conv_2d_nhwc_hwcf ins(%i, %f : tensor<1x8x8x1xf32>, tensor<3x3x1x1xf32>) outs(%o : tensor<1x6x6x1xf32>) -> tensor<1x6x6x1xf32>
  return %r : tensor<1x6x6x1xf32>
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
