#!/usr/bin/env bash
# One end-to-end convolution, linalg.conv_2d_nhwc_hwcf, its image padded
# first by a tensor.pad of zeros (SAME padding, as frontends emit it)
# unless the padding is 0,0,0,0: compiled with tpu-opt --tpu-compile, run
# in tpu-sim on random inputs (reads of memory nothing wrote trap), and
# checked
#  1. bit for bit against the model (tpu-ref conv: docs/Numerics.md's
#     im2col matrix, channels padded to 128, times the filter matrix by
#     the matmul model), and
#  2. against the CPU (upstream MLIR, f32) within the precision's matmul
#     error bound for the two matrices (tpu-ref im2col, check-bound).
#
#   run-conv.sh IMAGE FILTER STRIDES DILATIONS PADDING PRECISION CHIP [DIST] [WORKDIR]
#     IMAGE    NxHxWxC          FILTER  KHxKWxF
#     STRIDES, DILATIONS  rows,cols     PADDING  top,bottom,left,right
set -euo pipefail
image=$1 filter=$2 strides=$3 dilations=$4 padding=$5 precision=$6 chip=$7
dist=${8:-normal}
dir=${9:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r kh kw f <<<"$filter"
source "$(dirname "$0")/windows.sh"
t() { echo "tensor<${1}xf32>"; }
x=$(t "$image") p=$(t "${n}x${ph}x${pw}x${c}") wt=$(t "${kh}x${kw}x${c}x${f}")
y=$(t "${n}x${oh}x${ow}x${f}")
{
  echo "func.func @main(%x: $x, %w: $wt) -> $y {"
  echo "  %zero = arith.constant 0.0 : f32"
  image_pad %zero
  echo "  %e = tensor.empty() : $y"
  echo "  %init = linalg.fill ins(%zero : f32) outs(%e : $y) -> $y"
  echo "  %y = linalg.conv_2d_nhwc_hwcf"
  echo "         {strides = dense<[$sh, $sw]> : tensor<2xi64>, dilations = dense<[$dh, $dw]> : tensor<2xi64>}"
  echo "         ins($source, %w : $p, $wt) outs(%init : $y) -> $y"
  echo "  return %y : $y"
  echo "}"
} >"$dir/input.mlir"
tpu-opt "$dir/input.mlir" \
  --tpu-compile="chip=$chip default-precision=$precision" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
tpu-ref random --shape="$image" --seed=1 --dist="$dist" -o "$dir/x.npy"
tpu-ref random --shape="${kh}x${kw}x${c}x${f}" --seed=2 --dist="$dist" \
  -o "$dir/w.npy"
inputs=(--input "$dir/x.npy" --input "$dir/w.npy")
tpu-sim "$dir/program.tpu" "${inputs[@]}" --output "$dir/tpu.npy" \
  --stats "$dir/stats.json" --quiet --poison-uninitialized
echo "conv $image * $filter strides $strides dilations $dilations" \
  "padding $padding $precision $chip $dist:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"
window=(--strides="$strides" --dilations="$dilations" --padding="$padding")
tpu-ref conv "${window[@]}" --precision="$precision" "$dir/x.npy" \
  "$dir/w.npy" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
if [[ $dist != special ]]; then
  tpu-cpu-run "$dir/input.mlir" "${inputs[@]}" --output "$dir/cpu.npy"
  tpu-ref im2col "${window[@]}" "$dir/x.npy" "$dir/w.npy" -o "$dir/a.npy" \
    --filter-output="$dir/b.npy"
  echo -n "cpu: "
  tpu-ref check-bound "$dir/tpu.npy" "$dir/cpu.npy" "$dir/a.npy" \
    "$dir/b.npy" --precision="$precision"
fi
