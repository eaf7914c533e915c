#!/usr/bin/env bash
# The tests on a fresh Debian 12 machine: install what is missing, build with warnings as
# errors, run every test, then install dlbkit and build a project that uses it through
# find_package(dlbkit).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh -DDLBKIT_WERROR=ON
(cd build && ctest --output-on-failure -j "$(nproc)" --timeout 600)

prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix/install" >/dev/null
cmake -S examples/consumer -B "$prefix/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/install" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
"$prefix/consumer/consumer"
"$prefix/install/bin/dlbkit" topology hypercube:3 >/dev/null
echo "installed package: find_package(dlbkit) consumer built and ran"
