"""The Python package's costs against the C++ underneath (issue 31's targets), printed, not
asserted:

1. a dlbkit.simulate call's overhead over the C++ run, for a simulation of about 10 ms:
   the call's wall time against the run's own wall_seconds (the balanced run alone: the call
   also builds the workload, runs NOBAL and makes the JSON), against the same inputs through
   the raw module function (the C++ setup, both runs and the JSON, no Python objects), and
   against `dlbkit simulate --json` as a process less a trivial command's (the process's
   start; a rough figure); medians of many calls;
2. dlbkit.sweep of about 200 runs of about 10 ms on every core, against one process (a plain
   loop of dlbkit.simulate, and sweep with jobs=1).

    PYTHONPATH=build/python DLBKIT_CLI=build/bin/dlbkit /usr/bin/python3 python/bench/bench_python.py

Timings on a machine that others use at the same time vary; run it on a quiet one.
"""

import argparse
import os
import statistics
import subprocess
import time

import dlbkit
from dlbkit import _dlbkit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("DLBKIT_CLI", os.path.join(ROOT, "build", "bin", "dlbkit"))
# About 10 ms on this machine (the balanced run's wall_seconds): RID on 256 nodes, g = 70.
CASE = dict(strategy="rid", topology="hypercube:8", workload_params={"granularity": 70})


def median_time(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def overhead(repeat):
    call = lambda: dlbkit.simulate(**CASE)  # noqa: E731
    raw_call = lambda: _dlbkit.simulate(CASE["strategy"], CASE["topology"], "artificial", "ipsc2", {},  # noqa: E731
                                        {"granularity": "70"}, {}, "1", "fcfs", None, None, False)
    call()  # warm caches and imports
    pythons, raws = [], []
    for _ in range(repeat):  # interleaved, so that a change of the machine's load hits both alike
        pythons.append(median_time(call, 1))
        raws.append(median_time(raw_call, 1))
    python, raw = statistics.median(pythons), statistics.median(raws)
    run = statistics.median(dlbkit.simulate(**CASE).wall_seconds for _ in range(repeat))
    args = ["simulate", "-s", CASE["strategy"], "-t", CASE["topology"], "--workload-param", "granularity=70", "--json"]
    cli = median_time(lambda: subprocess.run([CLI, *args], check=True, capture_output=True), repeat)
    start = median_time(lambda: subprocess.run([CLI, "list", "cost-models"], check=True, capture_output=True), repeat)
    print(f"1. one simulate call, {CASE}, median of {repeat}:")
    print(f"   dlbkit.simulate                 {python * 1e3:8.3f} ms")
    print(f"   _dlbkit.simulate (raw, C++)     {raw * 1e3:8.3f} ms   -> the Python layer adds {python / raw - 1:+.2%}")
    print(f"   the balanced run (wall_seconds) {run * 1e3:8.3f} ms   -> the call takes {python / run:.2f}x (setup, "
          f"NOBAL, JSON)")
    print(f"   dlbkit simulate --json process  {cli * 1e3:8.3f} ms, a trivial command {start * 1e3:.3f} ms "
          f"-> the call against the CLI's work: {python / (cli - start) - 1:+.2%}")


def sweep_speedup(runs):
    import pandas  # noqa: F401  (loaded before the clock starts, as in a study's session: the first import takes 0.2 s)
    seeds = list(range(1, runs + 1))
    start = time.perf_counter()
    for seed in seeds:
        dlbkit.simulate(**CASE, seed=seed)
    loop = time.perf_counter() - start
    timings = {}
    for jobs in (1, os.cpu_count() or 1):
        start = time.perf_counter()
        r = dlbkit.sweep(CASE["strategy"], CASE["topology"], workload_params=CASE["workload_params"], seeds=seeds,
                         jobs=jobs, progress=False)
        timings[jobs] = time.perf_counter() - start
        assert len(r.runs) == runs
    cores = os.cpu_count() or 1
    print(f"2. dlbkit.sweep of {runs} runs of {CASE}:")
    print(f"   a loop of dlbkit.simulate       {loop:7.2f} s")
    print(f"   sweep, jobs=1                   {timings[1]:7.2f} s")
    print(f"   sweep, jobs={cores} (every core)    {timings[cores]:7.2f} s   -> {loop / timings[cores]:.2f}x the loop, "
          f"{timings[1] / timings[cores]:.2f}x jobs=1")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50, help="calls per median (default 50)")
    parser.add_argument("--runs", type=int, default=200, help="runs in the sweep (default 200)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    overhead(args.repeat)
    sweep_speedup(args.runs)


if __name__ == "__main__":
    main()
