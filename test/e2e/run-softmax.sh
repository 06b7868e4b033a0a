#!/usr/bin/env bash
# One end-to-end linalg.softmax over the last dimension, of any rank
# (upstream's named op, which tpu-convert-linalg decomposes as upstream
# does: a maxnumf
# reduction from NaN, exp of the difference, a sum, a division), compiled
# with tpu-opt --tpu-compile, run in tpu-sim on random inputs, and checked
#  1. bit for bit against the model applied step by step (tpu-ref reduce,
#     broadcast and elementwise: the reductions in docs/Numerics.md's
#     order), NaNs included, and
#  2. against the CPU (upstream MLIR, f32, from flushed inputs), within a
#     relative (2 n + 6) 2^-24 for rows of n: each side's exp is within an
#     ulp of the true value, each side's sum of n positive terms within
#     (n - 1) 2^-24 relative whatever its order, and the division rounds
#     once; any NaN matches any NaN, and results below 1e-30 (flushed on
#     the TPU, subnormal on the CPU) match zero.
#
#   run-softmax.sh SHAPE CHIP DIST [WORKDIR]
#     SHAPE  e.g. 7x300, or 4x7x300 (a softmax per matrix)
#     DIST   normal | uniform | special | "constant --value=V"
set -euo pipefail
shape=$1 chip=$2 dist=$3
dir=${4:-$(mktemp -d)}
mkdir -p "$dir"
t="tensor<${shape}xf32>"
IFS=x read -r -a dims <<<"$shape"
last=$((${#dims[@]} - 1))
cat >"$dir/input.mlir" <<MLIR
func.func @main(%x: $t) -> $t {
  %e = tensor.empty() : $t
  %s = linalg.softmax dimension($last) ins(%x : $t) outs(%e : $t) -> $t
  return %s : $t
}
MLIR
tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
# DIST may carry more flags: "constant --value=-3".
# shellcheck disable=SC2086
tpu-ref random --shape="$shape" --seed=31 --dist=$dist -o "$dir/x.npy"
tpu-sim "$dir/program.tpu" --input "$dir/x.npy" --output "$dir/tpu.npy" \
  --stats "$dir/stats.json" --quiet --poison-uninitialized
echo "softmax $shape $chip $dist:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"

m=$dir/model
tpu-ref reduce --kind=maxnum --init=nan "$dir/x.npy" -o "$m.max.npy"
tpu-ref broadcast --shape="$shape" --dimensions=$last "$m.max.npy" -o "$m.wmax.npy"
tpu-ref elementwise --op=subf "$dir/x.npy" "$m.wmax.npy" -o "$m.diff.npy"
tpu-ref elementwise --op=exp "$m.diff.npy" -o "$m.exp.npy"
tpu-ref reduce --kind=sum --init=0 "$m.exp.npy" -o "$m.sum.npy"
tpu-ref broadcast --shape="$shape" --dimensions=$last "$m.sum.npy" -o "$m.wsum.npy"
tpu-ref elementwise --op=divf "$m.exp.npy" "$m.wsum.npy" -o "$m.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$m.npy"

tpu-ref flush "$dir/x.npy" -o "$dir/x.flushed.npy"
tpu-cpu-run "$dir/input.mlir" --input "$dir/x.flushed.npy" --output "$dir/cpu.npy"
echo -n "cpu: "
cols=${shape##*x}
rtol=$(awk -v n="$cols" 'BEGIN { printf "%.3g", (2 * n + 6) / 16777216 }')
tpu-ref compare --nan=any --rtol="$rtol" --atol=1e-30 "$dir/tpu.npy" "$dir/cpu.npy"
