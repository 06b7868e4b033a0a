#!/usr/bin/env bash
# Sets everything up and runs the main job on an example.
#
# Until the compiler pipeline and the simulator exist, the main job is the
# front end: tpu-opt parses the example (upstream linalg and the tpu dialect),
# verifies it, and prints it back; the printed IR parses again to the same
# text.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
build_dir=${TPU_BUILD_DIR:-build}
tpu_opt="$build_dir/bin/tpu-opt"
example=examples/matmul.mlir
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== $tpu_opt $example"
"$tpu_opt" "$example" -o "$out/once.mlir"
cat "$out/once.mlir"
"$tpu_opt" "$out/once.mlir" -o "$out/twice.mlir"
"$tpu_opt" "$example" --mlir-print-op-generic | "$tpu_opt" -o "$out/generic.mlir"
if cmp -s "$out/once.mlir" "$out/twice.mlir" &&
   cmp -s "$out/once.mlir" "$out/generic.mlir"; then
  echo "== round trip: OK (custom and generic forms print the same IR)"
else
  echo "== round trip: FAILED" >&2
  diff "$out/once.mlir" "$out/twice.mlir" >&2 || true
  diff "$out/once.mlir" "$out/generic.mlir" >&2 || true
  exit 1
fi
