#!/usr/bin/env bash
# dlbkit's phase strategies beside Charm++'s own balancers on one Charm++ +LBDump file (opt-in,
# never part of the tests): Charm++ is built from its source in a scratch folder, one of its own
# load-balancing examples (stencil3d, whose chares' work grows with their index) runs until its
# first load-balancing step and dumps it (+LBDump 0), Charm++ replays the dump under each of its
# balancers (+LBSim 0, which prints the PEs' loads after the balancer's decision, and
# +LBShowDecisions, which writes the moves), dlbkit's strategies balance the same dump
# (dlbkit phases --charm-dump), and the script prints both: the largest and the mean PE object
# load after balancing, the imbalance (max / mean - 1), the objects migrated, the bytes that
# cross PEs.
#   scripts/charm-peer.sh
#   CHARM_SRC   a Charm++ checkout or bare git repository (default: cloned from GitHub)
#   CHARM_ARCH  Charm++'s build (default multicore-linux-x86_64; a multicore one, as the script
#               starts the program without charmrun); its build took 6 minutes on 2 cores and
#               is kept for the next run (build/peers/charm)
#   PES         PEs of the run (default 8)
#   STENCIL     stencil3d's arguments (default "64 16": 4 x 4 x 4 chares of 16^3 cells)
#   BALANCERS   Charm++'s balancers (default "MetisLB RecBipartLB": only balancers derived from
#               CentralLB write and simulate dumps; GreedyLB and RefineLB are TreeLB strategies
#               since Charm++ 7.0, and +LBDump and +LBSim do nothing under them)
#   STRATEGIES  dlbkit's phase strategies (default "greedy refine partition tempered diffusion")
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${CHARM_ARCH:-multicore-linux-x86_64}
pes=${PES:-8}
stencil=${STENCIL:-64 16}
balancers=${BALANCERS:-MetisLB RecBipartLB}
strategies=${STRATEGIES:-greedy refine partition tempered diffusion}
[[ $pes =~ ^[1-9][0-9]*$ ]] || { echo "charm-peer: PES=$pes is not accepted; accepted: an integer >= 1" >&2; exit 2; }
out=build/peers/charm
mkdir -p "$out"
out=$(cd "$out" && pwd)
charm=$out/charm

# Charm++'s source from a checkout, a bare repository or GitHub, built once.
if [ ! -x "$charm/$arch/bin/charmc" ]; then
  rm -rf "$charm" && mkdir -p "$charm"
  if [ -z "${CHARM_SRC:-}" ]; then
    git clone -q --depth 1 https://github.com/charmplusplus/charm.git "$charm"
  elif [ -d "$CHARM_SRC/.git" ] || [ -f "$CHARM_SRC/README.md" ]; then
    cp -r "$CHARM_SRC/." "$charm"
  else
    git -C "$CHARM_SRC" archive HEAD | tar -x -C "$charm"
  fi
  echo "charm-peer: building Charm++ $arch (log: $out/build.log)" >&2
  (cd "$charm" && ./build charm++ "$arch" --with-production -j"$(nproc)") >"$out/build.log" 2>&1 ||
    { echo "charm-peer: Charm++'s build failed; see $out/build.log" >&2; exit 1; }
fi
example=$charm/$arch/examples/charm++/load_balancing/stencil3d
make -C "$example" stencil3d >"$out/make.log" 2>&1 ||
  { echo "charm-peer: stencil3d's build failed; see $out/make.log" >&2; exit 1; }

# The dump: the statistics of the first load-balancing step, F.0 for +LBDumpFile F.
# +setcpuaffinity: without it, Charm++ stops when two PEs would share a core (more PEs than cores).
read -r -a stencil_args <<<"$stencil"
first=${balancers%% *}
rm -f "$out"/lbdump.0*
"$example/stencil3d" +p"$pes" +setcpuaffinity "${stencil_args[@]}" +balancer "$first" +LBDump 0 +LBDumpSteps 1 \
  +LBDumpFile "$out/lbdump" >"$out/dump.log" 2>&1 ||
  { echo "charm-peer: the run with +LBDump failed; see $out/dump.log" >&2; exit 1; }
dump=$out/lbdump.0
echo "dump: ${dump#"$PWD"/} ($(stat -c %s "$dump") bytes; stencil3d $stencil on $pes PEs, $arch)"
[ -x build/bin/dlbkit ] || scripts/build.sh >/dev/null

printf '%-22s %12s %12s %8s %9s %12s\n' "balancer" "max load s" "mean load s" "I" "migrated" "crossing KB"
row() { awk -v n="$1" -v max="$2" -v mean="$3" -v m="$4" -v b="$5" \
  'BEGIN { printf "%-22s %12.6f %12.6f %8.3f %9s %12.1f\n", n, max, mean, (mean > 0 ? max / mean - 1 : 0), m, b / 1024 }'; }

# Charm++: +LBSim prints "ProcObjLoad  Max : X  Average: Y" (the PEs' object loads after the
# decision, without background and communication) and "Non-local comm: M msgs B bytes" (each
# message between PEs counted as sent and as received: B / 2 cross); +LBShowDecisions writes
# F.0.results, whose first line is "PES MOVES".
for b in $balancers; do
  log=$out/sim-$b.log
  "$example/stencil3d" +p"$pes" +setcpuaffinity "${stencil_args[@]}" +balancer "$b" +LBSim 0 +LBSimSteps 1 \
    +LBDumpFile "$out/lbdump" >"$log" 2>&1 || { echo "Charm++ $b | +LBSim failed; see $log"; continue; }
  read -r max mean < <(sed -n 's/^ProcObjLoad  Max : \([0-9.e+-]*\)  Average: \([0-9.e+-]*\).*/\1 \2/p' "$log")
  "$example/stencil3d" +p"$pes" +setcpuaffinity "${stencil_args[@]}" +balancer "$b" +LBSim 0 +LBSimSteps 1 +LBShowDecisions \
    +LBDumpFile "$out/lbdump" >"$log.decisions" 2>&1
  bytes=$(sed -n 's/^Non-local comm: [0-9]* msgs \([0-9]*\) bytes.*/\1/p' "$log")
  moves=$(awk 'NR == 1 { print $2 }' "$dump.results")
  row "Charm++ $b" "$max" "$mean" "$moves" "$((bytes / 2))"
done

# dlbkit on the same dump.
for s in none $strategies; do
  json=$(build/bin/dlbkit phases -s "$s" --charm-dump "$dump" --json)
  read -r max mean moves bytes < <(/usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin); p = j["phases"][0]
print(p["max_load_after"], p["max_load_after"] / (1 + p["imbalance_after"]), j["objects_migrated"],
      p["crossing_bytes_after"])' <<<"$json")
  row "dlbkit $s" "$max" "$mean" "$moves" "$bytes"
done
echo "(loads: the objects' wall times in the dump, without the PEs' background load; dlbkit none: the dump's own mapping)"
