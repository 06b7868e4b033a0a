#!/usr/bin/env bash
# Sets everything up and runs the main job end to end: compiles the example
# matmul (examples/matmul.mlir, plain upstream MLIR, 7x300 by 300x129) with
# tpu-opt --tpu-compile at HIGHEST precision for v4, encodes it with
# tpu-translate, runs it in tpu-sim on random inputs, prints where the cycles
# went, and checks the result bit for bit against the reference model and
# against the same .mlir run on the CPU in f32; then does the same for the
# MLP of examples/mlp.mlir (checked against the CPU within 1e-4), the
# attention head of examples/attention.mlir (within 1e-5) and the
# transformer block of examples/transformer_block.mlir (within 1e-5), each
# also bit for bit against the reference model applied op by op
# (test/e2e/run-model.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
bin=${TPU_BUILD_DIR:-build}/bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== tpu-opt examples/matmul.mlir --tpu-compile=\"chip=v4 default-precision=highest\""
"$bin/tpu-opt" examples/matmul.mlir \
  --tpu-compile="chip=v4 default-precision=highest" -o "$out/matmul.isa.mlir"
echo "== tpu-translate --export-tpu-bin"
"$bin/tpu-translate" --export-tpu-bin "$out/matmul.isa.mlir" -o "$out/matmul.tpu"
"$bin/tpu-translate" --export-tpu-asm "$out/matmul.isa.mlir" -o "$out/matmul.s"
head -5 "$out/matmul.s"

echo "== inputs: a = 7x300, b = 300x129, random normal"
"$bin/tpu-ref" random --shape=7x300 --seed=1 -o "$out/a.npy"
"$bin/tpu-ref" random --shape=300x129 --seed=2 -o "$out/b.npy"

echo "== tpu-sim matmul.tpu --input a.npy --input b.npy --output c.npy"
"$bin/tpu-sim" "$out/matmul.tpu" --input "$out/a.npy" --input "$out/b.npy" \
  --output "$out/c.npy" --stats "$out/stats.json" --trace "$out/trace.json"

echo "== result check against the reference model (HIGHEST, bit-exact)"
"$bin/tpu-ref" matmul "$out/a.npy" "$out/b.npy" --precision=highest \
  -o "$out/reference.npy"
"$bin/tpu-ref" compare "$out/c.npy" "$out/reference.npy"

echo "== result check against the CPU (upstream MLIR, f32)"
"$bin/tpu-cpu-run" examples/matmul.mlir --input "$out/a.npy" \
  --input "$out/b.npy" --output "$out/cpu.npy"
"$bin/tpu-ref" check-bound "$out/c.npy" "$out/cpu.npy" "$out/a.npy" \
  "$out/b.npy" --precision=highest

echo
echo "== examples/mlp.mlir: 784-1024-10 MLP, batch 256, bias, ReLU, softmax"
"$bin/tpu-opt" examples/mlp.mlir \
  --tpu-compile="chip=v4 default-precision=highest" -o "$out/mlp.isa.mlir"
"$bin/tpu-translate" --export-tpu-bin "$out/mlp.isa.mlir" -o "$out/mlp.tpu"
"$bin/tpu-ref" random --shape=256x784 --dist=uniform --seed=1 -o "$out/x.npy"
"$bin/tpu-ref" random --shape=784x1024 --seed=2 -o "$out/w1.npy"
"$bin/tpu-ref" random --shape=1024 --seed=3 -o "$out/b1.npy"
"$bin/tpu-ref" random --shape=1024x10 --seed=4 -o "$out/w2.npy"
"$bin/tpu-ref" random --shape=10 --seed=5 -o "$out/b2.npy"
mlpInputs=()
for name in x w1 b1 w2 b2; do mlpInputs+=(--input "$out/$name.npy"); done
"$bin/tpu-sim" "$out/mlp.tpu" "${mlpInputs[@]}" --output "$out/p.npy"
echo "== result check against the CPU (upstream MLIR, f32): HIGHEST is"
echo "   f32-accurate, the probabilities agree to 1e-4 (docs/Testing.md)"
"$bin/tpu-cpu-run" examples/mlp.mlir "${mlpInputs[@]}" --output "$out/p.cpu.npy"
"$bin/tpu-ref" compare --rtol=0 --atol=1e-4 "$out/p.npy" "$out/p.cpu.npy"
echo "== result check against the reference model, op by op (bit-exact)"
PATH="$bin:$PATH" bash test/e2e/run-model.sh mlp "$out" highest
"$bin/tpu-ref" compare "$out/p.npy" "$out/model.npy"

echo
echo "== examples/attention.mlir: softmax(Q K^T / sqrt(128)) V, sequence 512"
"$bin/tpu-opt" examples/attention.mlir \
  --tpu-compile="chip=v4 default-precision=highest" -o "$out/attention.isa.mlir"
"$bin/tpu-translate" --export-tpu-bin "$out/attention.isa.mlir" \
  -o "$out/attention.tpu"
attentionInputs=()
mkdir -p "$out/attention"
seed=1
for name in q k v; do
  "$bin/tpu-ref" random --shape=512x128 --seed=$seed -o "$out/attention/$name.npy"
  attentionInputs+=(--input "$out/attention/$name.npy")
  seed=$((seed + 1))
done
"$bin/tpu-sim" "$out/attention.tpu" "${attentionInputs[@]}" --output "$out/o.npy"
echo "== result check against the CPU (upstream MLIR, f32), within 1e-5"
"$bin/tpu-cpu-run" examples/attention.mlir "${attentionInputs[@]}" \
  --output "$out/o.cpu.npy"
"$bin/tpu-ref" compare --rtol=0 --atol=1e-5 "$out/o.npy" "$out/o.cpu.npy"
echo "== result check against the reference model, op by op (bit-exact)"
PATH="$bin:$PATH" bash test/e2e/run-model.sh attention "$out/attention" highest
"$bin/tpu-ref" compare "$out/o.npy" "$out/attention/model.npy"

echo
echo "== examples/transformer_block.mlir: pre-LN block, sequence 128, width 256,"
echo "   4 heads, MLP 256-1024-256 with GELU"
"$bin/tpu-opt" examples/transformer_block.mlir \
  --tpu-compile="chip=v4 default-precision=highest" -o "$out/block.isa.mlir"
"$bin/tpu-translate" --export-tpu-bin "$out/block.isa.mlir" -o "$out/block.tpu"
PATH="$bin:$PATH" bash examples/transformer_block-inputs.sh "$out/block"
blockInputs=()
for i in $(seq 1 13); do blockInputs+=(--input "$out/block/in$i.npy"); done
"$bin/tpu-sim" "$out/block.tpu" "${blockInputs[@]}" --output "$out/y.npy"
echo "== result check against the CPU (upstream MLIR, f32), within 1e-5"
"$bin/tpu-cpu-run" examples/transformer_block.mlir "${blockInputs[@]}" \
  --output "$out/y.cpu.npy"
"$bin/tpu-ref" compare --rtol=0 --atol=1e-5 "$out/y.npy" "$out/y.cpu.npy"
echo "== result check against the reference model, op by op (bit-exact)"
PATH="$bin:$PATH" bash test/e2e/run-model.sh transformer_block "$out/block" highest
"$bin/tpu-ref" compare "$out/y.npy" "$out/block/model.npy"
