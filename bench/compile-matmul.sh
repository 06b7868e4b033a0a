#!/usr/bin/env bash
# The compiler on a large matmul (docs/Performance.md): compiles an
# M x K x N linalg.matmul with tpu-opt --tpu-compile, reports the compile
# time and program size, then simulates it on random inputs and prints
# cycles, MXU utilization and the host time.
#   bash bench/compile-matmul.sh [M K N [precision [chip]]]
#   (default 4096 4096 4096 default v4)
set -euo pipefail
cd "$(dirname "$0")/.."
m=${1:-4096} k=${2:-4096} n=${3:-4096} precision=${4:-default} chip=${5:-v4}
bin=${TPU_BUILD_DIR:-build}/bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash bench/matmul-mlir.sh "$m" "$k" "$n" >"$out/mm.mlir"
start=$(date +%s.%N)
"$bin/tpu-opt" "$out/mm.mlir" \
  --tpu-compile="chip=$chip default-precision=$precision" -o "$out/mm.isa.mlir"
end=$(date +%s.%N)
echo "compile: $(python3 -c "print(round($end - $start, 2))") s," \
  "$(grep -c 'inst ' "$out/mm.isa.mlir") instructions in" \
  "$(grep -c 'bundle {' "$out/mm.isa.mlir") bundles"
"$bin/tpu-translate" --export-tpu-bin "$out/mm.isa.mlir" -o "$out/mm.tpu"
"$bin/tpu-ref" random --shape="${m}x${k}" --seed=1 -o "$out/a.npy"
"$bin/tpu-ref" random --shape="${k}x${n}" --seed=2 -o "$out/b.npy"
/usr/bin/time -f "%M" -o "$out/rss" "$bin/tpu-sim" "$out/mm.tpu" --quiet \
  --input "$out/a.npy" --input "$out/b.npy" --output "$out/c.npy" \
  --stats "$out/stats.json"
grep -E '"(cycles|mxu_utilization|padding_efficiency|host_seconds)"' \
  "$out/stats.json"
echo "peak RSS: $(( $(cat "$out/rss") / 1024 )) MiB"
