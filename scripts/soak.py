#!/usr/bin/python3
"""Soak test (not in CI): random valid inputs to `dlbkit simulate`, `rounds` and `run` (threads
and MPI) for a chosen time, each result checked against invariants, with each process's peak
memory. Usage: scripts/soak.py [--minutes M] [--seed S] [--dlbkit PATH] [--no-mpi] [--verbose]

Invariants checked on every case:
- exit status 0, or 2 with one line "dlbkit: error: ..." (a combination the CLI refuses, such
  as a strategy on a topology it does not accept), or for a simulation 1 with the message of
  its --max-seconds stop; never another status, a signal or a hang (each case has a time limit);
- simulate: the same task count and total work as NOBAL on the same workload, topology and
  seed (no task lost or duplicated), and no NaN or infinity in the JSON;
- rounds --integer: the total load is conserved;
- run: the parallel result equals the sequential one, and every task was executed once
  (tasks_executed equals the sequential count).
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

CASE_SECONDS = 120  # one case taking longer is a failure (a hang)
MAX_SECONDS = 60  # a simulation's --max-seconds

TOPOLOGIES = ["hypercube:{}", "ring:{}", "complete:{}", "torus:{}x{}", "mesh:{}x{}"]
STRATEGIES = ["none", "rid", "sid", "gm", "hbm", "dem", "liquid", "nna", "diffusion", "dimension_exchange",
              "sos", "chebyshev", "direct_neighbor", "semi_distributed", "fully_distributed", "work_stealing",
              "lifeline"]
COSTS = ["ideal", "ipsc2", "ipsc2-network", "meiko-cs1", "ahmad91"]
ROUND_ALGORITHMS = ["diffusion", "sos", "chebyshev", "ops", "gde", "dimension-exchange"]
APPS = ["uts", "bnb", "busy", "queens"]


def topology(rng):
    kind = rng.choice(TOPOLOGIES)
    if kind.startswith("hypercube"):
        return kind.format(rng.randint(1, 8))
    if kind.startswith(("torus", "mesh")):
        return kind.format(rng.randint(2, 12), rng.randint(2, 12))
    return kind.format(rng.randint(2, 64))


def workload(rng):
    w = rng.choice(["artificial", "uts", "poisson", "bnb", "busy", "dynamic_load"])
    params = {
        "artificial": lambda: [f"granularity={rng.choice([1, 10, 100])}"],
        "uts": lambda: [f"tree=T1,depth={rng.randint(2, 7)},seed={rng.randint(0, 99)}"],
        "poisson": lambda: [f"load={rng.choice([0.1, 0.5, 0.9])}", f"tasks={rng.choice([100, 2000])}"],
        "bnb": lambda: [f"n={rng.randint(6, 10)}", "m=4"],
        "busy": lambda: [f"granularity={rng.choice([1, 10, 50])}"],
        "dynamic_load": lambda: [f"granularity={rng.randint(1, 20)}", f"dynamicity={rng.choice([0, 1, 5])}",
                                 "duration=1s"],
    }[w]()
    return w, params


def has_undefined_number(value):
    if isinstance(value, float):
        return math.isnan(value) or math.isinf(value)
    if isinstance(value, dict):
        return any(has_undefined_number(v) for v in value.values())
    if isinstance(value, list):
        return any(has_undefined_number(v) for v in value)
    return False


class Soak:
    def __init__(self, dlbkit, rng, mpi):
        self.dlbkit, self.rng, self.mpi = dlbkit, rng, mpi
        self.counts = {}
        self.refused = {}  # error line -> count
        self.stopped = {}  # strategy -> simulations stopped by --max-seconds
        self.failures = []
        self.peak_kib = {}
        self.nobal = {}

    def execute(self, kind, argv):
        """Runs one case; returns its JSON on exit 0, None when refused, and records failures."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        start = time.monotonic()
        with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
            proc = subprocess.Popen(argv, stdout=out_file, stderr=err_file, start_new_session=True)
            # os.wait4 gives this process's own peak memory (with its children's, for mpirun).
            while True:
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > CASE_SECONDS:
                    os.killpg(proc.pid, 9)
                    os.wait4(proc.pid, 0)
                    return self.fail(argv, f"no end within {CASE_SECONDS} s")
                time.sleep(0.01)
            proc.returncode = os.waitstatus_to_exitcode(status)
            out_file.seek(0)
            err_file.seek(0)
            out, err = out_file.read(), err_file.read()
        self.peak_kib[kind] = max(self.peak_kib.get(kind, 0), usage.ru_maxrss)
        if argv[0] == "mpirun":  # what mpirun adds after the ranks' output when one exits non-zero
            err = err.split("-" * 20)[0]
        if proc.returncode == 1 and "stopped at the limit of" in err:
            # --max-seconds: a clear stop with the figures so far, not a failure
            strategy = argv[argv.index("-s") + 1]
            self.stopped[strategy] = self.stopped.get(strategy, 0) + 1
            return None
        if proc.returncode == 2:
            lines = err.strip().splitlines()
            if len(lines) != 1 or not lines[0].startswith("dlbkit: error: "):
                return self.fail(argv, f"exit 2 without one error line: {err.strip()[:300]!r}")
            shape = re.sub(r"\d+(\.\d+)?", "N", lines[0])[:150]  # the same refusal on other sizes
            self.refused[shape] = self.refused.get(shape, 0) + 1
            return None
        if proc.returncode != 0:
            return self.fail(argv, f"exit {proc.returncode} after {time.monotonic() - start:.1f} s: {err.strip()[:300]!r}")
        try:
            doc = json.loads(out)
        except json.JSONDecodeError as e:
            return self.fail(argv, f"output is not JSON: {e}")
        if has_undefined_number(doc):
            return self.fail(argv, "NaN or infinity in the JSON")
        return doc

    def fail(self, argv, why):
        self.failures.append((" ".join(argv), why))
        print(f"FAIL: {' '.join(argv)}\n      {why}", file=sys.stderr, flush=True)
        return None

    def simulate(self):
        rng = self.rng
        topo, (w, params), seed = topology(rng), workload(rng), str(rng.randint(1, 1000))
        common = ["-t", topo, "-w", w, "--seed", seed, "--cost", rng.choice(COSTS), "--json", "--max-seconds", str(MAX_SECONDS)]
        for p in params:
            common += ["--workload-param", p]
        if w == "dynamic_load":
            common += ["--execution", "ps"]
        argv = [self.dlbkit, "simulate", "-s", rng.choice(STRATEGIES)] + common
        doc = self.execute("simulate", argv)
        if doc is None:
            return
        key = tuple(common)
        if key not in self.nobal:
            self.nobal[key] = self.execute("simulate", [self.dlbkit, "simulate", "-s", "none"] + common)
        ref = self.nobal[key]
        if ref is None or w in ("poisson", "dynamic_load"):  # open workloads: arrivals follow the run
            return
        if doc["tasks"] != ref["tasks"]:
            self.fail(argv, f"{doc['tasks']} tasks against NOBAL's {ref['tasks']}")
        work = doc["nodes"]["busy_mean"], ref["nodes"]["busy_mean"]
        if abs(work[0] - work[1]) > 1e-9 * max(1.0, abs(work[1])) + 1e-9:
            self.fail(argv, f"mean busy time {work[0]} against NOBAL's {work[1]}")

    def rounds(self):
        rng = self.rng
        algorithm = rng.choice(ROUND_ALGORITHMS)
        topo = f"hypercube:{rng.randint(1, 10)}" if algorithm == "dimension-exchange" else topology(rng)
        init = rng.choice(["spike", f"spike:{rng.randint(1, 10**6)}", f"uniform:{rng.randint(1, 1000)}"])
        argv = [self.dlbkit, "rounds", "--algorithm", algorithm, "--topology", topo, "--init", init,
                "--until", rng.choice(["steps:50", "balanced:1", "eps:0.01"]), "--integer",
                "--max-steps", "20000", "--seed", str(rng.randint(1, 1000)), "--json"]
        doc = self.execute("rounds", argv)
        if doc is not None and doc["total_initial"] != doc["total_final"]:
            self.fail(argv, f"total load {doc['total_initial']} became {doc['total_final']}")

    def run(self, mpi):
        rng = self.rng
        app = rng.choice(APPS)
        params = {
            "uts": [f"tree=T1,depth={rng.randint(2, 9)},seed={rng.randint(0, 99)}",
                    f"tasks={rng.choice(['node', 'subtree'])}"],
            "bnb": [f"n={rng.randint(6, 11)}", f"mode={rng.choice(['optimise', 'threshold'])}"],
            "busy": [f"granularity={rng.choice([1, 10, 100])}", f"total_load={rng.choice([1e3, 1e5])}"],
            "queens": [f"n={rng.randint(4, 11)}", f"depth={rng.randint(0, 4)}"],
        }[app]
        strategy = rng.choice([s for s in STRATEGIES if s not in ("liquid", "nna")] + ["work_stealing"] * 3)
        argv = [self.dlbkit, "run", "--app", app, "-s", strategy, "--seed", str(rng.randint(1, 1000)), "--json"]
        for p in params:
            argv += ["--app-param", p]
        if rng.random() < 0.3:
            argv += ["--max-delay", rng.choice(["10us", "1ms"])]
        kind = "run-mpi" if mpi else "run-threads"
        if mpi:
            ranks = rng.randint(2, 4)
            argv = ["mpirun", "--oversubscribe", "-np", str(ranks)] + argv
        else:
            argv += ["-n", str(rng.randint(1, 8))]
        doc = self.execute(kind, argv)
        if doc is None:
            return
        if not doc.get("same_result"):
            self.fail(argv, "the parallel result differs from the sequential one")
        seq = doc["sequential"]["result"]
        if app == "uts" and "tasks=node" in params[1] and doc["tasks_executed"] != seq["nodes"]:
            self.fail(argv, f"{doc['tasks_executed']} tasks executed for {seq['nodes']} tree nodes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dlbkit", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "dlbkit"))
    parser.add_argument("--no-mpi", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="list the refusals' error lines")
    args = parser.parse_args()
    if args.minutes <= 0:
        parser.error(f"--minutes {args.minutes}: accepted: a number of minutes > 0")
    mpi = not args.no_mpi and shutil.which("mpirun") is not None
    if mpi:
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    soak = Soak(os.path.abspath(args.dlbkit), random.Random(args.seed), mpi)
    end = time.monotonic() + 60 * args.minutes
    start = time.monotonic()
    while time.monotonic() < end:
        draw = soak.rng.random()
        if draw < 0.45:
            soak.simulate()
        elif draw < 0.65:
            soak.rounds()
        elif draw < 0.9 or not mpi:
            soak.run(mpi=False)
        else:
            soak.run(mpi=True)
    elapsed = (time.monotonic() - start) / 60
    print(f"soak: {elapsed:.1f} min, seed {args.seed}: " +
          ", ".join(f"{k} {v}" for k, v in sorted(soak.counts.items())) +
          f"; {sum(soak.refused.values())} refused with exit 2; {sum(soak.stopped.values())} simulations stopped at "
          f"--max-seconds {MAX_SECONDS}{' ' + str(soak.stopped) if soak.stopped else ''}; {len(soak.failures)} failures")
    if args.verbose:
        for line, count in sorted(soak.refused.items(), key=lambda kv: -kv[1]):
            print(f"  {count:5} {line}")
    print("peak memory of one process: " +
          ", ".join(f"{k} {v / 1024:.0f} MiB" for k, v in sorted(soak.peak_kib.items())))
    sys.exit(1 if soak.failures else 0)


if __name__ == "__main__":
    main()
