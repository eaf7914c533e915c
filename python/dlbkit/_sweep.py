"""dlbkit.sweep: a grid of simulations run in parallel, in worker processes or on any
concurrent.futures executor (a cluster's), every run as a row and a summary with means and
95% confidence intervals."""

import collections
import itertools
import math
import operator
import os
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor

from . import _frame  # defined in the package before it imports this module

# The figures of each run kept as columns (from `dlbkit simulate --json`).
FIGURES = ["makespan", "optimal", "nobal_makespan", "speedup", "pi", "tasks", "tasks_transferred", "messages",
           "events", "wall_seconds"]

# Student's t quantile t(0.975, df) for df = 1..30; above 30 the normal quantile 1.96 is within 2%.
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042]


def _as_list(value):
    """A grid axis: a list or tuple as given, anything else as a one-value axis."""
    return list(value) if isinstance(value, (list, tuple, range)) else [value]


def _grid(axes):
    """Every combination of {name: [values]}, as dicts."""
    names = list(axes)
    return [dict(zip(names, values)) for values in itertools.product(*(axes[n] for n in names))]


def _ci95(values):
    """Mean and the half-width of its 95% confidence interval (Student's t; 0 for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1))
    t = _T975[n - 2] if n - 1 <= len(_T975) else 1.96
    return mean, t * sd / math.sqrt(n)


_SEEDS_ACCEPTED = "accepted: a count n >= 1 (seeds 1..n), or a list of distinct integers from 0 to 2**64-1"


def _seed_list(seeds):
    """The seeds of a sweep, checked: each seed is one independent run, so a repeated seed would
    count one run twice and narrow the confidence interval with a copy."""
    if isinstance(seeds, (bool, str, bytes)):
        raise ValueError(f"seeds={seeds!r}; {_SEEDS_ACCEPTED}")
    if hasattr(seeds, "__index__"):  # a count (int, numpy integer)
        n = operator.index(seeds)
        if n < 1:
            raise ValueError(f"seeds={n}; {_SEEDS_ACCEPTED}")
        return list(range(1, n + 1))
    try:
        given = list(seeds)
    except TypeError:
        raise ValueError(f"seeds={seeds!r}; {_SEEDS_ACCEPTED}") from None
    if not given:
        raise ValueError(f"seeds=[]; {_SEEDS_ACCEPTED}")
    values = []  # plain ints: the rows' labels
    for seed in given:
        if isinstance(seed, bool) or not hasattr(seed, "__index__") or not 0 <= operator.index(seed) < 2**64:
            raise ValueError(f"seed {seed!r}; {_SEEDS_ACCEPTED}")
        values.append(operator.index(seed))
    repeated = sorted(seed for seed, count in collections.Counter(values).items() if count > 1)
    if repeated:
        raise ValueError(f"seeds repeat {', '.join(map(str, repeated))}; {_SEEDS_ACCEPTED}")
    return values


def _as_executor(executor):
    """The executor to run on: a Dask Client through its get_executor(), any
    concurrent.futures.Executor as it is."""
    if executor is None or isinstance(executor, Executor):
        return executor
    if callable(getattr(executor, "get_executor", None)):
        return executor.get_executor()
    raise TypeError(f"executor={executor!r}; accepted: None (worker processes on this machine), a "
                    "concurrent.futures.Executor (e.g. mpi4py.futures.MPIPoolExecutor) or a Dask distributed Client")


def _one_run(job):
    """A worker's run: the row of one grid point (a picklable function of plain values; it
    imports dlbkit where it runs)."""
    from . import simulate
    r = simulate(**job["args"])
    row = dict(job["labels"])
    for name in FIGURES:
        value = getattr(r, name)
        row[name] = value["total"] if name == "messages" else value
    return row


def _collect(results, rows, bar):
    """The rows of an executor's map(), in the order of the jobs, counted on the progress line."""
    for row in results:
        rows.append(row)
        bar.update(len(rows))


class _Progress:
    """`done/total` on stderr, rewritten in place, when stderr is a terminal (or when asked)."""

    def __init__(self, total, shown):
        self.total, self.shown, self.start = total, shown, time.monotonic()

    def update(self, done):
        if self.shown:
            elapsed = time.monotonic() - self.start
            left = elapsed / done * (self.total - done) if done else 0
            sys.stderr.write(f"\rdlbkit.sweep: {done}/{self.total} runs, {elapsed:.0f} s, about {left:.0f} s left ")
            sys.stderr.flush()

    def close(self):
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


class SweepResult:
    """Every run (`runs`) and the summary over seeds (`summary`): pandas DataFrames when pandas
    is installed, lists of dicts otherwise. A summary row holds the grid point's labels, the
    number of seeds `n`, and for each figure its mean and `<figure>_ci95`, the half-width of
    the 95% confidence interval of that mean (Student's t over the seeds)."""

    def __init__(self, rows, labels):
        groups = {}
        for row in rows:
            key = tuple(row[name] for name in labels if name != "seed")
            groups.setdefault(key, []).append(row)
        summary = []
        for key, members in groups.items():
            s = dict(zip([n for n in labels if n != "seed"], key))
            s["n"] = len(members)
            for name in FIGURES:
                values = [m[name] for m in members if m[name] is not None]
                if values:
                    s[name], s[name + "_ci95"] = _ci95(values)
                else:  # undefined for this input (e.g. Pi when NOBAL is optimal)
                    s[name], s[name + "_ci95"] = None, None
            summary.append(s)
        self.runs, self.summary = _frame(rows), _frame(summary)

    def __repr__(self):
        return f"<SweepResult: {len(self.runs)} runs, {len(self.summary)} grid points>"


def sweep(strategies, topologies, workload="artificial", params=None, workload_params=None, seeds=(1,),
          cost="ipsc2", cost_params=None, execution="fcfs", max_seconds=None, jobs=None, progress=None,
          executor=None):
    """Simulate every combination of strategies x topologies x parameters x seeds, in parallel
    worker processes or on a cluster: dlbkit.simulate() for each, the same names and checks.

    strategies       a strategy name or a list of them
    topologies       a topology spec or a list of them
    workload         a workload name, or a list of them
    params           {name: value or [values]}: each strategy takes the parameters it declares
                     (dlbkit.strategies()); a list is an axis of the grid. A name that no
                     strategy of the sweep declares is a ValueError.
    workload_params  {name: value or [values]} of the workload, lists again axes of the grid
    seeds            an int n >= 1 (seeds 1..n) or a list of distinct seeds; the summary is over them
    cost, cost_params, execution, max_seconds   as in dlbkit.simulate()
    jobs             worker processes of the default pool (default: every core, os.cpu_count())
    progress         a progress line on stderr: None shows it when stderr is a terminal
    executor         where the runs go: None for a pool of `jobs` worker processes on this
                     machine, or any concurrent.futures.Executor, e.g.
                     mpi4py.futures.MPIPoolExecutor(), or a Dask distributed Client, to run
                     the same sweep on a cluster (its workers must be able to import dlbkit).
                     The sweep does not shut a given executor down.

    Returns a SweepResult: .runs (a row per run: the grid point's labels, the seed and the
    figures makespan, optimal, nobal_makespan, speedup, pi, tasks, tasks_transferred,
    messages, events, wall_seconds) and .summary (means and 95% confidence intervals over the
    seeds), the same whatever the executor but for wall_seconds. Bad input raises ValueError
    before any run starts (TypeError for an executor of another kind).
    """
    from . import strategies as known_strategies
    strategy_list = _as_list(strategies)
    seed_list = _seed_list(seeds)
    if not strategy_list or not _as_list(topologies) or not _as_list(workload):
        raise ValueError("dlbkit.sweep: strategies, topologies and workload must each have at least one value")
    if executor is not None and jobs is not None:
        raise ValueError("dlbkit.sweep: jobs sizes the default pool of worker processes; give jobs or executor, "
                         "not both")
    executor = _as_executor(executor)
    declared = {s["name"]: {p["name"] for p in s["params"]} for s in known_strategies()}
    for name in strategy_list:
        if name not in declared:
            raise ValueError(f"unknown strategy '{name}'; accepted: {', '.join(declared)}")
    params = params or {}
    for name in params:
        if not any(name in declared[s] for s in strategy_list):
            raise ValueError(f"parameter '{name}' is declared by none of the strategies {', '.join(strategy_list)}")
    workload_axes = {k: _as_list(v) for k, v in (workload_params or {}).items()}

    jobs_list, labels = [], ["strategy", "topology", "workload"]
    varied_params = [k for k, v in params.items() if isinstance(v, (list, tuple, range))]
    varied_workload = [k for k, v in workload_axes.items() if len(v) > 1]
    labels += varied_params + [f"workload.{k}" for k in varied_workload] + ["seed"]
    for strategy in strategy_list:
        own = {k: _as_list(v) for k, v in params.items() if k in declared[strategy]}
        for topology, wl, p, wp, seed in itertools.product(_as_list(topologies), _as_list(workload), _grid(own),
                                                           _grid(workload_axes), seed_list):
            row_labels = {"strategy": strategy, "topology": topology, "workload": wl}
            for k in varied_params:
                row_labels[k] = p.get(k)  # None for a strategy that does not declare it
            for k in varied_workload:
                row_labels[f"workload.{k}"] = wp[k]
            row_labels["seed"] = seed
            jobs_list.append({"labels": row_labels,
                              "args": dict(strategy=strategy, topology=topology, workload=wl, cost=cost, params=p,
                                           workload_params=wp, cost_params=cost_params, seed=seed,
                                           execution=execution, max_seconds=max_seconds,
                                           threads=1)})  # the runs go `jobs` at a time, each on one thread
    # The first run here, in this process: bad input is a ValueError before any worker starts.
    rows = [_one_run(jobs_list[0])]
    bar = _Progress(len(jobs_list), sys.stderr.isatty() if progress is None else bool(progress))
    bar.update(1)
    rest = jobs_list[1:]
    try:
        if executor is not None:
            _collect(executor.map(_one_run, rest), rows, bar)
        elif rest:
            workers = min(jobs or os.cpu_count() or 1, len(rest))
            with ProcessPoolExecutor(max_workers=workers) as pool:
                _collect(pool.map(_one_run, rest, chunksize=max(1, len(rest) // (8 * workers))), rows, bar)
    finally:
        bar.close()
    return SweepResult(rows, labels)
