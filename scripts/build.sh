#!/usr/bin/env bash
# Configures (once) and builds everything with Ninja into $TPU_BUILD_DIR
# (default build/). Arguments are extra CMake options for the first
# configure, e.g. the sanitizer build's compiler and -DTPU_SANITIZE.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${TPU_BUILD_DIR:-build}
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    "${launcher[@]}" "$@"
fi
cmake --build "$build_dir"
