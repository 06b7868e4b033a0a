#!/usr/bin/env bash
# Sets everything up and runs every test: lit (FileCheck) and GoogleTest,
# through ctest. The last lines are ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
bash scripts/build.sh
cd "${TPU_BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
