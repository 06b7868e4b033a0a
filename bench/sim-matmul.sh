#!/usr/bin/env bash
# Simulator speed and memory on a large DEFAULT matmul (docs/Performance.md):
# generates bench/matmul_isa.py's program for M x N x K, random inputs, runs
# tpu-sim under /usr/bin/time and prints cycles, host time, host speed and
# peak memory next to the operands' size.
#   bash bench/sim-matmul.sh [M N K [chip]]     (default 4096 4096 4096 v4)
set -euo pipefail
cd "$(dirname "$0")/.."
m=${1:-4096} n=${2:-4096} k=${3:-4096} chip=${4:-v4}
bin=${TPU_BUILD_DIR:-build}/bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 bench/matmul_isa.py "$m" "$n" "$k" --chip "$chip" > "$out/mm.mlir"
"$bin/tpu-translate" --export-tpu-bin "$out/mm.mlir" -o "$out/mm.tpu"
"$bin/tpu-ref" random --shape="${m}x${k}" --seed=1 -o "$out/a.npy"
"$bin/tpu-ref" random --shape="${k}x${n}" --seed=2 -o "$out/b.npy"
/usr/bin/time -f "%M" -o "$out/rss" "$bin/tpu-sim" "$out/mm.tpu" --quiet \
  --input "$out/a.npy" --input "$out/b.npy" --output "$out/c.npy" \
  --stats "$out/stats.json"
operands=$(( (m * k + k * n) * 4 ))
rss=$(( $(cat "$out/rss") * 1024 ))
grep -E '"(cycles|static_bundles|mxu_utilization|host_seconds|host_cycles_per_s)"' "$out/stats.json"
macs=$(( m * n * k ))
python3 - "$out/stats.json" "$macs" "$rss" "$operands" <<'PY'
import json, sys
stats = json.load(open(sys.argv[1]))
macs, rss, operands = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
print("host MACs/s: %.3g" % (macs / stats["host_seconds"]))
print("peak RSS: %.0f MiB = %.2f x the operands (%.0f MiB)"
      % (rss / 2**20, rss / operands, operands / 2**20))
PY
