#!/usr/bin/env bash
# The test suite again, built with clang-22 under AddressSanitizer and
# UndefinedBehaviorSanitizer (-DTPU_SANITIZE=address,undefined) into
# build-san/. Every test but the exhaustive numeric ones, which run once, in
# Release (scripts/test.sh). The last lines are ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh --sanitizers
build_dir=${TPU_SANITIZER_BUILD_DIR:-build-san}
TPU_BUILD_DIR="$build_dir" bash scripts/build.sh \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DTPU_SANITIZE=address,undefined
# The two builds must agree bit for bit (when the Release build is there).
if [ -x "${TPU_BUILD_DIR:-build}/bin/tpu-sim" ]; then
  bash scripts/compare-builds.sh "${TPU_BUILD_DIR:-build}" "$build_dir"
fi
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" -LE exhaustive
