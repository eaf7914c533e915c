#!/usr/bin/env bash
# Configures and builds dlbkit in build/ (the CLI lands in build/bin/dlbkit).
# Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler_cache[@]}" "$@" >/dev/null
cmake --build build -j "$(nproc)"
