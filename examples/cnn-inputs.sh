#!/usr/bin/env bash
# Writes the 7 inputs of examples/cnn.mlir into DIR as x.npy, w1.npy,
# b1.npy, w2.npy, b2.npy, w3.npy, b3.npy, with tpu-ref (on PATH): images
# uniform in [-1, 1) (normalized pixels), weights uniform scaled by about
# 1/fan-in^0.5 (fan-in 27, 288 and 4096), biases uniform and small.
#   cnn-inputs.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
seed=1
while read -r name shape scale; do
  tpu-ref random --shape="$shape" --seed=$seed --dist=uniform \
    --scale="$scale" -o "$dir/$name.npy"
  seed=$((seed + 1))
done <<'INPUTS'
x 8x32x32x3 1
w1 3x3x3x32 0.1875
b1 32 0.1
w2 3x3x32x64 0.0625
b2 64 0.1
w3 8x8x64x10 0.015625
b3 10 0.1
INPUTS
