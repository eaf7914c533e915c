#!/usr/bin/python3
"""The simulator's prediction beside real runs of realistic length (docs/predict.md, "Runs of
seconds"); not in CI: it times real runs, minutes of them.

  scripts/predict-real-size.py [--engine threads|mpi] [--runs 3] [--cases T1,T1L,...]
                               [--strategies work_stealing,rid,...] [--advise] [--real TABLE.md]

For the engine: `dlbkit calibrate` with each case's app (a file per case: the engine's costs
and the app's time per unit, which the workload then takes), then for each strategy the
real run on 2 workers (median of --runs makespans, tasks moved) beside `dlbkit simulate` on
hypercube:1 (what run picks) with that file and --execution lifo. Both efficiencies are the
simulated total work (the app's exact tasks, docs/apps/workloads.md) over 2 makespans.
With --advise, `dlbkit advise` on the same file picks a strategy and its parameters, which
then run for real beside the best real run of the strategies above. Prints a Markdown table.

Each calibrated case is calibrated again after its runs, and the change of the app's time
per unit between the two (the machine's drift, which no model predicts) is printed.

With --real, the real makespans and tasks moved come from a table this script printed
before (its rows for the engine's cases and strategies) instead of new runs: a change of
the model is predicted again against the same real runs, after a new calibration.

The queens cases have no workload model: their prediction replays a recorded run (`run
--record`, work_stealing on 2 workers; of --runs recordings the one of median total work),
whose measured task durations stand for the app's time per unit.
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DLBKIT = os.path.join(ROOT, "build/bin/dlbkit")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

# name: (app, app params, workload params beside the calibrated time per unit)
CASES = {
    "T1": ("uts", ["tree=T1"], ["tree=T1"]),
    "T1L": ("uts", ["tree=T1L"], ["tree=T1L"]),
    "T3L": ("uts", ["tree=T3L"], ["tree=T3L"]),
    # a task per subtree, split on demand; the simulated uts is node by node, at the subtree
    # mode's time per node
    "T1-subtree": ("uts", ["tree=T1", "tasks=subtree"], ["tree=T1"]),
    "T1L-subtree": ("uts", ["tree=T1L", "tasks=subtree"], ["tree=T1L"]),
    "T3L-subtree": ("uts", ["tree=T3L", "tasks=subtree"], ["tree=T3L"]),
    # the same, each unvisited child handed over as a task of its own: the stack a split
    # leaves is node mode's
    "T1-children": ("uts", ["tree=T1", "tasks=subtree", "split=children"], ["tree=T1"]),
    "T1L-children": ("uts", ["tree=T1L", "tasks=subtree", "split=children"], ["tree=T1L"]),
    "T3L-children": ("uts", ["tree=T3L", "tasks=subtree", "split=children"], ["tree=T3L"]),
    "bnb": ("bnb", ["n=12", "m=7", "instance_seed=1", "mode=threshold"],
            ["n=12", "m=7", "instance_seed=1", "placement=tree"]),
    "busy": ("busy", ["total_load=1e6", "granularity=20"], ["total_load=1e6", "granularity=20"]),
    # None: replayed from a recording (the tasks' measured durations)
    "Q14": ("queens", ["n=14"], None),
    "Q15": ("queens", ["n=15"], None),
}
STRATEGIES = ["work_stealing", "lifeline", "rid", "sid", "gm", "hbm", "dem", "direct_neighbor", "sos",
              "diffusion", "dimension_exchange", "liquid", "chebyshev"]


def dlbkit(engine, args):
    cmd = [DLBKIT] + args
    if engine == "mpi":
        cmd = ["mpirun", "--oversubscribe", "-np", "2"] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, check=True).stdout


def params(flag, values):
    return [x for v in values for x in (flag, v)]


def calibrate(engine, app, app_params, folder):
    path = os.path.join(folder, f"{engine}-{app}.json")
    dlbkit(engine, ["calibrate", "--engine", engine, "--output", path, "--app", app] + params("--app-param", app_params))
    return path


def real(engine, strategy, app, app_params, runs, strategy_params=()):
    out = []
    for _ in range(runs):
        args = ["run", "--app", app, "-s", strategy, "--no-sequential", "--json"] + params("--app-param", app_params)
        args += params("-p", strategy_params)
        if engine == "threads":
            args += ["--workers", "2"]
        else:
            args += ["--engine", "mpi"]
        text = dlbkit(engine, args)
        out.append(json.loads(text[text.index("{"):]))
    makespan = statistics.median(r["elapsed_seconds"] for r in out)
    return makespan, statistics.median(r["tasks_moved"] for r in out)


def time_per_unit(cost, app):
    """The app's time per unit that calibrate wrote (ns)."""
    (value,) = json.load(open(cost))["workload_params"][app].values()
    return float(value.removesuffix("ns"))


def recorded(engine, app, app_params, runs, folder):
    """The workload of a recorded run: of `runs` recordings, the one of median total work."""
    traces = []
    for k in range(runs):
        path = os.path.join(folder, f"{engine}-{app}-{k}.trace")
        args = ["run", "--app", app, "-s", "work_stealing", "--no-sequential", "--record", path]
        args += params("--app-param", app_params) + (["--workers", "2"] if engine == "threads" else ["--engine", "mpi"])
        dlbkit(engine, args)
        text = dlbkit("threads", ["simulate", "-s", "none", "-t", "hypercube:1", "-w", "trace:" + path, "--json"])
        traces.append((json.loads(text)["optimal"], path))
    return "trace", [f"file={sorted(traces)[len(traces) // 2][1]}"]


def predicted(strategy, workload, workload_params, cost):
    text = dlbkit("threads", ["simulate", "-s", strategy, "-t", "hypercube:1", "-w", workload, "--cost", "file:" + cost,
                              "--execution", "lifo", "--json"] + params("--workload-param", workload_params))
    r = json.loads(text)
    return r["makespan"], r["tasks_transferred"], r["optimal"]


def advised(workload, workload_params, cost):
    """advise's pick: its strategy and every parameter as k=v."""
    text = dlbkit("threads", ["advise", "-w", workload, "-t", "hypercube:1", "--cost", "file:" + cost,
                              "--execution", "lifo", "--json"]
                  + params("--workload-param", workload_params))
    best = json.loads(text)["ranking"][0]
    values = [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in best["params"].items()]
    return best["strategy"], values, best["predicted_makespan"]


def earlier_real(path):
    """(case, strategy) -> (makespan, moved) from the rows of a table printed before."""
    out = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or not cells[2].endswith(")") or " s (" not in cells[2]:
            continue
        out[(cells[0].split(" ")[0], cells[1])] = (float(cells[2].split(" ")[0]), float(cells[5].split(" / ")[0]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="threads", choices=["threads", "mpi"])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cases", default="T1,T1L,bnb,busy")
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--real", help="take the real runs from this earlier table instead of running them")
    ap.add_argument("--advise", action="store_true",
                    help="also run advise's pick (its parameters too) beside the real best of the strategies run")
    a = ap.parse_args()
    before = earlier_real(a.real) if a.real else None
    print("| case | strategy | real makespan (eff.) | predicted (eff.) | error | moved real / predicted |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for case in a.cases.split(","):
            app, app_params, workload_params = CASES[case]
            cost = calibrate(a.engine, app, app_params, folder)
            workload = app
            if workload_params is None:
                workload, workload_params = recorded(a.engine, app, app_params, a.runs, folder)
            best = None
            for s in a.strategies.split(","):
                if before is not None:
                    if (case, s) not in before:
                        continue
                    t_real, moved_real = before[(case, s)]
                else:
                    t_real, moved_real = real(a.engine, s, app, app_params, a.runs)
                best = min(best or (t_real, s), (t_real, s))
                t_sim, moved_sim, optimal = predicted(s, workload, workload_params, cost)
                print(f"| {case} (work {2 * optimal:.3f} s) | {s} | {t_real:.4f} s ({optimal / t_real:.1%}) | "
                      f"{t_sim:.4f} s ({optimal / t_sim:.1%}) | {t_sim / t_real - 1:+.1%} | "
                      f"{moved_real:.0f} / {moved_sim} |", flush=True)
            if a.advise and best is not None:
                pick, values, t_pick = advised(workload, workload_params, cost)
                t_real, _ = real(a.engine, pick, app, app_params, a.runs, values)
                print(f"| {case} | advise's pick: {pick} {' '.join(values)} | {t_real:.4f} s | {t_pick:.4f} s | "
                      f"{t_pick / t_real - 1:+.1%} | real best above: {best[1]} {best[0]:.4f} s, "
                      f"the pick {t_real / best[0] - 1:+.1%} |", flush=True)
            if workload == app:
                first, again = time_per_unit(cost, app), time_per_unit(calibrate(a.engine, app, app_params, folder), app)
                print(f"| {case} | calibrated again after the runs | {again:.2f} ns per unit | {first:.2f} ns | "
                      f"drift {again / first - 1:+.1%} | |", flush=True)


if __name__ == "__main__":
    main()
