"""dlbkit from Python: the same strategies, workloads, cost models, simulator, round loop and
runtime as the `dlbkit` command, with the same names, parameters and checks: topology(),
simulate(), sweep(), rounds(), analyze(), phases(), advise(), run(), calibrate(), reproduce(), the lists strategies(),
workloads(), cost_models(), reproductions(), and read_timeline() / read_trace() /
read_vt_data() for the files runs write.

    >>> import dlbkit
    >>> r = dlbkit.simulate(strategy="rid", topology="hypercube:5")
    >>> round(r.makespan, 2), r.tasks_transferred
    (47.74, 699)

Bad input raises ValueError with the message `dlbkit` prints after "dlbkit: error: ";
any other failure inside the library raises RuntimeError.
"""

import json as _json

from . import _dlbkit
from ._dlbkit import Topology

__all__ = ["Topology", "SimulationResult", "SweepResult", "ReproductionResult", "RoundsResult", "DiffusionAnalysis",
           "PhasesResult", "topology", "simulate", "sweep", "rounds", "analyze", "phases", "reproduce", "strategies",
           "workloads", "cost_models", "reproductions", "read_timeline", "read_trace", "read_vt_data"]


def topology(spec):
    """The network of a topology spec, as `dlbkit topology SPEC` reads it: "hypercube:5",
    "torus:8x8", "file:net.txt" ... (`dlbkit list topologies`).

    The result has spec, size, degree (the largest), min_degree, edges, diameter,
    neighbors(v), distance(u, v), laplacian_spectrum() (a numpy array) and to_dict(),
    the figures of `dlbkit topology SPEC --json`.
    """
    return _dlbkit.topology(spec)


def _topology_to_dict(self):
    """The figures of `dlbkit topology SPEC --json`, as a dict."""
    return _json.loads(self._describe())


Topology.to_dict = _topology_to_dict


def _text(value):
    """A parameter value as the command line would spell it: True -> "true", 0.5 -> "0.5"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _texts(params):
    return {str(k): _text(v) for k, v in (params or {}).items()}


def _speeds_text(speeds):
    """Speeds as --speeds takes them: a text as it is, a list of numbers comma-separated."""
    return speeds if speeds is None or isinstance(speeds, str) else ",".join(str(s) for s in speeds)


class _Figures:
    """A JSON document of the CLI with every figure as an attribute; to_dict() gives it back."""

    def __init__(self, figures):
        self._figures = figures
        for key, value in figures.items():
            setattr(self, key, value)

    def to_dict(self):
        """The JSON document the CLI prints with --json (or writes), as a dict."""
        return _json.loads(_json.dumps(self._figures))  # a copy the caller may change


class SimulationResult(_Figures):
    """One run of a strategy beside NOBAL on the same tasks: every figure of
    `dlbkit simulate --json` as an attribute (inputs, makespan, optimal, nobal_makespan,
    speedup, pi, tasks, tasks_transferred, messages, events, wall_seconds,
    events_per_second, nodes ...). A figure that is undefined for the input is None, with
    the reason in speedup_undefined or pi_undefined. Times are in seconds.

    per_node (with simulate(..., per_node=True)) is a numpy structured array, one row per
    node, with the fields busy, overhead, idle, finish, tasks_executed, tasks_sent,
    tasks_received and messages_sent.
    """

    def __init__(self, figures):
        super().__init__(figures)
        self.per_node = _per_node_array(figures["per_node"]) if "per_node" in figures else None

    def __repr__(self):
        i = self.inputs
        return (f"<SimulationResult {i['strategy']['name']} on {i['topology']}: "
                f"makespan {self.makespan:.4f} s, NOBAL {self.nobal_makespan:.4f} s>")


_PER_NODE_FIELDS = [("busy", "f8"), ("overhead", "f8"), ("idle", "f8"), ("finish", "f8"),
                    ("tasks_executed", "u8"), ("tasks_sent", "u8"), ("tasks_received", "u8"),
                    ("messages_sent", "u8")]


def _per_node_array(rows):
    import numpy  # only when asked: the rest of the package does not need numpy
    return numpy.array([tuple(row[name] for name, _ in _PER_NODE_FIELDS) for row in rows],
                       dtype=_PER_NODE_FIELDS)


def simulate(strategy, topology, workload="artificial", cost="ipsc2", params=None, workload_params=None,
             cost_params=None, seed=1, execution="fcfs", max_events=None, max_seconds=None, per_node=False,
             speeds=None, threads=None):
    """Simulate one strategy on a workload, beside NOBAL on the same tasks: `dlbkit simulate`.

    strategy         a strategy name (dlbkit.strategies())                      -s
    topology         a topology spec, e.g. "hypercube:5"                          -t
    workload         a workload name (dlbkit.workloads()), or "trace:PATH"        -w
    cost             a cost model (dlbkit.cost_models()), or "file:PATH"          -c
    params           {name: value} of the strategy                               -p
    workload_params  {name: value} of the workload                               --workload-param
    cost_params      {name: value} overriding cost model fields, e.g. {"latency": "500us"}
    seed             0 to 2**64-1: the same seed gives the same run              --seed
    execution        "fcfs", "processor_sharing" ("ps") or "lifo"                --execution
    max_events       stop each run after this many events (None: the CLI's default)
    max_seconds      stop each run after this many seconds of host time (None: no limit)
    per_node         also return each node's times as the numpy array .per_node
    speeds           each node's speed, "1,2" or [1, 2], or "cycle:1,2" (node v at the
                     (v mod k)-th); None: every node at speed 1                   --speeds
    threads          threads to simulate on, with the same result as on one; None:
                     every core from 4096 nodes on, else 1                       --threads

    Values may be numbers or strings ("350us"); True and False are "true" and "false".
    Returns a SimulationResult. The run releases the GIL (other threads go on) and cannot be
    interrupted with Ctrl-C: bound a long one with max_seconds. Raises ValueError for bad input.
    """
    return SimulationResult(_json.loads(_dlbkit.simulate(
        _text(strategy), _text(topology), _text(workload), _text(cost), _texts(params),
        _texts(workload_params), _texts(cost_params), _text(seed), _text(execution),
        None if max_events is None else _text(max_events), None if max_seconds is None else _text(max_seconds),
        bool(per_node), _speeds_text(speeds), None if threads is None else _text(threads))))


class ReproductionResult:
    """A reproduction's tables and figures: `dlbkit reproduce NAME --json`.

    tables       {table name: its rows}, pandas DataFrames when pandas is installed (lists
                 of dicts otherwise), one column per column of the printed table
    comparisons  every published number beside ours (the scoreboard's rows), as a table
    text         the tables as the CLI prints them, the paper's numbers beside ours
    notes, inputs, files (the CSV and figures written), name
    """

    def __init__(self, data):
        self.name, self.inputs, self.notes = data["name"], data["inputs"], data["notes"]
        self.files, self.text = data["files"], data["text"]
        self.tables = {t["name"]: _frame([dict(zip(t["columns"], row)) for row in t["rows"]]) for t in data["tables"]}
        self.comparisons = _frame(data["comparisons"])

    def __repr__(self):
        return f"<ReproductionResult {self.name}: tables {', '.join(self.tables)}>"


def _frame(rows):
    """A pandas DataFrame of the rows (dicts) when pandas is installed, the rows otherwise."""
    try:
        import pandas
        return pandas.DataFrame(rows)
    except ImportError:
        return rows


def reproduce(name, out_dir="out", runs=None, jobs=None, params=None):
    """Regenerate one of the papers' tables or figures: `dlbkit reproduce NAME`.

    name     a reproduction (dlbkit.reproductions()), e.g. "wlr93-table4"
    out_dir  where its CSV and figures go, in out_dir/NAME (as the CLI's --out)
    runs     seeds per point (None: the reproduction's own default)
    jobs     simulations at once (None: every core)
    params   {name: value} of the reproduction's own parameters

    Returns a ReproductionResult. Raises ValueError for bad input.
    """
    import os
    return ReproductionResult(_json.loads(_dlbkit.reproduce(
        _text(name), str(out_dir), 0 if runs is None else int(runs), int(jobs or os.cpu_count() or 1),
        _texts(params))))


def reproductions():
    """Every reproduction, as `dlbkit reproduce --list` would give them, in the form of
    strategies()."""
    return _dlbkit.reproductions()


def strategies():
    """Every strategy, as `dlbkit list strategies`: a list of dicts with name, description,
    source (the paper and section) and params (dicts of name, default, description, accepted,
    and search: the values `dlbkit advise` tries besides the default)."""
    return _dlbkit.strategies()


def workloads():
    """Every workload, as `dlbkit list workloads`, in the form of strategies()."""
    return _dlbkit.workloads()


def cost_models():
    """Every cost model preset, as `dlbkit list cost-models`, in the form of strategies();
    a field's default is the preset's value, which cost_params overrides."""
    return _dlbkit.cost_models()


from ._sweep import SweepResult, sweep  # noqa: E402  (it calls simulate(), defined above)
from ._rounds import DiffusionAnalysis, RoundsResult, analyze, rounds  # noqa: E402
from ._files import read_timeline, read_trace  # noqa: E402
from ._phases import PhasesResult, phases, read_vt_data  # noqa: E402
from ._advise import AdviceResult, advise  # noqa: E402
__all__ += ["AdviceResult", "advise"]
from ._run import CalibrationResult, RunResult, calibrate, run  # noqa: E402
__all__ += ["RunResult", "CalibrationResult", "run", "calibrate"]
