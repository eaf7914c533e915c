#!/usr/bin/env bash
# The layers' order (docs/architecture.md): a file of a layer includes dlbkit headers of its
# own layer and of the layers below it only. Prints each include that goes up or sideways
# and exits 1; prints the count of includes checked otherwise. Run by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
# Layer ranks; layers of one rank know nothing of each other.
declare -A rank=([error]=0 [io]=1 [topology]=2 [core]=3 [analysis]=4 [strategies]=5 [sim]=6 [rounds]=6 [phases]=7
                 [runtime]=8 [mpi]=9 [objects]=9 [apps]=9 [workloads]=10 [reproduce]=11 [cli]=12)
layer_of() {  # path -> layer
  case "$1" in
    include/dlbkit/error.hpp | src/error.cpp) echo error ;;
    src/runtime/mpi/* | include/dlbkit/runtime/mpi_*) echo mpi ;;
    include/dlbkit/*/* | src/*/*) local p=${1#include/dlbkit/}; p=${p#src/}; echo "${p%%/*}" ;;
    cli/*) echo cli ;;
  esac
}
bad=0 checked=0
while IFS= read -r file; do
  from=$(layer_of "$file")
  [ -n "$from" ] || continue
  while IFS= read -r target; do
    to=${target%%/*}
    case "$target" in error.hpp) to=error ;; runtime/mpi_*) to=mpi ;; esac
    [ -n "${rank[$to]+x}" ] || { echo "$file: includes $target, of no known layer"; bad=1; continue; }
    checked=$((checked + 1))
    if [ "$to" != "$from" ] && [ "${rank[$to]}" -ge "${rank[$from]}" ]; then
      echo "$file: layer $from includes $target (layer $to is not below it)"
      bad=1
    fi
  done < <(sed -n -e 's/^#include <dlbkit\/\([^>]*\)>.*/\1/p' -e 's/^#include "\(reproduce\/[^"]*\)".*/\1/p' "$file")
done < <(find include src cli -name '*.hpp' -o -name '*.cpp' | sort)  # no git: a tree from an archive checks too
[ "$bad" -eq 0 ] && echo "layers: $checked includes checked, none goes up a layer"
exit "$bad"
