#!/usr/bin/env bash
# What fusion saves (docs/Compiler.md, "Fusion"): compiles each example
# with tpu-fuse and without (--tpu-compile="... fusion=false"), runs both
# in tpu-sim on the same inputs, checks the results are the same bits,
# and prints a Markdown table of HBM bytes (read + written) and cycles,
# with the ratios. The numbers are the simulator's, deterministic for a
# given build (no host timing).
#   bash bench/fusion.sh [chip [precision]]   (default v4 highest)
set -euo pipefail
cd "$(dirname "$0")/.."
chip=${1:-v4} precision=${2:-highest}
bin=${TPU_BUILD_DIR:-build}/bin
export PATH="$PWD/$bin:$PATH"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Inputs, named as test/e2e/run-model.sh names them.
mkdir -p "$out/mlp" "$out/attention"
tpu-ref random --shape=256x784 --dist=uniform --seed=1 -o "$out/mlp/x.npy"
tpu-ref random --shape=784x1024 --seed=2 -o "$out/mlp/w1.npy"
tpu-ref random --shape=1024 --seed=3 -o "$out/mlp/b1.npy"
tpu-ref random --shape=1024x10 --seed=4 -o "$out/mlp/w2.npy"
tpu-ref random --shape=10 --seed=5 -o "$out/mlp/b2.npy"
seed=1
for name in q k v; do
  tpu-ref random --shape=512x128 --seed=$seed -o "$out/attention/$name.npy"
  seed=$((seed + 1))
done
bash examples/transformer_block-inputs.sh "$out/transformer_block"
bash examples/cnn-inputs.sh "$out/cnn"

field() { grep -o "\"$1\": [0-9]*" "$2" | head -1 | grep -o '[0-9]*$'; }
echo "| example ($chip, $precision) | HBM bytes fused | unfused | ratio | cycles fused | unfused | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for example in mlp attention transformer_block cnn; do
  case $example in
  mlp) inputs=(x w1 b1 w2 b2) ;;
  attention) inputs=(q k v) ;;
  transformer_block) inputs=($(seq -f 'in%g' 1 13)) ;;
  cnn) inputs=(x w1 b1 w2 b2 w3 b3) ;;
  esac
  args=()
  for input in "${inputs[@]}"; do args+=(--input "$out/$example/$input.npy"); done
  for fusion in true false; do
    tpu-opt "examples/$example.mlir" \
      --tpu-compile="chip=$chip default-precision=$precision fusion=$fusion" \
      -o "$out/$example.$fusion.mlir"
    tpu-translate --export-tpu-bin "$out/$example.$fusion.mlir" \
      -o "$out/$example.$fusion.tpu"
    tpu-sim "$out/$example.$fusion.tpu" "${args[@]}" \
      --output "$out/$example.$fusion.npy" --stats "$out/$example.$fusion.json" \
      --quiet
  done
  tpu-ref compare "$out/$example.true.npy" "$out/$example.false.npy" >/dev/null
  read -r bytes_t cycles_t < <(echo "$(($(field hbm_bytes_read "$out/$example.true.json") + $(field hbm_bytes_written "$out/$example.true.json"))) $(field cycles "$out/$example.true.json")")
  read -r bytes_f cycles_f < <(echo "$(($(field hbm_bytes_read "$out/$example.false.json") + $(field hbm_bytes_written "$out/$example.false.json"))) $(field cycles "$out/$example.false.json")")
  awk -v e="$example" -v bt="$bytes_t" -v bf="$bytes_f" -v ct="$cycles_t" -v cf="$cycles_f" \
    'BEGIN { printf "| %s | %d | %d | %.3f | %d | %d | %.3f |\n", e, bt, bf, bt / bf, ct, cf, ct / cf }'
done
