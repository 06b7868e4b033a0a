#!/usr/bin/env bash
# One end-to-end pooling, linalg.pooling_nhwc_KIND, its image padded first
# by a tensor.pad of PADVALUE unless the padding is 0,0,0,0: compiled with
# tpu-opt --tpu-compile, run in tpu-sim on random inputs (reads of memory
# nothing wrote trap), and checked bit for bit
#  1. against the model (tpu-ref pool: the taps combined in order into the
#     init), NaNs included, and
#  2. against the CPU (upstream MLIR) on flushed inputs, which combines the
#     taps in the same order; any NaN matches any NaN.
#
#   run-pool.sh KIND IMAGE WINDOW STRIDES DILATIONS PADDING PADVALUE CHIP [DIST] [WORKDIR]
#     KIND  max | min | sum      IMAGE  NxHxWxC      WINDOW  KHxKW
#     PADVALUE  a number, inf or -inf
#     STRIDES, DILATIONS  rows,cols     PADDING  top,bottom,left,right
set -euo pipefail
kind=$1 image=$2 window=$3 strides=$4 dilations=$5 padding=$6 padvalue=$7
chip=$8 dist=${9:-normal}
dir=${10:-$(mktemp -d)}
mkdir -p "$dir"
IFS=x read -r kh kw <<<"$window"
source "$(dirname "$0")/windows.sh"
case $kind in
max) init=0xFF800000 initFlag=-inf ;;
min) init=0x7F800000 initFlag=inf ;;
sum) init=0.0 initFlag=0 ;;
esac
# PADVALUE as an MLIR float literal.
case $padvalue in
-inf) padliteral=0xFF800000 ;;
inf) padliteral=0x7F800000 ;;
*.* | *e*) padliteral=$padvalue ;;
*) padliteral=$padvalue.0 ;;
esac
t() { echo "tensor<${1}xf32>"; }
x=$(t "$image") p=$(t "${n}x${ph}x${pw}x${c}") y=$(t "${n}x${oh}x${ow}x${c}")
{
  echo "func.func @main(%x: $x) -> $y {"
  echo "  %init = arith.constant $init : f32"
  echo "  %pad = arith.constant $padliteral : f32"
  image_pad %pad
  echo "  %window = tensor.empty() : tensor<${kh}x${kw}xf32>"
  echo "  %e = tensor.empty() : $y"
  echo "  %filled = linalg.fill ins(%init : f32) outs(%e : $y) -> $y"
  echo "  %y = linalg.pooling_nhwc_$kind"
  echo "         {strides = dense<[$sh, $sw]> : tensor<2xi64>, dilations = dense<[$dh, $dw]> : tensor<2xi64>}"
  echo "         ins($source, %window : $p, tensor<${kh}x${kw}xf32>) outs(%filled : $y) -> $y"
  echo "  return %y : $y"
  echo "}"
} >"$dir/input.mlir"
tpu-opt "$dir/input.mlir" --tpu-compile="chip=$chip" -o "$dir/program.mlir"
tpu-translate --export-tpu-bin "$dir/program.mlir" -o "$dir/program.tpu"
tpu-ref random --shape="$image" --seed=1 --dist="$dist" -o "$dir/x.npy"
tpu-sim "$dir/program.tpu" --input "$dir/x.npy" --output "$dir/tpu.npy" \
  --stats "$dir/stats.json" --quiet --poison-uninitialized
echo "pool $kind $image window $window strides $strides dilations" \
  "$dilations padding $padding ($padvalue) $chip $dist:" \
  "$(grep -o '"cycles": [0-9]*' "$dir/stats.json")"
tpu-ref pool --kind="$kind" --init="$initFlag" --window="${kh},${kw}" \
  --strides="$strides" --dilations="$dilations" --padding="$padding" \
  --pad-value="$padvalue" "$dir/x.npy" -o "$dir/model.npy"
echo -n "model: "
tpu-ref compare "$dir/tpu.npy" "$dir/model.npy"
tpu-ref flush "$dir/x.npy" -o "$dir/x.flushed.npy"
tpu-cpu-run "$dir/input.mlir" --input "$dir/x.flushed.npy" \
  --output "$dir/cpu.npy"
echo -n "cpu: "
tpu-ref compare --nan=any "$dir/tpu.npy" "$dir/cpu.npy"
