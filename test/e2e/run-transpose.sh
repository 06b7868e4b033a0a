#!/usr/bin/env bash
# One linalg.transpose: writes it, compiles it, runs it in tpu-sim on
# special values (fixed seed) and compares the result bit for bit with the
# model (tpu-ref transpose) and the CPU (a transpose only moves words).
#
#   run-transpose.sh SHAPE CHIP [WORKDIR [PERMUTATION]]
#     SHAPE        e.g. 2x7x300
#     PERMUTATION  e.g. 1,0,2,3 (default: the last two dimensions swapped)
set -euo pipefail
shape=$1 chip=$2
dir=${3:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r -a dims <<<"$shape"
rank=${#dims[@]}
if [[ -n ${4:-} ]]; then
  IFS=, read -r -a perm <<<"$4"
else
  perm=()
  for ((d = 0; d < rank - 2; ++d)); do perm+=("$d"); done
  perm+=("$((rank - 1))" "$((rank - 2))")
fi
out=()
for d in "${perm[@]}"; do out+=("${dims[d]}"); done
outShape=$(IFS=x; echo "${out[*]}")
permutation=$(IFS=,; echo "${perm[*]}")
{
  echo "func.func @main(%a: tensor<${shape}xf32>) -> tensor<${outShape}xf32> {"
  echo "  %e = tensor.empty() : tensor<${outShape}xf32>"
  echo "  %t = linalg.transpose ins(%a : tensor<${shape}xf32>) outs(%e : tensor<${outShape}xf32>) permutation = [${permutation//,/, }]"
  echo "  return %t : tensor<${outShape}xf32>"
  echo "}"
} >"$dir/input.mlir"
tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
tpu-ref random --shape="$shape" --seed=31 --dist=special -o "$dir/a.npy"
tpu-sim "$dir/program.tpu" --input "$dir/a.npy" --output "$dir/tpu.npy" \
  --quiet --poison-uninitialized
tpu-ref transpose --permutation="$permutation" "$dir/a.npy" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
tpu-cpu-run "$dir/input.mlir" --input "$dir/a.npy" --output "$dir/cpu.npy"
echo -n "cpu: "
tpu-ref compare "$dir/tpu.npy" "$dir/cpu.npy"
