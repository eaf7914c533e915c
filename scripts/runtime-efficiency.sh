#!/usr/bin/env bash
# Parallel efficiency of every strategy on UTS trees: the threads engine with 2 workers and
# the MPI engine with 2 ranks, each beside its sequential run (dlbkit run --json). Prints a
# Markdown table (docs/runtime.md). Usage: scripts/runtime-efficiency.sh [tree ...]
# (default: T1L T3L), on the two-node network hypercube:1 (the Liquid model refuses the
# complete graph); STRATEGIES="work_stealing sid" limits the strategies. Run it on a
# quiet machine: efficiency is wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
dlbkit=${DLBKIT:-build/bin/dlbkit}  # DLBKIT=path: another binary
trees=("$@")
[ ${#trees[@]} -eq 0 ] && trees=(T1L T3L)
strategies=(work_stealing "work_stealing -p neighbors=true" lifeline "rid -p retry_on_update=true" rid sid gm hbm dem liquid
            direct_neighbor fully_distributed none)
if [ -n "${STRATEGIES:-}" ]; then read -r -a strategies <<<"$STRATEGIES"; fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
row() {  # strategy label, JSON of threads, JSON of MPI
  python3 - "$@" <<'PY'
import json, sys
label, t, m = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
def cell(j):
    ok = "" if j["same_result"] else " (WRONG RESULT)"
    return f'{100*j["efficiency"]:.1f} % ({100*j["cpu_efficiency"]:.1f} %){ok}'
print(f'| {label} | {cell(t)} | {t["tasks_moved"]} | {cell(m)} | {m["tasks_moved"]} |')
PY
}
for tree in "${trees[@]}"; do
  seq=$("$dlbkit" run --app uts --app-param tree="$tree" --workers 1 --strategy none --json |
        python3 -c 'import json,sys; j=json.load(sys.stdin); print("%.2f" % (j["result"]["nodes"]/j["sequential"]["elapsed_seconds"]/1e6))')
  echo
  echo "UTS $tree: sequential $seq M nodes/s. Efficiency T_seq / (2 T_par), in brackets CPU efficiency."
  echo
  echo "| strategy | threads, 2 workers | tasks moved | MPI, 2 ranks | tasks moved |"
  echo "|---|---|---|---|---|"
  for s in "${strategies[@]}"; do
    # shellcheck disable=SC2086
    t=$("$dlbkit" run --app uts --app-param tree="$tree" --workers 2 --topology hypercube:1 --json --strategy $s)
    # shellcheck disable=SC2086
    m=$(mpirun --oversubscribe -np 2 "$dlbkit" run --engine mpi --app uts --app-param tree="$tree" --topology hypercube:1 \
           --json --strategy $s)
    row "${s// -p / }" "$t" "$m"
  done
done
