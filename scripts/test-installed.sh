#!/usr/bin/env bash
# Installs build/ into a scratch prefix and builds and runs the example projects against it,
# as a program outside the dlbkit tree would: the simulator consumer, one program per
# component (examples/components), N-Queens, Collatz, the stencil, the AMR and the plan example, and
# imports the Python package (scripts/test.sh runs it after the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
# Every failure says which check failed (a build's own output is shown then, hidden otherwise).
trap 'echo "scripts/test-installed.sh: line $LINENO failed: $BASH_COMMAND" >&2' ERR
fail() { echo "scripts/test-installed.sh: $*" >&2; exit 1; }
quiet() { "$@" >"$prefix/log" 2>&1 || { cat "$prefix/log" >&2; return 1; }; }
cmake --install build --prefix "$prefix/install" >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
expect=tests/support/expect_output.sh
mpirun_2=(timeout 120 mpirun --oversubscribe -np 2)

# build_example EXAMPLE DIRECTORY [CMAKE ARGS...]
build_example() {
  quiet cmake -S "examples/$1" -B "$prefix/$2" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/install" "${@:3}"
  quiet cmake --build "$prefix/$2"
}

build_example consumer consumer
"$prefix/consumer/consumer"
# One program per layer, each finding only its component (examples/components); the runtime
# program checks that its header brings neither JSON nor OpenSSL.
for component in topology strategies sim rounds runtime apps; do
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
# The AMR example's cells split and merge between phases.
amr="checksum 2370494276480083666, the same balanced or not"
build_example amr amr
$expect "$amr" "$prefix/amr/amr" --cells 16 --phases 12 --work 200 --workers 2 >/dev/null
$expect "$amr" "${mpirun_2[@]}" "$prefix/amr/amr" --engine mpi --cells 16 --phases 12 --work 200 >/dev/null
# The plan example is an MPI program of its own: it needs the package's mpi component.
plan="checksum 4454.2371162995641, the same balanced or not"
build_example plan plan
$expect "$plan" "$prefix/plan/plan" --cells 8 --particles 2000 --phases 10 >/dev/null
$expect "$plan" "${mpirun_2[@]}" "$prefix/plan/plan" --cells 8 --particles 2000 --phases 10 --strategy refine >/dev/null

# Where no MPI is found: N-Queens builds for threads alone and says so for --engine mpi;
# a project that requires the component is told why it cannot have it.
build_example nqueens nqueens-threads -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON
"$prefix/nqueens-threads/nqueens" --n 8 --workers 2 | grep -qxF "8-queens: 92 solutions"
if ldd "$prefix/nqueens-threads/nqueens" | grep -q libcrypto; then fail "nqueens links libcrypto"; fi  # dlbkit::runtime needs no OpenSSL
if "$prefix/nqueens-threads/nqueens" --engine mpi 2>"$prefix/err"; then fail "nqueens without MPI ran --engine mpi"; fi
grep -q "^dlbkit: error: --engine mpi: this program was linked without the MPI engine" "$prefix/err"
if cmake -S examples/collatz -B "$prefix/collatz-no-mpi" -G Ninja -DCMAKE_PREFIX_PATH="$prefix/install" \
     -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON >"$prefix/out" 2>&1; then fail "collatz configured without MPI"; fi
grep -q "component mpi (dlbkit::mpi): no MPI for C++ found" "$prefix/out"

# dlbkit as a part of another project's build, with only the components each program uses:
# examples/subproject (add_subdirectory of this tree: the runtime) and examples/fetchcontent
# (FetchContent of an archive of this tree: the simulator). They build under build/ through
# the compiler cache, so that their layers cost no compiler time when unchanged.
source scripts/compiler-cache.sh
embedded=build/embedded
rm -rf "$embedded" && mkdir -p "$embedded"
# The runtime needs none of Eigen, Scotch, brotli, cereal or OpenSSL: the subproject compiles
# with the compiler's include path where /usr/include is a copy without them (and CMake told
# not to look for Eigen), and links none of their libraries.
without="$PWD/$embedded/include-without-optional"
mkdir "$without"
for entry in /usr/include/*; do
  case ${entry##*/} in cereal | eigen3 | openssl | brotli | scotch*) ;; *) ln -s "$entry" "$without/" ;; esac
done
include_path=$(c++ -x c++ -E -v /dev/null 2>&1 >/dev/null | sed -n '/^#include <...> search starts here:/,/^End of search list./s/^ //p')
include_flags="-nostdinc"
for dir in $include_path; do include_flags+=" -isystem ${dir/#\/usr\/include/$without}"; done
quiet cmake -S examples/subproject -B "$embedded/subproject" -G Ninja "${compiler_cache[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS="$include_flags" -DCMAKE_DISABLE_FIND_PACKAGE_Eigen3=ON
quiet cmake --build "$embedded/subproject"
subproject="$embedded/subproject/nqueens"
if ldd "$subproject" | grep -E "libcrypto|libscotch|libbrotli"; then fail "the runtime subproject links the libraries above"; fi
# diffusion's alpha comes from the spectrum: without Eigen, the Lanczos iteration's
$expect "12-queens: 14200 solutions" "$subproject" --n 12 --workers 2 --strategy diffusion >/dev/null
# A task that is neither trivially copyable nor a block of such elements (a string travels as
# one) needs cereal, and where it is not found, says so.
if echo '#include <dlbkit/runtime/serialization.hpp>
          #include <string>
          #include <vector>
          int main() { return dlbkit::from_bytes<std::vector<std::string>>({}).empty(); }' |
  c++ $include_flags -std=c++20 -Iinclude -fsyntax-only -x c++ - 2>"$embedded/err"; then fail "a std::vector<std::string> task compiled without cereal"; fi
grep -q "travels through cereal, whose headers are not found (Debian: libcereal-dev)" "$embedded/err"

# The tree as an archive, without git (a tree from an archive tests too): all but build folders.
tar --exclude=./.git --exclude='./build*' --exclude=./out --transform 's,^\.,dlbkit,' -czf "$embedded/dlbkit.tar.gz" .
quiet cmake -S examples/fetchcontent -B "$embedded/fetchcontent" -G Ninja "${compiler_cache[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DDLBKIT_URL="file://$PWD/$embedded/dlbkit.tar.gz"
quiet cmake --build "$embedded/fetchcontent"
"$embedded/fetchcontent/simulation" >/dev/null
echo "installed package: the consumer, one program per component, N-Queens and Collatz built with find_package(dlbkit) and ran on threads and MPI$python_note; dlbkit built within other projects (add_subdirectory: the runtime without Eigen, Scotch, brotli, cereal or OpenSSL; FetchContent: the simulator)"
