#!/usr/bin/env bash
# The test suite again, built with clang-22 under AddressSanitizer and
# UndefinedBehaviorSanitizer (-DTPU_SANITIZE=address,undefined) into
# build-san/. Every test but the exhaustive numeric ones, which run once, in
# Release (scripts/test.sh). The last lines are ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh --sanitizers
build_dir=${TPU_SANITIZER_BUILD_DIR:-build-san}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DTPU_SANITIZE=address,undefined \
    "${launcher[@]}"
fi
cmake --build "$build_dir"
# The two builds must agree bit for bit (when the Release build is there).
if [ -x "${TPU_BUILD_DIR:-build}/bin/tpu-sim" ]; then
  bash scripts/compare-builds.sh "${TPU_BUILD_DIR:-build}" "$build_dir"
fi
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" -LE exhaustive
