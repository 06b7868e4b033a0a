// Every diagnostic of the tpu dialect, one case each.
// RUN: tpu-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

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

func.func @rank_mismatch(%a: tensor<2x3x8x128xf32>, %b: tensor<3x128x8xf32>) -> tensor<2x3x8x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op lhs and rhs must have the same rank (the same batch dimensions), or rhs rank 2 (shared by every batch), got 'tensor<2x3x8x128xf32>' and 'tensor<3x128x8xf32>'}}
  %0 = tpu.matmul %a, %b : tensor<2x3x8x128xf32>, tensor<3x128x8xf32> -> tensor<2x3x8x8xf32>
  return %0 : tensor<2x3x8x8xf32>
}

// -----

func.func @shared_rhs_result(%a: tensor<2x8x128xf32>, %b: tensor<128x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'tpu.matmul' op result shape must be [batch..., M, N] = [2, 8, 8], got [8, 8]}}
  %0 = tpu.matmul %a, %b : tensor<2x8x128xf32>, tensor<128x8xf32> -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
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

// expected-error @+1 {{unknown tpu dialect attribute 'tpu.chipp'; known: 'tpu.chip', 'tpu.precision', 'tpu.useful_macs', 'tpu.useful_f32_macs', 'tpu.address', 'tpu.vmem_rows'}}
module attributes {tpu.chipp = #tpu.chip<v4>} {}

// -----

// expected-error @+1 {{'tpu.precision' must be a #tpu.precision<...> attribute; got "highest"}}
func.func @precision_string() attributes {tpu.precision = "highest"} {
  return
}

// -----

// expected-error @+1 {{'tpu.useful_macs' must be a non-negative integer; got -1 : i64}}
func.func @negative_macs() attributes {tpu.useful_macs = -1 : i64} {
  return
}

// -----

func.func @split_parts(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.split' op splits into 1 part (a rounding), 2 (hi, lo) or 3 (hi, mid, lo), got 4}}
  %p:4 = tpu.split %a {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<8x128xbf16>, tensor<8x128xbf16>
  return
}

// -----

func.func @split_input(%a: tensor<8x128xbf16>) {
  // expected-error @+1 {{'tpu.split' op splits f32 values, got 'tensor<8x128xbf16>'}}
  %p = tpu.split %a {rounding = #tpu.rounding<rne>} : tensor<8x128xbf16> -> tensor<8x128xbf16>
  return
}

// -----

func.func @split_part_type(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.split' op parts are bf16, got 'tensor<8x128xf32>'}}
  %p = tpu.split %a {rounding = #tpu.rounding<rne>} : tensor<8x128xf32> -> tensor<8x128xf32>
  return
}

// -----

func.func @split_shape(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.split' op every part must have the input's shape [8, 128], got 'tensor<8x256xbf16>'}}
  %hi, %lo = tpu.split %a {rounding = #tpu.rounding<trunc>} : tensor<8x128xf32> -> tensor<8x128xbf16>, tensor<8x256xbf16>
  return
}

// -----

func.func @passes_none() {
  // expected-error @+1 {{'tpu.matmul_passes' op needs at least one term}}
  %r = tpu.matmul_passes lhs() rhs() {nan_fixed_terms = 0 : i64} : () -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_unpaired(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op needs as many rhs as lhs operands (one pair per term), got 2 and 1}}
  %r = tpu.matmul_passes lhs(%a, %a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_groups(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op nan_fixed_terms must leave at least one term outside the NaN-fixed group: expected 0 to 0, got 1}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 1 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_parts_alone(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op lhs_parts, rhs_parts and split go together: give all three, or none for terms that read their operands as they are}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {lhs_parts = array<i64: 0>, nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_parts_count(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op rhs_parts has one part per term: expected 2, got 1}}
  %r = tpu.matmul_passes lhs(%a, %a) rhs(%b, %b) {lhs_parts = array<i64: 1, 0>, nan_fixed_terms = 1 : i64, rhs_parts = array<i64: 0>, split = #tpu.rounding<rne>} : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_parts_range(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op lhs_parts: a part is 0, 1 or 2 (hi, mid, lo of the operand's split) or -1 (the operand as it is), got 3}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {lhs_parts = array<i64: 3>, nan_fixed_terms = 0 : i64, rhs_parts = array<i64: 0>, split = #tpu.rounding<rne>} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_parts_bf16(%a: tensor<8x128xbf16>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op term 0 reads part 0 of its lhs, so the operand must be f32 (its split's input), got 'tensor<8x128xbf16>'}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {lhs_parts = array<i64: 0>, nan_fixed_terms = 0 : i64, rhs_parts = array<i64: -1>, split = #tpu.rounding<rne>} : (tensor<8x128xbf16>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_parts_rhs_bf16(%a: tensor<8x128xf32>, %b: tensor<128x128xbf16>) {
  // expected-error @+1 {{'tpu.matmul_passes' op term 0 reads part 1 of its rhs, so the operand must be f32 (its split's input), got 'tensor<128x128xbf16>'}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {lhs_parts = array<i64: -1>, nan_fixed_terms = 0 : i64, rhs_parts = array<i64: 1>, split = #tpu.rounding<rne>} : (tensor<8x128xf32>, tensor<128x128xbf16>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_shapes(%a: tensor<8x128xf32>, %b: tensor<256x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op contraction dimensions differ: lhs is M x K = 8 x 128 but rhs is K x N = 256 x 128}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<256x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_short_rhs_by_a_tile(%a: tensor<8x256xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op an rhs shorter than K (its missing rows are zero) must end in the last K tile of 128 rows and fill whole row tiles of 8 rows: lhs is M x K = 8 x 256 but rhs is K x N = 128 x 128; pad the rhs to K, or to a multiple of 8 rows}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x256xf32>, tensor<128x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @passes_short_rhs_partial_tile(%a: tensor<8x256xbf16>, %b: tensor<200x128xbf16>) {
  // expected-error @+1 {{'tpu.matmul_passes' op an rhs shorter than K (its missing rows are zero) must end in the last K tile of 128 rows and fill whole row tiles of 16 rows: lhs is M x K = 8 x 256 but rhs is K x N = 200 x 128; pad the rhs to K, or to a multiple of 16 rows}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x256xbf16>, tensor<200x128xbf16>) -> tensor<8x128xf32>
  return
}

// -----

func.func @matmul_short_rhs(%a: tensor<8x256xf32>, %b: tensor<200x128xf32>) {
  // expected-error @+1 {{'tpu.matmul' op contraction dimensions differ: lhs is M x K = 8 x 256 but rhs is K x N = 200 x 128}}
  %r = tpu.matmul %a, %b : tensor<8x256xf32>, tensor<200x128xf32> -> tensor<8x128xf32>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
func.func @view(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.tiled_view' op needs the same tiles in the same memory space: 'memref<8x128xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' and 'memref<16x128xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' differ}}
  %v = tpu.tiled_view %a : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> to memref<16x128xf32, #tiled, #tpu.memory_space<hbm>>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
func.func @view_type(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.tiled_view' op keeps the element type; got 'memref<8x128xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>' to 'memref<8x128xbf16, affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>, #tpu.memory_space<hbm>>'}}
  %v = tpu.tiled_view %a : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> to memref<8x128xbf16, #packed, #tpu.memory_space<hbm>>
  return
}

// -----

// A row-major buffer is not a tensor's device image.
func.func @untiled(%a: memref<8x128xf32, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.tiled_view' op operand #0 must be a memref in HBM with its element type's tiled layout, but got 'memref<8x128xf32, #tpu.memory_space<hbm>>'}}
  %v = tpu.tiled_view %a : memref<8x128xf32, #tpu.memory_space<hbm>> to memref<7x128xf32, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @semaphore(%v: memref<8x128xf32, #tpu.memory_space<vmem>>) {
  // expected-error @+1 {{'tpu.dma_wait' op attribute 'semaphore' failed to satisfy constraint: 64-bit signless integer attribute in the range of the ISA's Sem operands}}
  tpu.dma_wait sem 8 count 1
  return
}

// -----

func.func @wait_count() {
  // expected-error @+1 {{'tpu.dma_wait' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1 in the range of the ISA's Imm16 operands}}
  tpu.dma_wait sem 0 count 40000
  return
}

// -----

func.func @mxu_index(%r: vector<8x128xf32>, %i: index) {
  // expected-error @+1 {{'tpu.mxu_push' op attribute 'mxu' failed to satisfy constraint: 64-bit signless integer attribute in the range of the ISA's Mxu operands}}
  tpu.mxu_push %r to mxu 4 slot %i : vector<8x128xf32>
  return
}

// -----

// Kernel ops: tensor form or buffer form, not a mix.
#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
func.func @form_mixed(%a: tensor<8x128xf32>, %o: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.resize' op in buffer form takes HBM buffers, got 'tensor<8x128xf32>'}}
  tpu.resize %a outs(%o) : tensor<8x128xf32> outs memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
func.func @form_tensor(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.resize' op in tensor form takes tensors, got 'memref<8x128xf32, affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>, #tpu.memory_space<hbm>>'}}
  %r = tpu.resize %a : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> -> tensor<8x128xf32>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
func.func @form_both(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.split' op in buffer form (with outs) has no results, got 1}}
  %r = tpu.split %a outs(%a) {rounding = #tpu.rounding<rne>} : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> outs memref<8x128xf32, #tiled, #tpu.memory_space<hbm>> -> tensor<8x128xbf16>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
func.func @form_none(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.split' op needs results (tensor form) or outs (buffer form)}}
  tpu.split %a {rounding = #tpu.rounding<rne>} : memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>
  return
}

// -----

func.func @passes_result(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op result #0 must be statically shaped tensor of 32-bit float values, but got 'tensor<8x128xbf16>'}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xbf16>
  return
}

// -----

#tiled = affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 128, d0 mod 8, d1 mod 128)>
#packed = affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>
func.func @passes_out(%a: memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>, %b: memref<128x128xf32, #tiled, #tpu.memory_space<hbm>>, %o: memref<8x128xbf16, #packed, #tpu.memory_space<hbm>>) {
  // expected-error @+1 {{'tpu.matmul_passes' op the result is f32, got 'memref<8x128xbf16, affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 128, d0 mod 8, d1 mod 128, (d0 mod 16) floordiv 8)>, #tpu.memory_space<hbm>>'}}
  tpu.matmul_passes lhs(%a) rhs(%b) outs(%o) {nan_fixed_terms = 0 : i64} : (memref<8x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<128x128xf32, #tiled, #tpu.memory_space<hbm>>, memref<8x128xbf16, #packed, #tpu.memory_space<hbm>>) -> ()
  return
}

// -----

func.func @resize_rank(%a: tensor<2x8x128xf32>) {
  // expected-error @+1 {{'tpu.resize' op resizes the two minor dimensions of a rank >= 2 shape, keeping the rest and the element type: 'tensor<2x8x128xf32>' to 'tensor<3x8x128xf32>'}}
  %r = tpu.resize %a : tensor<2x8x128xf32> -> tensor<3x8x128xf32>
  return
}

// -----

func.func @reshape_elements(%a: tensor<300xf32>) {
  // expected-error @+1 {{'tpu.reshape' op keeps the elements and their type: 'tensor<300xf32>' to 'tensor<301x1xf32>' differ}}
  %r = tpu.reshape %a : tensor<300xf32> -> tensor<301x1xf32>
  return
}

// -----

func.func @elementwise_shape(%a: tensor<8x128xf32>, %b: tensor<8x256xf32>) {
  // expected-error @+1 {{'tpu.elementwise' op every input has the result's shape [8, 128], got 'tensor<8x256xf32>'}}
  %r = tpu.elementwise ins(%a, %b : tensor<8x128xf32>, tensor<8x256xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: f32):
    tpu.yield %x : f32
  }
  return
}

// -----

func.func @elementwise_arity(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.elementwise' op the body takes one element per input: 1 arguments, got 2}}
  %r = tpu.elementwise ins(%a : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32, %y: f32):
    tpu.yield %x : f32
  }
  return
}

// -----

func.func @elementwise_arg_type(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.elementwise' op body argument 0 has type 'bf16', the element type of its input is 'f32'}}
  %r = tpu.elementwise ins(%a : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: bf16):
    %e = arith.extf %x : bf16 to f32
    tpu.yield %e : f32
  }
  return
}

// -----

func.func @elementwise_terminator(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.elementwise' op the body ends with tpu.yield}}
  %r = tpu.elementwise ins(%a : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32):
    "test.terminator"() : () -> ()
  }
  return
}

// -----

func.func @elementwise_yield(%a: tensor<8x128xf32>) {
  // expected-error @+1 {{'tpu.elementwise' op the body yields 'bf16', the result's element type is 'f32'}}
  %r = tpu.elementwise ins(%a : tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%x: f32):
    %t = arith.truncf %x : f32 to bf16
    tpu.yield %t : bf16
  }
  return
}

// -----

func.func @passes_term_shapes(%a: tensor<8x128xf32>, %a2: tensor<8x256xf32>, %b: tensor<128x128xf32>, %b2: tensor<256x128xf32>) {
  // expected-error @+1 {{'tpu.matmul_passes' op every term must have the first term's shapes [8, 128] x [128, 128], term 1 has [8, 256] x [256, 128]}}
  %r = tpu.matmul_passes lhs(%a, %a2) rhs(%b, %b2) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<8x256xf32>, tensor<128x128xf32>, tensor<256x128xf32>) -> tensor<8x128xf32>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<300xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op adds 2 dimension(s) to a rank 1 source, so the result has rank 3, not 2}}
  %r = tpu.broadcast %a dimensions = [0, 1] : tensor<300xf32> -> tensor<7x300xf32>
  return
}

// -----

func.func @broadcast_order(%a: tensor<300xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op dimensions must be increasing and in [0, 3)}}
  %r = tpu.broadcast %a dimensions = [1, 0] : tensor<300xf32> -> tensor<2x7x300xf32>
  return
}

// -----

func.func @broadcast_size(%a: tensor<300xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op result dimension 1 is 301 but the source's dimension 0 is 300}}
  %r = tpu.broadcast %a dimensions = [0] : tensor<300xf32> -> tensor<7x301xf32>
  return
}

// -----

func.func @broadcast_type(%a: tensor<300xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op keeps the element type: 'tensor<300xf32>' to 'tensor<7x300xbf16>'}}
  %r = tpu.broadcast %a dimensions = [0] : tensor<300xf32> -> tensor<7x300xbf16>
  return
}

// -----

func.func @broadcast_lanes(%a: tensor<7xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op cannot add the last dimension: repeating a value across lanes is not supported yet}}
  %r = tpu.broadcast %a dimensions = [1] : tensor<7xf32> -> tensor<7x300xf32>
  return
}

// -----

func.func @broadcast_rows(%a: tensor<2x300xf32>) {
  // expected-error @+1 {{'tpu.broadcast' op adds the second-to-last dimension (a row broadcast), which needs a rank-1 source, got 'tensor<2x300xf32>'}}
  %r = tpu.broadcast %a dimensions = [1] : tensor<2x300xf32> -> tensor<2x7x300xf32>
  return
}

// -----

func.func @reduce_shape(%a: tensor<7x300xf32>) {
  // expected-error @+1 {{'tpu.reduce' op reduces the last dimension of an f32 shape to 1, keeping the rest: 'tensor<7x300xf32>' to 'tensor<7xf32>'}}
  %r = tpu.reduce %a kind = #tpu.reduction<sum> init = 0.0 : tensor<7x300xf32> -> tensor<7xf32>
  return
}

// -----

func.func @reduce_kind(%a: tensor<7x300xf32>) {
  // expected-error @+2 {{expected ::tpu::ReductionKind to be one of: sum, max, min, maxnum, minnum}}
  // expected-error @+1 {{failed to parse TPU_ReductionKindAttr parameter 'value' which is to be a `::tpu::ReductionKind`}}
  %r = tpu.reduce %a kind = #tpu.reduction<prod> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32>
  return
}

// -----

func.func @broadcast_lanes_shape(%a: tensor<7x2xf32>) {
  // expected-error @+1 {{'tpu.broadcast_lanes' op widens a last dimension of 1, keeping the rest and the element type: 'tensor<7x2xf32>' to 'tensor<7x300xf32>'}}
  %r = tpu.broadcast_lanes %a : tensor<7x2xf32> -> tensor<7x300xf32>
  return
}

// -----

func.func @transpose_shape(%a: tensor<7x300xf32>) {
  // expected-error @+1 {{'tpu.transpose' op swaps the two minor dimensions of a rank >= 2 shape, keeping the rest and the element type: 'tensor<7x300xf32>' to 'tensor<7x300xf32>'}}
  %r = tpu.transpose %a : tensor<7x300xf32> -> tensor<7x300xf32>
  return
}

// -----

func.func @reduce_matrices_dims(%a: tensor<4x7x300xf32>) {
  // expected-error @+1 {{'tpu.reduce_matrices' op reduces distinct leading dimensions (neither of the last two), in ascending order; got [1] of 'tensor<4x7x300xf32>'}}
  %r = tpu.reduce_matrices %a dimensions = [1] kind = <sum> init = 0.0 : tensor<4x7x300xf32> -> tensor<4x300xf32>
  return
}

// -----

func.func @reduce_matrices_shape(%a: tensor<4x7x300xf32>) {
  // expected-error @+1 {{'tpu.reduce_matrices' op makes an f32 shape without the reduced dimensions: 'tensor<4x7x300xf32>' to 'tensor<7x7x300xf32>'}}
  %r = tpu.reduce_matrices %a dimensions = [0] kind = <sum> init = 0.0 : tensor<4x7x300xf32> -> tensor<7x7x300xf32>
  return
}

// -----

func.func @reduce_columns_shape(%a: tensor<7x300xf32>) {
  // expected-error @+1 {{'tpu.reduce_columns' op reduces the second-to-last dimension of an f32 shape to 1, keeping the rest: 'tensor<7x300xf32>' to 'tensor<7x1xf32>'}}
  %r = tpu.reduce_columns %a kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32>
  return
}

// -----

func.func @windows_rank(%x: tensor<9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op takes an image batch [N, H, W, C], got 'tensor<9x9x3xf32>'}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<9x9x3xf32> -> tensor<3x3x1x7x7x3xf32>
  return
}

// -----

func.func @windows_sizes(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op window, strides and dilations are two positive sizes each (rows, columns)}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 0, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<3x3x1x7x7x3xf32>
  return
}

// -----

func.func @windows_padding(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op padding is [top, bottom, left, right], none negative}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, -1>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<3x3x1x7x7x3xf32>
  return
}

// -----

func.func @windows_too_large(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op a window is larger than the padded image 'tensor<1x9x9x3xf32>'}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 5, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<3x3x1x1x7x3xf32>
  return
}

// -----

func.func @windows_result(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op result must be [3, 3, 1, 4, 9, 3] (the taps leading) or [1, 4, 9, 27] (the taps in lanes), got 'tensor<3x3x1x7x7x3xf32>'}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 2, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 1, 1>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<3x3x1x7x7x3xf32>
  return
}

// -----

func.func @windows_lanes(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op puts the taps in lanes only when each fills whole lane tiles: C must be a multiple of 128, got 'tensor<1x9x9x3xf32>'}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<1x7x7x27xf32>
  return
}

// -----

func.func @windows_type(%x: tensor<1x9x9x3xf32>) {
  // expected-error @+1 {{'tpu.windows' op keeps the element type, got 'tensor<1x9x9x3xf32>' to 'tensor<3x3x1x7x7x3xbf16>'}}
  %w = tpu.windows %x {window = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, pad_value = 0.0 : f32} : tensor<1x9x9x3xf32> -> tensor<3x3x1x7x7x3xbf16>
  return
}

// -----

func.func @epilogue_shape(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %e: tensor<7x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'tpu.matmul_passes' op every epilogue input has the result's shape [8, 128], or is a row of as many lane tiles, got 'tensor<7x128xf32>'}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%e) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32, %y: f32):
    tpu.yield %s : f32
  }
  return %r : tensor<8x128xf32>
}

// -----

func.func @epilogue_missing(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %e: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'tpu.matmul_passes' op has epilogue inputs but no epilogue}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%e) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
  return %r : tensor<8x128xf32>
}

// -----

func.func @epilogue_arguments(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>, %e: tensor<8x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'tpu.matmul_passes' op the body takes one element per input: 2 arguments, got 1}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) epilogue(%e) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32):
    tpu.yield %s : f32
  }
  return %r : tensor<8x128xf32>
}

// -----

func.func @epilogue_yield(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'tpu.matmul_passes' op the body yields 'bf16', the result's element type is 'f32'}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32):
    %t = arith.truncf %s : f32 to bf16
    tpu.yield %t : bf16
  }
  return %r : tensor<8x128xf32>
}

// -----

func.func @epilogue_blocks(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  // expected-error @+1 {{'tpu.matmul_passes' op the epilogue is one block}}
  %r = tpu.matmul_passes lhs(%a) rhs(%b) {nan_fixed_terms = 0 : i64} : (tensor<8x128xf32>, tensor<128x128xf32>) -> tensor<8x128xf32> {
  ^bb0(%s: f32):
    tpu.yield %s : f32
  ^bb1(%t: f32):
    tpu.yield %t : f32
  }
  return %r : tensor<8x128xf32>
}

// -----

func.func @prologue_type(%x: tensor<7x300xf32>) -> tensor<7x1xf32> {
  // expected-error @+1 {{'tpu.reduce' op body argument 0 has type 'bf16', the element type of its input is 'f32'}}
  %s = tpu.reduce %x kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32> {
  ^bb0(%e: bf16):
    %f = arith.extf %e : bf16 to f32
    tpu.yield %f : f32
  }
  return %s : tensor<7x1xf32>
}

// -----

func.func @prologue_blocks(%x: tensor<7x300xf32>) -> tensor<7x1xf32> {
  // expected-error @+1 {{'tpu.reduce' op the prologue is one block}}
  %s = tpu.reduce %x kind = <sum> init = 0.0 : tensor<7x300xf32> -> tensor<7x1xf32> {
  ^bb0(%e: f32):
    tpu.yield %e : f32
  ^bb1(%f: f32):
    tpu.yield %f : f32
  }
  return %s : tensor<7x1xf32>
}

// -----

func.func @permute_order(%x: tensor<2x3x7x300xf32>) -> tensor<3x2x7x300xf32> {
  // expected-error @+1 {{'tpu.permute_matrices' op permutation must order the 2 leading dimensions of 'tensor<2x3x7x300xf32>', got [1, 1]}}
  %p = tpu.permute_matrices %x permutation = [1, 1] : tensor<2x3x7x300xf32> -> tensor<3x2x7x300xf32>
  return %p : tensor<3x2x7x300xf32>
}

// -----

func.func @permute_shape(%x: tensor<2x3x7x300xf32>) -> tensor<2x3x7x300xf32> {
  // expected-error @+1 {{'tpu.permute_matrices' op result must be [3, 2, 7, 300] of the source's element type, got 'tensor<2x3x7x300xf32>'}}
  %p = tpu.permute_matrices %x permutation = [1, 0] : tensor<2x3x7x300xf32> -> tensor<2x3x7x300xf32>
  return %p : tensor<2x3x7x300xf32>
}

// -----

func.func @rows_box(%x: tensor<4x9x300xf32>) -> tensor<2x5x300xf32> {
  // expected-error @+1 {{'tpu.insert_rows' op the box of [2, 5, 300] at offsets [3, 3] (every dimension but the last, which stays whole) must lie in [4, 9, 300]}}
  %s = tpu.insert_rows %x extract offsets = [3, 3] : tensor<4x9x300xf32> -> tensor<2x5x300xf32>
  return %s : tensor<2x5x300xf32>
}

// -----

func.func @rows_both(%x: tensor<2x5x300xf32>, %y: tensor<4x9x300xf32>) -> tensor<4x9x300xf32> {
  // expected-error @+1 {{'tpu.insert_rows' op extracts from its source, or inserts into its dest; not both}}
  %s = tpu.insert_rows %x into %y extract offsets = [0, 0] : tensor<2x5x300xf32>, tensor<4x9x300xf32> -> tensor<4x9x300xf32>
  return %s : tensor<4x9x300xf32>
}

// -----

func.func @rows_dest(%x: tensor<2x5x300xf32>, %y: tensor<4x8x300xf32>) -> tensor<4x9x300xf32> {
  // expected-error @+1 {{'tpu.insert_rows' op the dest has the result's shape [4, 9, 300], got 'tensor<4x8x300xf32>'}}
  %s = tpu.insert_rows %x into %y offsets = [0, 0] : tensor<2x5x300xf32>, tensor<4x8x300xf32> -> tensor<4x9x300xf32>
  return %s : tensor<4x9x300xf32>
}

// -----

func.func @rows_type(%x: tensor<2x5x300xf32>) -> tensor<4x9x300xbf16> {
  // expected-error @+1 {{'tpu.insert_rows' op keeps the element type, got 'tensor<2x5x300xf32>' for 'tensor<4x9x300xbf16>'}}
  %s = tpu.insert_rows %x offsets = [0, 0] : tensor<2x5x300xf32> -> tensor<4x9x300xbf16>
  return %s : tensor<4x9x300xbf16>
}

// -----

func.func @permute_rows_rank(%x: tensor<300xf32>) -> tensor<300xf32> {
  // expected-error @+1 {{'tpu.permute_rows' op permutes the rows of a rank >= 2 shape, got 'tensor<300xf32>'}}
  %p = tpu.permute_rows %x permutation = [] : tensor<300xf32> -> tensor<300xf32>
  return %p : tensor<300xf32>
}

// -----

func.func @permute_rows_order(%x: tensor<3x7x300xf32>) -> tensor<7x3x300xf32> {
  // expected-error @+1 {{'tpu.permute_rows' op permutation must order the 2 dimensions before the last of 'tensor<3x7x300xf32>', got [1, 1]}}
  %p = tpu.permute_rows %x permutation = [1, 1] : tensor<3x7x300xf32> -> tensor<7x3x300xf32>
  return %p : tensor<7x3x300xf32>
}

// -----

func.func @permute_rows_kept(%x: tensor<2x3x7x300xf32>) -> tensor<3x2x7x300xf32> {
  // expected-error @+1 {{'tpu.permute_rows' op keeps the rows in place; that is tpu.permute_matrices}}
  %p = tpu.permute_rows %x permutation = [1, 0, 2] : tensor<2x3x7x300xf32> -> tensor<3x2x7x300xf32>
  return %p : tensor<3x2x7x300xf32>
}

// -----

func.func @permute_rows_empty(%x: tensor<0x7x300xf32>) -> tensor<7x0x300xf32> {
  // expected-error @+1 {{'tpu.permute_rows' op has no rows to move in 'tensor<0x7x300xf32>'}}
  %p = tpu.permute_rows %x permutation = [1, 0] : tensor<0x7x300xf32> -> tensor<7x0x300xf32>
  return %p : tensor<7x0x300xf32>
}

// -----

func.func @permute_rows_shape(%x: tensor<3x7x300xf32>) -> tensor<3x7x300xf32> {
  // expected-error @+1 {{'tpu.permute_rows' op result must be [7, 3, 300] of the source's element type, got 'tensor<3x7x300xf32>'}}
  %p = tpu.permute_rows %x permutation = [1, 0] : tensor<3x7x300xf32> -> tensor<3x7x300xf32>
  return %p : tensor<3x7x300xf32>
}

// -----

func.func @permute_rank(%x: tensor<7x300xf32>) -> tensor<7x300xf32> {
  // expected-error @+1 {{'tpu.permute_matrices' op permutes the leading dimensions of a rank >= 3 shape, got 'tensor<7x300xf32>'}}
  %p = tpu.permute_matrices %x permutation = [] : tensor<7x300xf32> -> tensor<7x300xf32>
  return %p : tensor<7x300xf32>
}
