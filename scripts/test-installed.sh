#!/usr/bin/env bash
# Installs build/ into a scratch prefix and builds and runs the example projects against it,
# as a program outside the dlbkit tree would: the simulator consumer, one program per
# component (examples/components), N-Queens, Collatz and the stencil, and imports the Python package
# (scripts/test.sh runs it after the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install build --prefix "$prefix/install" >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
expect=tests/support/expect_output.sh
mpirun_2=(timeout 120 mpirun --oversubscribe -np 2)

# build_example EXAMPLE DIRECTORY [CMAKE ARGS...]
build_example() {
  cmake -S "examples/$1" -B "$prefix/$2" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/install" "${@:3}" >/dev/null
  cmake --build "$prefix/$2" >/dev/null
}

build_example consumer consumer
"$prefix/consumer/consumer"
# One program per layer, each finding only its component (examples/components); the runtime
# program checks that its header brings neither JSON nor OpenSSL.
for component in core sim rounds runtime apps; do
  build_example components "components-$component" -DCOMPONENT="$component"
  "$prefix/components-$component/consumer" >/dev/null
done
"$prefix/install/bin/dlbkit" topology hypercube:3 >/dev/null

# The Python package, installed for the Python it was built for (Debian's /usr/bin/python3):
# it imports from the prefix's dist-packages (on sys.path for /usr/local; PYTHONPATH here) and runs.
cache() { sed -n "s/^$1:[A-Z]*=//p" build/CMakeCache.txt; }
python_note=""
if [ "$(cache DLBKIT_PYTHON)" = ON ]; then
  site="$prefix/install/$(cache DLBKIT_PYTHON_INSTALL_DIR)" python=$(cache Python3_EXECUTABLE)
  (cd "$prefix" && PYTHONPATH="$site" "$python" -c '
import sys, dlbkit
assert dlbkit.__file__.startswith(sys.argv[1]), dlbkit.__file__
assert dlbkit.simulate(strategy="rid", topology="hypercube:3").tasks == 800' "$prefix/install/")
  python_note="; the Python package imported and ran where it was installed"
fi

queens="11-queens: 2680 solutions"
collatz="below 300000: the longest trajectory starts at 230631, 442 steps"
build_example nqueens nqueens
build_example collatz collatz
$expect "$queens" "$prefix/nqueens/nqueens" --n 11 --workers 2 >/dev/null
$expect "$queens" "${mpirun_2[@]}" "$prefix/nqueens/nqueens" --engine mpi --n 11 >/dev/null
$expect "$collatz" "$prefix/collatz/collatz" --below 300000 --workers 2 >/dev/null
$expect "$collatz" "${mpirun_2[@]}" "$prefix/collatz/collatz" --engine mpi --below 300000 >/dev/null
stencil="checksum 130.67895923536798, the same balanced or not"
build_example stencil stencil
$expect "$stencil" "$prefix/stencil/stencil" --blocks 4 --cells 16 --phases 10 --workers 2 >/dev/null
$expect "$stencil" "${mpirun_2[@]}" "$prefix/stencil/stencil" --engine mpi --blocks 4 --cells 16 --phases 10 >/dev/null

# Where no MPI is found: N-Queens builds for threads alone and says so for --engine mpi;
# a project that requires the component is told why it cannot have it.
build_example nqueens nqueens-threads -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
"$prefix/nqueens-threads/nqueens" --n 8 --workers 2 | grep -qxF "8-queens: 92 solutions"
if ldd "$prefix/nqueens-threads/nqueens" | grep -q libcrypto; then exit 1; fi  # dlbkit::runtime needs no OpenSSL
if "$prefix/nqueens-threads/nqueens" --engine mpi 2>"$prefix/err"; then exit 1; fi
grep -q "^dlbkit: error: --engine mpi: this program was linked without the MPI engine" "$prefix/err"
if cmake -S examples/collatz -B "$prefix/collatz-no-mpi" -DCMAKE_PREFIX_PATH="$prefix/install" \
     -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$prefix/out" 2>&1; then exit 1; fi
grep -q "component mpi (dlbkit::mpi): no MPI for C++ found" "$prefix/out"
echo "installed package: the consumer, one program per component, N-Queens and Collatz built with find_package(dlbkit) and ran on threads and MPI$python_note"
