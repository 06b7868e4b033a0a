#!/usr/bin/env bash
# Prints an M x K x N f32 linalg.matmul from zeros, as a user writes it in
# upstream MLIR: the benchmarks' one source of matmul programs.
#   matmul-mlir.sh M K N
set -euo pipefail
m=$1 k=$2 n=$3
t() { echo "tensor<${1}xf32>"; }
cat <<EOM
func.func @main(%a: $(t ${m}x${k}), %b: $(t ${k}x${n})) -> $(t ${m}x${n}) {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : $(t ${m}x${n})
  %c = linalg.fill ins(%zero : f32) outs(%empty : $(t ${m}x${n})) -> $(t ${m}x${n})
  %r = linalg.matmul ins(%a, %b : $(t ${m}x${k}), $(t ${k}x${n})) outs(%c : $(t ${m}x${n})) -> $(t ${m}x${n})
  return %r : $(t ${m}x${n})
}
EOM
