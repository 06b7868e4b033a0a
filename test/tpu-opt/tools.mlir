// tpu-opt is an mlir-opt: it lists the dialects an input may use, runs
// upstream passes by name or pipeline, and prints IR between passes.

// RUN: tpu-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects:
// DIALECTS-SAME: arith
// DIALECTS-SAME: bufferization
// DIALECTS-SAME: func
// DIALECTS-SAME: linalg
// DIALECTS-SAME: math
// DIALECTS-SAME: memref
// DIALECTS-SAME: scf
// DIALECTS-SAME: tensor
// DIALECTS-SAME: tpu

// RUN: tpu-opt --help | FileCheck %s --check-prefix=HELP
// The help's sections come in LLVM's order, not ours.
// HELP-DAG: TPU compiler driver
// HELP-DAG: --pass-pipeline
// HELP-DAG: --split-input-file
// HELP-DAG: Compiler passes to run
// HELP-DAG: --canonicalize
// HELP-DAG: --convert-elementwise-to-linalg
// HELP-DAG: --tpu-compile
// HELP-DAG: --verify-diagnostics

// RUN: tpu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s --check-prefix=PIPELINE
// RUN: tpu-opt %s --canonicalize --cse --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=AFTER-ALL

// PIPELINE-LABEL: func @dedup
// PIPELINE: %[[M:.*]] = tpu.matmul
// PIPELINE-NOT: tpu.matmul
// PIPELINE: return %[[M]], %[[M]]

// AFTER-ALL: IR Dump After Canonicalizer
// AFTER-ALL: tpu.matmul
// AFTER-ALL: tpu.matmul
// AFTER-ALL: IR Dump After CSE
// AFTER-ALL: %[[M:.*]] = tpu.matmul
// AFTER-ALL-NEXT: return %[[M]], %[[M]]
func.func @dedup(%a: tensor<8x128xf32>, %b: tensor<128x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>) {
  %0 = tpu.matmul %a, %b : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  %1 = tpu.matmul %a, %b : tensor<8x128xf32>, tensor<128x128xf32> -> tensor<8x128xf32>
  return %0, %1 : tensor<8x128xf32>, tensor<8x128xf32>
}
