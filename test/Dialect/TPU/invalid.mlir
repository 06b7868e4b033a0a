// Every diagnostic of the tpu dialect, one case each.
// RUN: tpu-opt %s -split-input-file -verify-diagnostics

func.func @lhs_rank(%a: tensor<128xf32>, %b: tensor<128x8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tpu.matmul' op lhs must have rank >= 2 ([batch...,] M, K), got 'tensor<128xf32>'}}
  %0 = tpu.matmul %a, %b : tensor<128xf32>, tensor<128x8xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rhs_rank(%a: tensor<8x128xf32>, %b: tensor<128xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'tpu.matmul' op rhs must have rank >= 2 ([batch...,] K, N), got 'tensor<128xf32>'}}
  %0 = tpu.matmul %a, %b : tensor<8x128xf32>, tensor<128xf32> -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @rank_mismatch(%a: tensor<2x8x128xf32>, %b: tensor<128x8xf32>) -> tensor<2x8x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op lhs and rhs must have the same rank (the same batch dimensions), got 'tensor<2x8x128xf32>' and 'tensor<128x8xf32>'}}
  %0 = tpu.matmul %a, %b : tensor<2x8x128xf32>, tensor<128x8xf32> -> tensor<2x8x8xf32>
  return %0 : tensor<2x8x8xf32>
}

// -----

func.func @batch_mismatch(%a: tensor<2x3x8x128xf32>, %b: tensor<2x4x128x8xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op batch dimensions differ: lhs has [2, 3], rhs has [2, 4]}}
  %0 = tpu.matmul %a, %b : tensor<2x3x8x128xf32>, tensor<2x4x128x8xf32> -> tensor<2x3x8x8xf32>
  return %0 : tensor<2x3x8x8xf32>
}

// -----

func.func @contraction_mismatch(%a: tensor<4x5xf32>, %b: tensor<6x7xf32>) -> tensor<4x7xf32> {
  // expected-error @+1 {{'tpu.matmul' op contraction dimensions differ: lhs is M x K = 4 x 5 but rhs is K x N = 6 x 7}}
  %0 = tpu.matmul %a, %b : tensor<4x5xf32>, tensor<6x7xf32> -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @result_shape(%a: tensor<2x4x5xf32>, %b: tensor<2x5x7xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op result shape must be [batch..., M, N] = [2, 4, 7], got [2, 4, 8]}}
  %0 = tpu.matmul %a, %b : tensor<2x4x5xf32>, tensor<2x5x7xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @acc_shape(%a: tensor<4x5xf32>, %b: tensor<5x7xf32>, %c: tensor<7x4xf32>) -> tensor<4x7xf32> {
  // expected-error @+1 {{'tpu.matmul' op accumulator shape must match the result [4, 7], got [7, 4]}}
  %0 = tpu.matmul %a, %b acc %c : tensor<4x5xf32>, tensor<5x7xf32>, tensor<7x4xf32> -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @operand_type(%a: tensor<8x128xi32>, %b: tensor<128x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type values, but got 'tensor<8x128xi32>'}}
  %0 = tpu.matmul %a, %b : tensor<8x128xi32>, tensor<128x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @dynamic_shape(%a: tensor<?x128xf32>, %b: tensor<128x8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type values, but got 'tensor<?x128xf32>'}}
  %0 = tpu.matmul %a, %b : tensor<?x128xf32>, tensor<128x8xf32> -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @bf16_result(%a: tensor<8x128xbf16>, %b: tensor<128x8xbf16>) -> tensor<8x8xbf16> {
  // expected-error @+1 {{'tpu.matmul' op result #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x8xbf16>'}}
  %0 = tpu.matmul %a, %b : tensor<8x128xbf16>, tensor<128x8xbf16> -> tensor<8x8xbf16>
  return %0 : tensor<8x8xbf16>
}

// -----

// expected-error @+1 {{unknown precision 'fastest'; expected one of default, high, highest (or JAX's bfloat16, bfloat16_3x, tensorfloat32, float32, BF16_BF16_F32, BF16_BF16_F32_X3, BF16_BF16_F32_X6)}}
func.func @bad_precision() attributes {p = #tpu.precision<fastest>}

// -----

// expected-error @+1 {{unknown chip 'v5e'; expected one of v2, v3, v4}}
func.func @bad_chip() attributes {c = #tpu.chip<v5e>}

// -----

// expected-error @+2 {{expected ::tpu::MemorySpace to be one of: hbm, vmem, smem}}
// expected-error @+1 {{failed to parse TPU_MemorySpaceAttr parameter 'value'}}
func.func @bad_memory_space(%m: memref<8xf32, #tpu.memory_space<cmem>>)

// -----

// expected-error @+1 {{tile must have 2 dimensions (rows x lanes), got 3}}
func.func @tile_rank(%t: tensor<8x8x128xf32, #tpu.tiled<1x8x128>>)

// -----

// expected-error @+1 {{tile dimensions must be positive}}
func.func @tile_zero(%t: tensor<8x128xf32, #tpu.tiled<0x128>>)

// -----

// expected-error @+1 {{a tiled layout of 2 dimensions needs a tensor of at least that rank, got rank 1}}
func.func @tiled_rank(%t: tensor<128xf32, #tpu.tiled<8x128>>)

// -----

// expected-error @+1 {{a tiled layout holds integer or float elements of at most 32 bits, got 'f64'}}
func.func @tiled_f64(%t: tensor<8x128xf64, #tpu.tiled<8x128>>)

// -----

// expected-error @+1 {{'tpu.chip' belongs on a builtin.module, not on 'func.func'}}
func.func @chip_on_func() attributes {tpu.chip = #tpu.chip<v4>} {
  return
}

// -----

// expected-error @+1 {{'tpu.chip' must be a #tpu.chip<...> attribute naming one of: v2, v3, v4; got "v4"}}
module attributes {tpu.chip = "v4"} {}

// -----

// expected-error @+1 {{unknown tpu dialect attribute 'tpu.chipp'; known: 'tpu.chip', 'tpu.precision'}}
module attributes {tpu.chipp = #tpu.chip<v4>} {}

// -----

// expected-error @+1 {{'tpu.precision' must be a #tpu.precision<...> attribute; got "highest"}}
func.func @precision_string() attributes {tpu.precision = "highest"} {
  return
}
