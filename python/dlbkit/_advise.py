"""dlbkit.advise: which strategy to use on a target machine, as `dlbkit advise` (the same
library function)."""

import json as _json
import os as _os

from . import _dlbkit, _Figures, _frame, _text, _texts
from ._phases import _integer, _text_or_none


class AdviceResult(_Figures):
    """One run of `dlbkit advise --json`: every part of its JSON as an attribute.

    inputs          what ran, defaults resolved
    optimal         total work (or load) / nodes in seconds: a balance that costs nothing
    nobal_makespan  NOBAL's predicted makespan (None on vt data where NOBAL failed)
    ranking         one row per strategy and choice of its searched parameters, best first (a
                    pandas DataFrame, a list of dicts without pandas): rank, strategy, params
                    (every parameter's value), predicted_makespan, efficiency, messages, and
                    on a workload or trace speedup, tasks_transferred, events; on vt data
                    predicted_phase_seconds, imbalance_after, objects_migrated, balancing_seconds
    failed          the runs stopped at a limit or refused: strategy, params, error (a table)
    not_run         the strategies that do not accept the topology: strategy, reason (a table)
    search          {strategy: {parameter: [values tried]}}
    """

    def __init__(self, document):
        super().__init__(document)
        self.ranking = _frame(document["ranking"])
        self.failed = _frame(document["failed"])
        self.not_run = _frame(document["not_run"])

    def __repr__(self):
        i = self.inputs
        source = f"vt data {i['data']}" if "data" in i else f"workload {i['workload']['name']}"
        ranking = self._figures["ranking"]
        best = f"best {ranking[0]['strategy']}" if ranking else "no run ranked"
        return f"<AdviceResult {source} on {i['topology']}: {len(ranking)} runs ranked, {best}>"


def advise(workload=None, trace=None, data=None, topology=None, cost=None, cost_params=None, seed=1,
           workload_params=None, execution=None, max_events=None, max_seconds=None, phase=None, every=None,
           threshold=None, memory_bound=None, migration_cost=None, migration_byte_cost=None, as_protocol=False,
           jobs=None, memory_group=None):
    """Rank every strategy that accepts the topology, with a few values of its main parameters,
    by predicted makespan: `dlbkit advise`.

    workload             a workload (dlbkit.workloads()): the simulator's strategies  -w
    trace                or a run recorded by `dlbkit run --record`                     --trace
    data                 or the stem of vt's LB data files STEM.0.json ...: the phase
                         strategies (exactly one of workload, trace and data)          --data
    topology             the target machine's network, e.g. "hypercube:5"; with data,
                         None is "complete:RANKS"                                       -t
    cost, cost_params    the target machine's cost model (required; a preset or
                         "file:PATH") and field overrides                               -c
    seed                 0 to 2**64-1: the same seed gives the same ranking            --seed
    With workload or trace only (None: the CLI's default):
    workload_params      {name: value} of the workload                                 --workload-param
    execution            "fcfs", "processor_sharing" ("ps") or "lifo"
    max_events, max_seconds  stop each run there (a run stopped is in .failed)
    With data only (None: the CLI's default):
    phase                predict the next phase of this phase id alone (without it, data
                         of two or more phases is replayed)
    every, threshold     with a replay: balance after every k-th phase, and after any phase
                         whose imbalance exceeds threshold ("inf": never)
    memory_bound         the most bytes a node may hold, or "inf"
    memory_group         the bound holds for each K consecutive nodes together       --memory-group
    migration_cost       time to migrate one object, e.g. "50us" (None: the model's per_task)
    migration_byte_cost  time per byte migrated, e.g. "0.1ns" (default: the cost model's per_byte)
    as_protocol          each strategy with a rank protocol for its parameters runs it and
                         is priced as it runs, as Balancer and ObjectRuntime run it      --as-protocol

    jobs                 runs at once, 1 to 256 (None: every core); the ranking does not
                         depend on it

    Returns an AdviceResult. The runs release the GIL. Raises ValueError with the CLI's message
    for bad input.
    """
    if as_protocol not in (True, False):
        raise ValueError(f"as_protocol: '{as_protocol}' is not accepted; accepted: True or False")
    if jobs is None:
        jobs = min(_os.cpu_count() or 1, 256)
    return AdviceResult(_json.loads(_dlbkit.advise(
        _text_or_none(workload), _text_or_none(trace), _text_or_none(data), _text_or_none(topology) or "",
        _text_or_none(cost) or "", _texts(cost_params), _text(seed), _texts(workload_params),
        _text_or_none(execution), _text_or_none(max_events), _text_or_none(max_seconds),
        _integer("--phase", phase, -2**63, 2**63 - 1, "a decimal integer"), _integer("--every", every, 1, 1000000),
        _text_or_none(threshold), _text_or_none(memory_bound), _text_or_none(migration_cost),
        _text_or_none(migration_byte_cost), bool(as_protocol), _integer("--jobs", jobs, 1, 256),
        _integer("--memory-group", memory_group, -2**63, 2**63 - 1, "an integer >= 1 (nodes)"))))
