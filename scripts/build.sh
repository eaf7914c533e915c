#!/usr/bin/env bash
# Configures and builds dlbkit in build/ (the CLI lands in build/bin/dlbkit).
# Extra arguments go to the CMake configure step. DLBKIT_UNITY_BUILD=ON compiles the layers
# and tests in batches of sources (scripts/test.sh: a build from scratch in about half the
# compiler time); without it each file compiles alone, as an edit wants.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler-cache.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDLBKIT_UNITY_BUILD="${DLBKIT_UNITY_BUILD:-OFF}" \
      "${compiler_cache[@]}" "$@" >/dev/null
cmake --build build -j "$(nproc)"

# The Python package and the CLI of this tree in a shell: `source build/env.sh` (written by CMake).
# Earlier versions of this script wrote dlbkit.pth into the user's site-packages instead, so that
# every Python loaded the tree built last; say so while that file is there (README: Python).
if [ -d build/python/dlbkit ]; then
  old_pth="$(/usr/bin/python3 -m site --user-site)/dlbkit.pth"
  if [ -f "$old_pth" ]; then
    echo "note: $old_pth, written by an earlier scripts/build.sh, puts $(cat "$old_pth") on every" \
         "Python's path; delete it and use 'source build/env.sh'" >&2
  fi
fi
