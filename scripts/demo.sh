#!/usr/bin/env bash
# Sets everything up and runs the main job end to end: compiles the example
# matmul (examples/matmul.mlir, plain upstream MLIR, 7x300 by 300x129) with
# tpu-opt --tpu-compile at HIGHEST precision for v4, encodes it with
# tpu-translate, runs it in tpu-sim on random inputs, prints where the cycles
# went, and checks the result bit for bit against the reference model and
# against the same .mlir run on the CPU in f32; then does the same for the
# MLP of examples/mlp.mlir (checked against the CPU within 1e-4), the
# attention head of examples/attention.mlir (within 1e-5), the
# transformer block of examples/transformer_block.mlir (within 1e-5) and
# the CNN of examples/cnn.mlir (within 1e-5), each also bit for bit
# against the reference model applied op by op (test/e2e/run-model.sh).
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

# Compiles examples/NAME.mlir at HIGHEST for v4 (with its source locations,
# so the binary names its linalg ops), runs it in the simulator on DIR's
# inputs (named after DIR in argument order), prints where the cycles went,
# by unit and by source op (--profile), and checks the result against the
# CPU within ATOL and bit for bit against the reference model applied op
# by op.
#   runExample NAME ATOL DIR INPUT...
runExample() {
  local name=$1 atol=$2 dir=$3
  shift 3
  local inputs=()
  for input in "$@"; do inputs+=(--input "$dir/$input.npy"); done
  "$bin/tpu-opt" "examples/$name.mlir" \
    --tpu-compile="chip=v4 default-precision=highest" -mlir-print-debuginfo \
    -o "$dir/$name.isa.mlir"
  "$bin/tpu-translate" --export-tpu-bin "$dir/$name.isa.mlir" -o "$dir/$name.tpu"
  "$bin/tpu-sim" "$dir/$name.tpu" "${inputs[@]}" --output "$dir/tpu.npy" \
    --profile
  echo "== result check against the CPU (upstream MLIR, f32), within $atol:"
  echo "   HIGHEST is f32-accurate (docs/Testing.md)"
  "$bin/tpu-cpu-run" "examples/$name.mlir" "${inputs[@]}" --output "$dir/cpu.npy"
  "$bin/tpu-ref" compare --rtol=0 --atol="$atol" "$dir/tpu.npy" "$dir/cpu.npy"
  echo "== result check against the reference model, op by op (bit-exact)"
  PATH="$bin:$PATH" bash test/e2e/run-model.sh "$name" "$dir" highest
  "$bin/tpu-ref" compare "$dir/tpu.npy" "$dir/model.npy"
}

echo
echo "== examples/mlp.mlir: 784-1024-10 MLP, batch 256, bias, ReLU, softmax"
mkdir -p "$out/mlp"
"$bin/tpu-ref" random --shape=256x784 --dist=uniform --seed=1 -o "$out/mlp/x.npy"
"$bin/tpu-ref" random --shape=784x1024 --seed=2 -o "$out/mlp/w1.npy"
"$bin/tpu-ref" random --shape=1024 --seed=3 -o "$out/mlp/b1.npy"
"$bin/tpu-ref" random --shape=1024x10 --seed=4 -o "$out/mlp/w2.npy"
"$bin/tpu-ref" random --shape=10 --seed=5 -o "$out/mlp/b2.npy"
runExample mlp 1e-4 "$out/mlp" x w1 b1 w2 b2

echo
echo "== examples/attention.mlir: softmax(Q K^T / sqrt(128)) V, sequence 512"
mkdir -p "$out/attention"
seed=1
for name in q k v; do
  "$bin/tpu-ref" random --shape=512x128 --seed=$seed -o "$out/attention/$name.npy"
  seed=$((seed + 1))
done
runExample attention 1e-5 "$out/attention" q k v

echo
echo "== examples/transformer_block.mlir: pre-LN block, sequence 128, width 256,"
echo "   4 heads, MLP 256-1024-256 with GELU"
PATH="$bin:$PATH" bash examples/transformer_block-inputs.sh "$out/block"
runExample transformer_block 1e-5 "$out/block" $(seq -f 'in%g' 1 13)

echo
echo "== examples/cnn.mlir: CIFAR-10-shaped CNN, batch 8, 32x32x3,"
echo "   conv 3x3 32 + ReLU + max pool 2, conv 3x3 64 + ReLU + max pool 2, dense 10"
PATH="$bin:$PATH" bash examples/cnn-inputs.sh "$out/cnn"
runExample cnn 1e-5 "$out/cnn" x w1 b1 w2 b2 w3 b3
