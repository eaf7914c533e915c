#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install what is missing, build, and run the
# WLR93 Table IV demo (32-node hypercube, with and without RID).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/dlbkit demo
