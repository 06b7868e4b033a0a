#!/usr/bin/env bash
# Floating point must not depend on the compiler: runs the same programs
# with the tools of two builds (by default build/ and build-san/, g++
# Release and clang-22 with ASan and UBSan) and checks that the outputs and
# the statistics (host time aside) are the same bytes. Special values
# included: NaNs are where a host or a compiler would show first.
#   compare-builds.sh [BUILD_A] [BUILD_B]
set -euo pipefail
cd "$(dirname "$0")/.."
a=${1:-build} b=${2:-build-san}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
compared=0
compile() { # build mlir compile-options out.tpu
  "$1/bin/tpu-opt" "$2" --tpu-compile="$3" |
    "$1/bin/tpu-translate" --export-tpu-bin -o "$4"
}
run() { # name mlir compile-options dist shapes...
  local name=$1 mlir=$2 options=$3 dist=$4
  shift 4
  local inputs=() i=0
  for shape in "$@"; do
    "$a/bin/tpu-ref" random --shape="$shape" --seed=$((++i)) --dist="$dist" \
      -o "$work/$name.in$i.npy"
    inputs+=(--input "$work/$name.in$i.npy")
  done
  for build in "$a" "$b"; do
    local tag
    tag=$(basename "$build")
    compile "$build" "$mlir" "$options" "$work/$name.$tag.tpu"
    "$build/bin/tpu-sim" "$work/$name.$tag.tpu" --quiet "${inputs[@]}" \
      --output "$work/$name.$tag.npy" --stats "$work/$name.$tag.json"
    grep -v '"host_' "$work/$name.$tag.json" >"$work/$name.$tag.stats"
  done
  for kind in tpu npy stats; do
    if ! cmp -s "$work/$name.$(basename "$a").$kind" \
        "$work/$name.$(basename "$b").$kind"; then
      echo "FAIL: $name: the $kind files of $a and $b differ"
      exit 1
    fi
  done
  compared=$((compared + 1))
}
run highest examples/matmul.mlir "chip=v4 default-precision=highest" special 7x300 300x129
run high examples/matmul-high.mlir "chip=v3" special 7x200 200x129
run default examples/matmul.mlir "chip=v4 default-precision=default" normal 7x300 300x129
run wide test/e2e/Inputs/wide-elementwise.mlir "chip=v4" special \
  1200x1024 1200x1024 1200x1024 1200x1024 1200x1024 1200x1024 1200x1024 1200x1024
# The compiler alone must not depend on the compiler either: an op built
# inside another call's argument list is created in the order the host
# compiler evaluates arguments in (g++ and clang differ), and that order
# reaches the binary. Every example and end-to-end input, on every chip
# and precision, compiles to the same bytes (or fails in both builds).
binaries=0 compiled=0
for mlir in examples/*.mlir test/e2e/Inputs/*.mlir; do
  [ -f "$mlir" ] || { echo "FAIL: no programs to compile ($mlir)"; exit 1; }
  for chip in v2 v3 v4; do
    for precision in default high highest; do
      name=$(basename "$mlir" .mlir)-$chip-$precision
      for build in "$a" "$b"; do
        out=$work/$name.$(basename "$build").bin
        compile "$build" "$mlir" "chip=$chip default-precision=$precision" \
          "$out" 2>/dev/null || echo "failed" >"$out"
      done
      if ! cmp -s "$work/$name.$(basename "$a").bin" \
          "$work/$name.$(basename "$b").bin"; then
        echo "FAIL: $mlir on $chip at $precision compiles to different" \
          "binaries with $a and $b"
        exit 1
      fi
      binaries=$((binaries + 1))
      grep -qx failed "$work/$name.$(basename "$a").bin" ||
        compiled=$((compiled + 1))
    done
  done
done
# Tools that fail on everything in both builds would compare equal.
if [ "$compiled" -eq 0 ]; then
  echo "FAIL: no program compiled with either build"
  exit 1
fi
echo "OK: $a and $b give the same binaries, outputs and statistics on $compared programs, and the same binaries for $binaries compilations ($compiled compiled, the rest failed in both)"
