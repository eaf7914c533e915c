#!/usr/bin/python3
"""Runs `dlbkit simulate --json --per-node` over a broad set of runs with two commands and
reports every run whose output differs (wall times aside), so that a change to the
simulator can be shown to keep every run (docs/simulator.md, "Ties and parallel runs").

    scripts/sim-same-runs.py 'OLD/bin/dlbkit simulate' 'build/bin/dlbkit simulate'
    scripts/sim-same-runs.py 'build/bin/dlbkit simulate' 'build/bin/dlbkit simulate --threads 2'
    scripts/sim-same-runs.py 'build/bin/dlbkit simulate --threads 1' 'mpirun -np 2 build/bin/dlbkit simulate'

The set: every strategy x hypercube:4, torus:4x4, ring:8 x artificial, uts x fcfs, lifo x
seeds 1, 2; then every strategy on hypercube:4 with the bnb, busy and poisson workloads,
with the ideal, ipsc2-network, meiko-cs1 and ahmad91 cost models, and dynamic_load under
processor sharing. A run refused (a strategy and a topology that do not fit) must be
refused alike. Exit status 0 when every run is the same, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys

WALL_FIELDS = ("wall_seconds", "events_per_second")


def strategies(command):
    listing = subprocess.run(shlex.split(command)[:1] + ["list", "strategies"], capture_output=True, text=True,
                             check=True).stdout
    return re.findall(r"^  (\w+) ", listing, re.MULTILINE)


def broad_set(names):
    runs = []
    for s in names:
        for t in ("hypercube:4", "torus:4x4", "ring:8"):
            for w in ("artificial", "uts"):
                for e in ("fcfs", "lifo"):
                    for seed in ("1", "2"):
                        runs.append(["-s", s, "-t", t, "-w", w, "--execution", e, "--seed", seed])
    for s in names:
        for w in ("bnb", "busy", "poisson"):
            runs.append(["-s", s, "-t", "hypercube:4", "-w", w])
        for c in ("ideal", "ipsc2-network", "meiko-cs1", "ahmad91"):
            runs.append(["-s", s, "-t", "hypercube:4", "-c", c])
        runs.append(["-s", s, "-t", "hypercube:4", "-w", "dynamic_load", "--execution", "ps"])
    return runs


def without_wall_times(value):
    if isinstance(value, dict):
        return {k: without_wall_times(v) for k, v in value.items() if k not in WALL_FIELDS}
    if isinstance(value, list):
        return [without_wall_times(v) for v in value]
    return value


def outcome(command, run):
    done = subprocess.run(shlex.split(command) + run + ["--json", "--per-node"], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        # dlbkit's own lines: a launcher such as mpirun adds its own about the status.
        said = [line for line in done.stderr.splitlines() if line.startswith("dlbkit:")]
        return ("status", done.returncode, said)
    return ("json", without_wall_times(json.loads(done.stdout)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a", help="the first simulate command, e.g. 'build/bin/dlbkit simulate'")
    parser.add_argument("b", help="the second, e.g. 'build/bin/dlbkit simulate --threads 2'")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count(), help="runs at once")
    parser.add_argument("--match", default="", help="only the runs whose arguments contain this text")
    args = parser.parse_args()
    runs = [run for run in broad_set(strategies(args.a)) if args.match in shlex.join(run)]

    def compare(run):
        return run, outcome(args.a, run) == outcome(args.b, run)

    differing = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for run, same in pool.map(compare, runs):
            if not same:
                differing += 1
                print("differs:", shlex.join(run), flush=True)
    print(f"{len(runs)} runs, {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
