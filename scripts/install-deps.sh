#!/usr/bin/env bash
# Installs the Debian 12 packages dlbkit builds with, skipping what is already there.
set -euo pipefail
packages=(g++ cmake ninja-build libgtest-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libfmt-dev
          libeigen3-dev gnuplot-nox libssl-dev libconcurrentqueue-dev libcereal-dev libopenmpi-dev openmpi-bin
          libbrotli-dev  # vt's compressed LB data files (phases/vt_data.hpp)
          libscotch-dev  # Scotch: the partition phase strategy
          coinor-libcbc-dev  # COIN-OR CBC: the exact reference of small phases (phases/milp.hpp)
          libyaml-cpp-dev  # LBAF's YAML configurations (workloads/lbaf_config.hpp)
          jq clang libclang-rt-14-dev  # jq: scripts/timeline-figure.sh; clang and its runtime: the sanitizer and fuzz builds (scripts/ci-sanitizers.sh)
          pybind11-dev python3-dev python3-pytest python3-numpy python3-pandas  # the Python module (python/) and its tests
          python3-matplotlib  # the Python examples (python/examples), run by the tests
          python3-mpi4py python3-distributed)  # sweeps on other executors: MPI and Dask (python/tests/test_sweep.py)
# scripts/check-deps.py, run by the tests, fails when the build, the tests or the examples use a
# package that this list does not bring.
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
