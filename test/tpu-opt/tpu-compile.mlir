// The registered pipeline, from upstream linalg on tensors to a bundled
// tpu_isa.program that tpu-translate encodes.
// RUN: tpu-opt %s --tpu-compile="chip=v3 default-precision=highest" | FileCheck %s
// RUN: tpu-opt %s --tpu-compile="chip=v3 default-precision=highest" | tpu-translate --export-tpu-asm | FileCheck %s --check-prefix=ASM --implicit-check-not=v.pack.bf16 --implicit-check-not=mxu.ldw.bf16
// RUN: tpu-opt %s --tpu-compile="chip=v3 default-precision=highest fusion=false" | tpu-translate --export-tpu-asm | FileCheck %s --check-prefix=UNFUSED
// RUN: tpu-opt %s --tpu-compile="chip=v2 split=trunc" | FileCheck %s --check-prefix=V2

// Loops stay loops: from 2048^3 to 16384^3 the program's size stays
// within 10% at HIGH, and at DEFAULT no larger size's exceeds 1.5x
// 2048^3's (the performance issue's bound), where unrolling over the
// matrix would grow it 512 times. The plan changes, the LHS resident in
// VMEM or streamed, and so do a few constants: a chunk that divides the
// rows makes the push loops' bounds constants (16384^3, 490 instructions),
// one that does not computes them (4096^3's chunk of 104 row blocks, 831;
// 2048^3 745).
// RUN: for n in 2048 4096 8192 16384; do tpu-opt %S/Inputs/matmul-$n.mlir --tpu-compile | grep -c 'inst '; done > %t.counts
// RUN: awk 'NR == 1 { base = $1 } $1 > 1.5 * base { grew = 1 } END { exit grew }' %t.counts
// RUN: for n in 2048 4096 8192 16384; do tpu-opt %S/Inputs/matmul-$n.mlir --tpu-compile=default-precision=high | grep -c 'inst '; done > %t.counts3
// RUN: awk 'NR == 1 { lo = hi = $1 } { lo = $1 < lo ? $1 : lo; hi = $1 > hi ? $1 : hi } END { exit !(hi <= 1.1 * lo) }' %t.counts3

// tpu-canonicalize and cse run twice: the second round folds what the
// first's constants, merged by cse, allow, such as nested scf.ifs into one
// on a conjunction (which tpu-lower-to-isa branches on per operand).
// RUN: tpu-opt %S/Inputs/matmul-2048.mlir --tpu-compile -mlir-print-ir-before=tpu-plan-memory -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: %[[BOTH:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// TWICE-NEXT: scf.if %[[BOTH]] {

// The program's own functions are inlined into the entry first; the private
// callee, inlined everywhere, is gone.
// RUN: tpu-opt %S/Inputs/calls.mlir --tpu-compile | FileCheck %s --check-prefix=CALLS
// CALLS-NOT: func.call
// CALLS-NOT: @double
// CALLS: tpu_isa.program @main
// CALLS-COUNT-2: v.add
// CALLS-NOT: func.

// Bad options are errors that name the option.
// RUN: not tpu-opt %s --tpu-compile="chip=v7" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not tpu-opt %s --tpu-compile="split=up" 2>&1 | FileCheck %s --check-prefix=BADSPLIT
// RUN: not tpu-opt %s --tpu-compile="default-precision=hihgest" 2>&1 | FileCheck %s --check-prefix=BADPRECISION

// CHECK: module attributes {tpu.chip = #tpu.chip<v3>}
// CHECK: tpu_isa.program @main attributes {arguments = [#tpu_isa.tensor<"arg0", tensor<7x300xf32>, hbm = 0>, #tpu_isa.tensor<"arg1", tensor<300x129xf32>, hbm = 3>], results = [#tpu_isa.tensor<"result0", tensor<7x129xf32>, hbm = {{[0-9]+}}>], useful_f32_macs = 270900 : i64, useful_macs = 1625400 : i64}
// CHECK-NOT: func.func @main
// The matmul the entry does not reach is left alone.
// CHECK: func.func @helper
// Fused, the matmul splits its f32 operands in VMEM (the FLT_MAX guard's
// truncation beside the rounding) and latches the f32 parts; unfused, the
// split writes packed bf16 planes, which the matmul latches and unpacks.
// ASM: ; chip v3, entry main, {{[0-9]+}} bundles, useful MACs 1625400
// ASM: v.rne.bf16
// ASM: v.trunc.bf16
// ASM: mxu.ldw 1,
// ASM: mxu.push 1,
// ASM: mxu.pop {{v[0-9]+}}, 1,
// ASM: v.cmp.ne
// ASM: v.sel
// ASM: halt
// UNFUSED: v.rne.bf16
// UNFUSED: v.trunc.bf16
// UNFUSED: v.pack.bf16
// UNFUSED: mxu.ldw.bf16 1,
// UNFUSED: v.unpack.lo
// UNFUSED: mxu.push 1,
// UNFUSED: halt
// V2: module attributes {tpu.chip = #tpu.chip<v2>}
// V2: useful_macs = 270900
// V2-NOT: mxu.ldw 1
// BADCHIP: for the --chip option: unknown chip 'v7'; expected one of v2, v3, v4
// BADSPLIT: for the --split option: unknown rounding 'up'; expected rne (round to nearest even) or trunc
// BADPRECISION: for the --default-precision option: unknown precision 'hihgest'; expected one of default, high, highest (or JAX's bfloat16
func.func @main(%a: tensor<7x300xf32>, %b: tensor<300x129xf32>) -> tensor<7x129xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<7x129xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<7x129xf32>) -> tensor<7x129xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x300xf32>, tensor<300x129xf32>)
                     outs(%init : tensor<7x129xf32>) -> tensor<7x129xf32>
  return %c : tensor<7x129xf32>
}

func.func @helper(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> tensor<8x128xf32> {
  %c = tpu.matmul %a, %b : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %c : tensor<8x128xf32>
}
