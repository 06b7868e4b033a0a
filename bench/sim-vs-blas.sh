#!/usr/bin/env bash
# The simulator's host speed against single-threaded OpenBLAS
# (docs/Performance.md, "The simulator's speed"): compiles an M x K x N
# DEFAULT-precision linalg.matmul for a chip, then runs tpu-sim-bench, which
# times in one process the simulation (upload, run, download; on one and
# two host threads), OpenBLAS's
# cblas_sgemm of the same size on one thread, and one MXU pass on every
# SIMD target; prints the table and the ratios.
#   bash bench/sim-vs-blas.sh [M K N [chip]]   (default 1024 1024 1024 v4)
set -euo pipefail
cd "$(dirname "$0")/.."
m=${1:-1024} k=${2:-1024} n=${3:-1024} chip=${4:-v4}
bin=${TPU_BUILD_DIR:-build}/bin
if [ ! -x "$bin/tpu-sim-bench" ]; then
  echo "error: $bin/tpu-sim-bench is not built; install libbenchmark-dev and" \
    "libopenblas-dev (scripts/install-deps.sh does) and rebuild" >&2
  exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bash bench/matmul-mlir.sh "$m" "$k" "$n" >"$out/mm.mlir"
"$bin/tpu-opt" "$out/mm.mlir" --tpu-compile="chip=$chip" -o "$out/mm.isa.mlir"
"$bin/tpu-translate" --export-tpu-bin "$out/mm.isa.mlir" -o "$out/mm.tpu"
"$bin/tpu-ref" random --shape="${m}x${k}" --seed=1 -o "$out/a.npy"
"$bin/tpu-ref" random --shape="${k}x${n}" --seed=2 -o "$out/b.npy"
"$bin/tpu-sim-bench" --program="$out/mm.tpu" --input="$out/a.npy" \
  --input="$out/b.npy" --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json
python3 - "$out/bench.json" <<'PY'
import json, sys
rows = {b["run_name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("aggregate_name") == "median"}
sgemm = next(b for name, b in rows.items() if name.startswith("Sgemm/"))
for threads in (1, 2):
    sim = next(b for name, b in rows.items()
               if name.startswith("Simulate/threads:%d" % threads))
    print("median simulate on %d thread(s) / sgemm time: %.2f (%.1f ms / %.1f ms)"
          % (threads, sim["real_time"] / sgemm["real_time"], sim["real_time"],
             sgemm["real_time"]))
for name, b in rows.items():
    if name.startswith("MxuPass/"):
        print("%-24s %.1f GMAC/s = %.2f x sgemm's rate"
              % (name, b["MACs/s"] / 1e9, b["MACs/s"] / sgemm["MACs/s"]))
PY
