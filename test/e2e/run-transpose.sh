#!/usr/bin/env bash
# One transpose of the last two dimensions: writes the linalg.transpose,
# compiles it, runs it in tpu-sim on special values (fixed seed) and
# compares the result with the CPU's bit for bit.
#
#   run-transpose.sh SHAPE CHIP [WORKDIR]     SHAPE e.g. 2x7x300
set -euo pipefail
shape=$1 chip=$2
dir=${3:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r -a dims <<<"$shape"
rank=${#dims[@]}
out=("${dims[@]}")
out[rank - 1]=${dims[rank - 2]}
out[rank - 2]=${dims[rank - 1]}
outShape=$(IFS=x; echo "${out[*]}")
permutation=""
for ((d = 0; d < rank - 2; ++d)); do permutation+="$d, "; done
permutation+="$((rank - 1)), $((rank - 2))"
{
  echo "func.func @main(%a: tensor<${shape}xf32>) -> tensor<${outShape}xf32> {"
  echo "  %e = tensor.empty() : tensor<${outShape}xf32>"
  echo "  %t = linalg.transpose ins(%a : tensor<${shape}xf32>) outs(%e : tensor<${outShape}xf32>) permutation = [$permutation]"
  echo "  return %t : tensor<${outShape}xf32>"
  echo "}"
} >"$dir/input.mlir"
tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
tpu-ref random --shape="$shape" --seed=31 --dist=special -o "$dir/a.npy"
tpu-sim "$dir/program.tpu" --input "$dir/a.npy" --output "$dir/tpu.npy" \
  --quiet --poison-uninitialized
tpu-cpu-run "$dir/input.mlir" --input "$dir/a.npy" --output "$dir/cpu.npy"
tpu-ref compare "$dir/tpu.npy" "$dir/cpu.npy"
