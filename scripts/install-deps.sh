#!/usr/bin/env bash
# Installs what building and testing need, from Debian 12's packages only.
# Skips apt entirely when everything is already there.
#   install-deps.sh [--sanitizers]   (also clang-22 and its sanitizer and
#                                     libFuzzer runtimes)
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache python3
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libabsl-dev libgtest-dev libhwy-dev
  # bench/'s programs: Google Benchmark and the OpenBLAS baseline.
  libbenchmark-dev libopenblas-dev
)
if [ "${1:-}" = --sanitizers ]; then
  packages+=(clang-22 libclang-rt-22-dev libfuzzer-22-dev)
fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "error: missing packages: ${missing[*]}; run as root (or install them) to continue" >&2
  exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
