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
bash bench/example-inputs.sh "$out" >"$out/inputs.txt"
declare -A example_inputs
while read -r example inputs; do
  example_inputs[$example]=$inputs
done <"$out/inputs.txt"

field() { grep -o "\"$1\": [0-9]*" "$2" | head -1 | grep -o '[0-9]*$'; }
echo "| example ($chip, $precision) | HBM bytes fused | unfused | ratio | cycles fused | unfused | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for example in mlp attention transformer_block cnn; do
  read -r -a inputs <<<"${example_inputs[$example]}"
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
