#!/usr/bin/env bash
# One end-to-end reduction: writes a linalg.reduce over the last dimension,
# or over the leading dimensions DIMS (init a fill of INIT), compiles it with tpu-opt --tpu-compile,
# runs it in tpu-sim on random inputs, and checks the result
#  1. bit for bit against the model (tpu-ref reduce: the order of
#     docs/Numerics.md, "Reductions"), NaNs included, and
#  2. against the CPU (upstream MLIR, f32, from flushed inputs): bit for bit
#     for max and min, which no order changes (maxnum and minnum as numbers:
#     the host may give either zero of max(-0, +0)); within 1e-5 of the sum
#     of magnitudes for sums, which the CPU adds in another order.
#
#   run-reduce.sh KIND SHAPE CHIP DIST INIT [WORKDIR [DIMS]]
#     KIND   sum | max | min | maxnum | minnum
#     SHAPE  rows x cols, e.g. 7x300 (or just cols)
#     DIST   normal | uniform | special | "constant --value=V"
#     INIT   the fill: a decimal number, -inf, inf or nan
#     DIMS   leading dimensions to reduce, as 0 or 0,1 (default: the last)
set -euo pipefail
kind=$1 shape=$2 chip=$3 dist=$4 init=$5
dir=${6:-$(mktemp -d)}
reduced=${7:-}
mkdir -p "$dir"
IFS=x read -r -a dims <<<"$shape"
rank=${#dims[@]}
[[ -n $reduced ]] || reduced=$((rank - 1))
case $init in
  -inf) literal=0xFF800000 ;;
  inf) literal=0x7F800000 ;;
  nan) literal=0x7FC00000 ;;
  *) literal=$init ;;
esac
combiner=$(case $kind in sum) echo addf ;; max) echo maximumf ;; min) echo minimumf ;;
  maxnum) echo maxnumf ;; minnum) echo minnumf ;; esac)
in="tensor<${shape}xf32>"
kept=()
for d in "${!dims[@]}"; do
  [[ ",$reduced," == *",$d,"* ]] || kept+=("${dims[$d]}")
done
if ((${#kept[@]})); then out="tensor<$(IFS=x; echo "${kept[*]}")xf32>"; else out="tensor<f32>"; fi
{
  echo "func.func @main(%x: $in) -> $out {"
  echo "  %init = arith.constant $literal : f32"
  echo "  %empty = tensor.empty() : $out"
  echo "  %filled = linalg.fill ins(%init : f32) outs(%empty : $out) -> $out"
  echo "  %r = linalg.reduce ins(%x : $in) outs(%filled : $out) dimensions = [$reduced]"
  echo "    (%in: f32, %acc: f32) {"
  echo "      %c = arith.$combiner %in, %acc : f32"
  echo "      linalg.yield %c : f32"
  echo "    }"
  echo "  return %r : $out"
  echo "}"
} >"$dir/input.mlir"

tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
# DIST may carry more flags: "constant --value=-3".
# shellcheck disable=SC2086
tpu-ref random --shape="$shape" --seed=11 --dist=$dist -o "$dir/x.npy"
tpu-sim "$dir/program.tpu" --input "$dir/x.npy" --output "$dir/tpu.npy" \
  --stats "$dir/stats.json" --quiet --poison-uninitialized
echo "$kind $shape $chip $dist:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"
leading=()
[[ $reduced == "$((rank - 1))" ]] || leading=(--dimensions="$reduced")
tpu-ref reduce --kind="$kind" --init="$init" "${leading[@]}" "$dir/x.npy" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
tpu-ref flush "$dir/x.npy" -o "$dir/x.flushed.npy"
tpu-cpu-run "$dir/input.mlir" --input "$dir/x.flushed.npy" --output "$dir/cpu.npy"
# maxnumf and minnumf leave max(-0, +0) to the implementation (the host's
# gives either): equal values, as numbers, match there.
tolerance=()
[[ $kind == sum ]] && tolerance=(--rtol=1e-5 --atol=1e-5)
[[ $kind == maxnum || $kind == minnum ]] && tolerance=(--rtol=0 --atol=0)
echo -n "cpu: "
tpu-ref compare --nan=any "${tolerance[@]}" "$dir/tpu.npy" "$dir/cpu.npy"
