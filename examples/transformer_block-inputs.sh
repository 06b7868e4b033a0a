#!/usr/bin/env bash
# Writes the 13 inputs of examples/transformer_block.mlir into DIR as
# in1.npy .. in13.npy, in argument order, with tpu-ref (on PATH): x from a
# normal distribution, LayerNorm parameters and biases uniform, weights
# uniform in +-1/fan-in^0.5-ish (1/16 for 256 inputs, 1/8 for 64, 1/32 for
# 1024), as a trained block's are scaled; unscaled weights would saturate
# every softmax.
#   transformer_block-inputs.sh DIR
set -euo pipefail
dir=$1
mkdir -p "$dir"
i=1
while read -r shape dist scale; do
  tpu-ref random --shape="$shape" --seed=$i --dist="$dist" --scale="$scale" \
    -o "$dir/in$i.npy"
  i=$((i + 1))
done <<'INPUTS'
128x256 normal 1
256 uniform 1
256 uniform 1
4x256x64 uniform 0.0625
4x256x64 uniform 0.0625
4x256x64 uniform 0.0625
4x64x256 uniform 0.125
256 uniform 1
256 uniform 1
256x1024 uniform 0.0625
1024 uniform 0.1
1024x256 uniform 0.03125
256 uniform 0.1
INPUTS
