#!/usr/bin/env bash
# Configures and builds dlbkit in build/ (the CLI lands in build/bin/dlbkit).
# Extra arguments go to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${compiler_cache[@]}" "$@" >/dev/null
cmake --build build -j "$(nproc)"

# The Python package (python/, when built): one line in the user's site-packages, the path of
# build/python, so that `python3 -c "import dlbkit"` works from any directory in a new shell.
# Remove that dlbkit.pth file to undo; the last tree built is the one Python finds.
if [ -d build/python/dlbkit ]; then
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site"
  echo "$PWD/build/python" >"$site/dlbkit.pth"
fi
