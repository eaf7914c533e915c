#!/usr/bin/env bash
# The tests on a fresh Debian 12 machine: install what is missing, build with warnings as
# errors, run every test, then install dlbkit and build the example projects against the
# installed package (find_package(dlbkit)): the simulator consumer, N-Queens (threads, and
# MPI where dlbkit has it) and Collatz (COMPONENTS mpi), and run them on both engines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DDLBKIT_WERROR=ON
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 600)
# The Python package from a new shell, anywhere, as the README says (scripts/build.sh).
if [ -d build/python/dlbkit ]; then
  (cd / && env -i HOME="$HOME" PATH=/usr/bin:/bin python3 -c "import dlbkit; dlbkit.topology('ring:4')")
fi
scripts/test-installed.sh
