#!/usr/bin/env bash
# Sets everything up and runs the main job end to end on the examples.
#
# Until the compiler pipeline exists (the next issue), the program that runs
# is a hand-written ISA-level matmul at HIGHEST precision
# (examples/isa/matmul-highest.mlir): tpu-translate turns it into a .tpu
# binary, tpu-sim runs it on random inputs and reports where the cycles went,
# and the result is checked bit for bit against the reference model. The
# front end's example (examples/matmul.mlir) is parsed and printed too.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
bin=${TPU_BUILD_DIR:-build}/bin
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== front end: tpu-opt examples/matmul.mlir (parse, verify, print)"
"$bin/tpu-opt" examples/matmul.mlir -o "$out/front.mlir"
"$bin/tpu-opt" "$out/front.mlir" | cmp -s - "$out/front.mlir"
echo "   round trip OK"

program=examples/isa/matmul-highest.mlir
echo "== tpu-translate --export-tpu-bin $program"
"$bin/tpu-translate" --export-tpu-bin "$program" -o "$out/matmul.tpu"
"$bin/tpu-translate" --export-tpu-asm "$program" | head -4

echo "== inputs: a = 8x256, b = 256x128, random normal"
"$bin/tpu-ref" random --shape=8x256 --seed=1 -o "$out/a.npy"
"$bin/tpu-ref" random --shape=256x128 --seed=2 -o "$out/b.npy"

echo "== tpu-sim matmul.tpu --input a.npy --input b.npy --output c.npy"
"$bin/tpu-sim" "$out/matmul.tpu" --input "$out/a.npy" --input "$out/b.npy" \
  --output "$out/c.npy" --stats "$out/stats.json" --trace "$out/trace.json"

echo "== result check against the reference model (HIGHEST, bit-exact)"
"$bin/tpu-ref" matmul "$out/a.npy" "$out/b.npy" --precision=highest \
  -o "$out/reference.npy"
"$bin/tpu-ref" compare "$out/c.npy" "$out/reference.npy"
