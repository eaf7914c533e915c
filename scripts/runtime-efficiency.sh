#!/usr/bin/env bash
# The efficiency tables of docs/runtime.md, printed as Markdown: every strategy on UTS trees
# with the threads engine (2 workers) and the MPI engine (2 ranks through mpirun), and the
# N-Queens search with 0.5 ms tasks that never call poll().
#
#   scripts/runtime-efficiency.sh [tree ...]        default: T1L T3L
#
# UTS efficiency is T_seq / (2 T_par) with T_seq the fastest sequential counter
# (`dlbkit uts --tree T`, run once per tree), in brackets the CPU efficiency (that run's
# processor time over the workers'); the parallel runs are `dlbkit run --no-sequential`.
# N-Queens efficiency is against the app's own sequential run (`dlbkit run`'s baseline).
# Idle CPU: the processor time each worker used while it had no task, in ms.
# Environment: STRATEGIES="work_stealing sid" limits the UTS strategies; TASKS="node subtree"
# runs the UTS tables for each of the uts app's task modes (default: node); QUEENS=0 skips the
# N-Queens table; DLBKIT=path another dlbkit binary; UTS_REF=path the reference UTS-MPI
# work stealing binary (uts-mpi-ws, docs/runtime.md says how to build it), then run on the
# same trees with 2 ranks and its wall time printed beside dlbkit's.
# On the network hypercube:1 (the Liquid model refuses the complete graph). Run it on a
# quiet machine: efficiency is wall time. About 8 minutes on 2 quiet cores (11 minutes for
# four strategies on a loaded one).
set -euo pipefail
cd "$(dirname "$0")/.."
export DLBKIT=${DLBKIT:-build/bin/dlbkit}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec python3 - "$@" <<'PY'
import json, os, re, shlex, subprocess, sys

dlbkit = os.environ["DLBKIT"]
mpirun = ["mpirun", "--oversubscribe", "-np", "2"]
trees = sys.argv[1:] or ["T1L", "T3L"]
strategies = ["work_stealing", "work_stealing -p neighbors=true", "lifeline", "rid -p retry_on_update=true", "rid",
              "sid", "gm", "hbm", "dem", "liquid", "direct_neighbor", "fully_distributed", "none"]
if os.environ.get("STRATEGIES"):
    strategies = os.environ["STRATEGIES"].split()
reference = os.environ.get("UTS_REF", "")
modes = os.environ.get("TASKS", "node").split()
# The reference's options for the standard trees (its sample_trees.sh).
reference_trees = {"T1": "-t 1 -a 3 -d 10 -b 4 -r 19", "T1L": "-t 1 -a 3 -d 13 -b 4 -r 29",
                   "T3": "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", "T3L": "-t 0 -b 2000 -q 0.200014 -m 5 -r 7"}

def run(args):
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return out

def dlbkit_run(args, mpi):
    command = (mpirun if mpi else []) + [dlbkit, "run"] + (["--engine", "mpi"] if mpi else ["--workers", "2"])
    return json.loads(run(command + ["--topology", "hypercube:1", "--json"] + args))

def idle_ms(j):
    return " / ".join(f'{1000 * w["idle_cpu_seconds"]:.1f}' for w in j["workers"])

def cell(j, t_seq, cpu_seq):
    cpu = sum(w["cpu_seconds"] for w in j["workers"])
    return f'{100 * t_seq / (2 * j["elapsed_seconds"]):.1f} % ({100 * cpu_seq / cpu:.1f} %)'

header = ("| strategy | threads, 2 workers | idle CPU ms | tasks moved | MPI, 2 ranks | idle CPU ms | tasks moved |\n"
          "|---|---|---|---|---|---|---|")
for tree in trees:
    seq = json.loads(run([dlbkit, "uts", "--tree", tree, "--json"]))
    t_seq, cpu_seq, nodes = seq["seconds"], seq["cpu_seconds"], seq["nodes"]
    wall = {}
    for mode in modes:
        print(f"\nUTS {tree}, tasks={mode}: `dlbkit uts` {t_seq:.2f} s ({nodes / t_seq / 1e6:.2f} M nodes/s). "
              "Efficiency T_seq / (2 T_par) against it, in brackets CPU efficiency; idle CPU of worker 0 / 1.\n")
        print(header)
        for s in strategies:
            args = ["--app", "uts", "--app-param", f"tree={tree}", "--app-param", f"tasks={mode}", "--no-sequential",
                    "--strategy"] + s.split()
            t, m = dlbkit_run(args, False), dlbkit_run(args, True)
            for j in (t, m):
                if j["result"]["nodes"] != nodes:
                    sys.exit(f"runtime-efficiency: {s} tasks={mode} on {tree} counted {j['result']} where "
                             f"`dlbkit uts` counted {nodes}")
            wall[s, mode] = m["elapsed_seconds"]
            print(f'| {s.replace(" -p ", " ")} | {cell(t, t_seq, cpu_seq)} | {idle_ms(t)} | {t["tasks_moved"]} '
                  f'| {cell(m, t_seq, cpu_seq)} | {idle_ms(m)} | {m["tasks_moved"]} |', flush=True)
    if reference and tree in reference_trees:
        text = run(mpirun + [reference] + shlex.split(reference_trees[tree]))
        found = re.search(r"Wallclock time = ([0-9.]+) sec", text)
        size = re.search(r"Tree size = ([0-9]+)", text)
        if not found or not size or int(size.group(1)) != nodes:
            sys.exit(f"runtime-efficiency: the reference's output on {tree} has no time or another tree size:\n{text}")
        ref = float(found.group(1))
        ours = ", ".join(f"{s} tasks={mode} {wall[s, mode]:.2f} s ({wall[s, mode] / ref:.2f}x)"
                         for mode in modes for s in ("work_stealing", "lifeline") if (s, mode) in wall)
        print(f"\nThe reference UTS-MPI work stealing on {tree}, 2 ranks: {ref:.2f} s; dlbkit's MPI engine: {ours}.")

if os.environ.get("QUEENS", "1") != "0":
    print("\nN-Queens (`--app queens`: n = 15, tasks of about 0.5 ms below row 3, no poll() calls). Efficiency "
          "T_seq / (2 T_par) against the app's sequential run, in brackets CPU efficiency; idle CPU of worker 0 / 1.\n")
    print("| strategy | threads, 2 workers | idle CPU ms | MPI, 2 ranks | idle CPU ms |\n|---|---|---|---|---|")
    for s in ("work_stealing", "lifeline"):
        args = ["--app", "queens", "--strategy", s]
        t, m = dlbkit_run(args, False), dlbkit_run(args, True)
        for j in (t, m):
            if not j["same_result"]:
                sys.exit(f"runtime-efficiency: {s} on queens found {j['result']}, the sequential run {j['sequential']}")
        print(f'| {s} | {100 * t["efficiency"]:.1f} % ({100 * t["cpu_efficiency"]:.1f} %) | {idle_ms(t)} '
              f'| {100 * m["efficiency"]:.1f} % ({100 * m["cpu_efficiency"]:.1f} %) | {idle_ms(m)} |', flush=True)
PY
