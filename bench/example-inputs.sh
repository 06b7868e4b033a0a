#!/usr/bin/env bash
# Writes the inputs of the four examples into DIR/<example>/, named as
# test/e2e/run-model.sh names them, with tpu-ref (on PATH), and prints one
# line per example: its name and its inputs in argument order. Shared by
# bench/fusion.sh and bench/sweep.py.
#   example-inputs.sh DIR
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
mkdir -p "$dir/mlp" "$dir/attention"
tpu-ref random --shape=256x784 --dist=uniform --seed=1 -o "$dir/mlp/x.npy"
tpu-ref random --shape=784x1024 --seed=2 -o "$dir/mlp/w1.npy"
tpu-ref random --shape=1024 --seed=3 -o "$dir/mlp/b1.npy"
tpu-ref random --shape=1024x10 --seed=4 -o "$dir/mlp/w2.npy"
tpu-ref random --shape=10 --seed=5 -o "$dir/mlp/b2.npy"
seed=1
for name in q k v; do
  tpu-ref random --shape=512x128 --seed=$seed -o "$dir/attention/$name.npy"
  seed=$((seed + 1))
done
bash examples/transformer_block-inputs.sh "$dir/transformer_block"
bash examples/cnn-inputs.sh "$dir/cnn"
echo "mlp x w1 b1 w2 b2"
echo "attention q k v"
echo "transformer_block $(seq -s ' ' -f 'in%g' 1 13)"
echo "cnn x w1 b1 w2 b2 w3 b3"
