#!/usr/bin/env bash
# The tests on a fresh Debian 12 machine: install what is missing, build with warnings as
# errors, run every test, then install dlbkit and build the example projects against the
# installed package (find_package(dlbkit)): the simulator consumer, N-Queens (threads, and
# MPI where dlbkit has it) and Collatz (COMPONENTS mpi), and run them on both engines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
DLBKIT_UNITY_BUILD=ON scripts/build.sh -DDLBKIT_WERROR=ON
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 600)
# The Python package and the CLI of this tree from a new shell, anywhere, as the README says.
if [ -d build/python/dlbkit ]; then
  check='cd / && source "$1/env.sh" && [ "$(command -v dlbkit)" = "$1/bin/dlbkit" ] &&
    python3 -c "import dlbkit; dlbkit.topology(\"ring:4\"); assert dlbkit.__file__.startswith(\"$1/\"), dlbkit.__file__"'
  env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c "$check" bash "$PWD/build"
fi
scripts/test-installed.sh
