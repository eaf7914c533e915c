"""dlbkit.run and dlbkit.calibrate: an application run for real on the threads engine, and
this machine's costs as a cost model, as `dlbkit run` and `dlbkit calibrate` (the same
library functions). The MPI engine is the CLI's, under mpirun: this module does not link it."""

import json as _json
import warnings as _warnings

from . import _dlbkit, _Figures, _frame, _text
from ._phases import _integer


def _assignments(params):
    """{name: value} as the CLI's repeated name=value options."""
    return [f"{k}={_text(v)}" for k, v in (params or {}).items()]


class RunResult(_Figures):
    """One run of `dlbkit run --json`: every figure of its JSON as an attribute.

    inputs, result (the application's), elapsed_seconds, tasks_executed, tasks_moved,
    messages (by kind), warnings; with the sequential run (sequential=True, not on the
    sequential engine): sequential (its elapsed_seconds, cpu_seconds and result),
    same_result, efficiency (T_seq / (P T_par)) and cpu_efficiency (sequential CPU / the
    workers' CPU), None without it.

    workers is a table of the workers, one row each (a pandas DataFrame, a list of dicts
    without pandas): busy_seconds, idle_seconds, cpu_seconds, idle_cpu_seconds, splits,
    tasks_executed, tasks_sent, tasks_received, messages_sent.
    """

    def __init__(self, figures):
        self.sequential = self.same_result = self.efficiency = self.cpu_efficiency = None
        super().__init__(figures)
        self.workers = _frame(figures["workers"])

    def __repr__(self):
        i = self.inputs
        seq = "" if self.same_result is None else f", same as sequential: {self.same_result}"
        return (f"<RunResult {i['app']} with {i['strategy']} on {i['topology']}, {i['engine']} engine: "
                f"{self.elapsed_seconds:.4f} s{seq}>")


def run(app, app_params=None, strategy="work_stealing", params=None, topology="auto", engine="threads", workers=None,
        seed=1, check_tasks=1024, poll_interval="20us", max_delay="0", sequential=True, record=None, timeline=None,
        timeline_nodes=None):
    """Run an application for real, beside its sequential run: `dlbkit run`.

    app             an application: busy, bnb, uts, queens (docs/runtime.md)        -a
    app_params      {name: value} of the application                               --app-param
    strategy        a strategy name (dlbkit.strategies())                          -s
    params          {name: value} of the strategy                                  -p
    topology        one worker per node, e.g. "ring:4"; "auto": the first of
                    hypercube, complete, bisectional, ring of the workers that the
                    strategy accepts                                               -t
    engine          "threads" or "sequential" (the baseline alone)                 -e
    workers         with topology "auto": the worker count (None: one per core)    -n
    seed            the workers' random streams                                    --seed
    check_tasks     at most this many tasks and poll() calls between a worker's
                    looks at the clock                                             --check-tasks
    poll_interval   least time between a busy worker's check points, e.g. "20us"
    max_delay       testing: hold every received message up to this long
    sequential      also run the tasks sequentially, for the efficiency and the
                    result check (False: --no-sequential)
    record          write the parallel run's task tree to this file (read_trace)  --record
    timeline        write the run as a timeline to this file (read_timeline)     --timeline
    timeline_nodes  the workers the timeline records: "all" or e.g. "0-7,12"

    Returns a RunResult; each of its warnings (a run that balanced badly) is also issued as a
    RuntimeWarning. The run releases the GIL and cannot be interrupted with Ctrl-C. Raises
    ValueError with the CLI's message for bad input, and an application's own exception as
    RuntimeError.
    """
    if sequential not in (True, False):
        raise ValueError(f"sequential: '{sequential}' is not accepted; accepted: True or False")
    figures = _json.loads(_dlbkit.run(
        _text(app), _assignments(app_params), _text(strategy), _assignments(params), _text(topology), _text(engine),
        "" if workers is None else _text(workers), _text(seed), _text(check_tasks), _text(poll_interval),
        _text(max_delay), sequential, "" if record is None else str(record), "" if timeline is None else str(timeline),
        "" if timeline_nodes is None else _text(timeline_nodes)))
    for warning in figures["warnings"]:
        _warnings.warn(warning, RuntimeWarning, stacklevel=2)
    return RunResult(figures)


class CalibrationResult(_Figures):
    """What `dlbkit calibrate` measured and wrote: the cost model file's fields as attributes
    (name, latency, send_overhead, handle_cost, per_task, poll_cost, poll_interval,
    loop_time, workload_params ...), and

    cost         "file:OUTPUT", the model as simulate()'s cost
    engine       the engine's figures (one_way_message_ns, send_ns, handle_ns, check_ns,
                 per_task_ns, per_byte_ns, loop_ns ...: calibration.engine in the file)
    app          the application's figures (name, params, runs, tasks, ns_per_task and
                 ns_per_step, ns_per_loop or ns_per_node where its result counts them)
    """

    def __init__(self, figures, output):
        super().__init__(figures)
        self.cost = f"file:{output}"
        self.engine = figures["calibration"]["engine"]
        self.app = figures["calibration"]["app"]

    def __repr__(self):
        return f"<CalibrationResult {self.name}: latency {self.latency}, per_task {self.per_task}, in {self.cost}>"


def calibrate(output, app="busy", app_params=None, name=None, repetitions=200, app_runs=3, poll_interval="20us"):
    """Measure the threads engine's costs on this machine and write them as a cost model
    file: `dlbkit calibrate` (docs/predict.md).

    output         the cost model file to write (JSON)                             -o
    app            the application whose time per task is measured                 -a
    app_params     {name: value} of the application                                --app-param
    name           the model's name (None: "calibrated-threads")                   --name
    repetitions    round trips, bursts and poll batches per figure, 2 to 100000
    app_runs       sequential runs of the application, 1 to 1000
    poll_interval  the runtime's check interval, written to the model

    Returns a CalibrationResult: simulate(..., cost=result.cost) predicts with it. It takes
    a few seconds at the default repetitions; it releases the GIL. Raises ValueError with the
    CLI's message for bad input.
    """
    if str(output) == "":
        raise ValueError("--output: '' is empty; accepted: the path of the file to write")
    figures = _json.loads(_dlbkit.calibrate(
        str(output), _text(app), _assignments(app_params), "" if name is None else _text(name),
        _integer("--repetitions", repetitions, 2, 100000), _integer("--app-runs", app_runs, 1, 1000),
        _text(poll_interval)))
    return CalibrationResult(figures, output)
