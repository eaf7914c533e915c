"""dlbkit.phases and dlbkit.read_vt_data: persistent objects balanced between the phases of
an iterative workload or of vt's LB data, as `dlbkit phases` (the same library function)."""

import json as _json
import warnings as _warnings

from . import _dlbkit, _Figures, _frame, _text, _texts
from ._files import _table


class PhasesResult(_Figures):
    """One run of `dlbkit phases --json`: every figure of its JSON as an attribute.

    inputs, imbalance_before, imbalance_after, imbalance_lower_bound (means over the balancing
    steps; None when no step ran), at_lower_bound (every step reached its bound), lower_bound_units
    ("objects", or "clusters" for a strategy that moves only whole clusters), objects_migrated,
    objects_created and objects_destroyed (between phases: a workload such as amr, or vt data whose
    tasks change; never counted as migrated), bytes_migrated, unplaced_objects, rounds, messages,
    protocol_seconds, migration_seconds, balancing_steps, application_seconds (the sum of the
    phases' max loads, or with subphases their times, and communication), communication_seconds
    (the messages between nodes, priced by the cost model), unbalanced_seconds (the same, never balanced), balancing_seconds,
    mean_phase_seconds, wall_seconds, max_memory_after (with memory in the data; and
    max_group_memory_after with a memory group),
    subphase_time_before and subphase_time_after (with subphases in the data: the phase's time,
    the sum over its subphases of the slowest node's load in each), with devices
    device_time_before, device_time_after, device_bound (means over the balancing steps: the
    busiest node's time in the devices model, and the time no mapping beats) and device_seconds
    (the sum of the phases' times in the model) ...

    phases is a table of the phases, one row each (a pandas DataFrame, a list of dicts
    without pandas): phase, max_load, imbalance, crossing_bytes, communication_seconds, unbalanced_max_load,
    objects, objects_created, objects_destroyed (since the phase before), balanced (and
    subphase_time with subphases, device_time and device_bound with devices), and for a phase
    the strategy balanced after: imbalance_after, max_load_after, subphase_time_after (with
    subphases), device_time_after (with devices),
    imbalance_lower_bound, max_load_lower_bound, at_lower_bound, objects_migrated, rounds,
    messages, protocol_seconds ... (NaN in the other rows); with optimal, optimum: the exact
    reference's figures (a dict: optimal, out_of_time, max_load, imbalance, gap ...).
    """

    def __init__(self, figures):
        super().__init__(figures)
        self.phases = _frame(figures["phases"])

    def __repr__(self):
        i = self.inputs
        source = f"vt data {i['data']}" if "data" in i else f"workload {i['workload']}"
        return (f"<PhasesResult {i['strategy']} on {i['topology']}, {source}: "
                f"{len(self._figures['phases'])} phases, {self.balancing_steps} balancing steps>")


def _text_or_none(value):
    """An option's text; None is an option not given."""
    if value is None:
        return None
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _list_text(value):
    """A list option's text, "1,2" from [1, 2]; None is an option not given."""
    return value if value is None or isinstance(value, str) else ",".join(str(v) for v in value)


def _integer(name, value, low, high, accepted=None):
    """An option the CLI reads as an integer in [low, high], refused with the CLI's message;
    None is an option not given."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name}: '{value}' is not accepted; accepted: {accepted or f'an integer from {low} to {high}'}")
    return value


def phases(strategy=None, workload=None, data=None, topology=None, params=None, workload_params=None, phase=None,
           replay=False, write=None, phases=None, every=None, threshold=None, memory_bound=None, cost="ipsc2",
           cost_params=None, migration_cost=None, migration_byte_cost=None, seed=1, optimal=False, time_limit=None,
           lbaf_config=None, work_model=None, charm_dump=None, as_protocol=False, speeds=None, devices=None,
           offload=None, device_blind=False, memory_group=None):
    """Balance persistent objects between phases: `dlbkit phases`.

    strategy             a phase strategy (`dlbkit list phase-strategies`); None: the
                         one of lbaf_config                                             -s
    workload             an iterative workload (`dlbkit list phase-workloads`)          -w
    data                 or the stem of vt's LB data files STEM.0.json, STEM.1.json ... --data
    charm_dump           or a Charm++ +LBDump file, one load-balancing step        --charm-dump
                         (exactly one of workload, data and charm_dump)
    topology             the nodes and their network, e.g. "torus:8x8"; with data, None
                         is "complete:RANKS"                                            -t
    params               {name: value} of the strategy                                  -p
    workload_params      {name: value} of the workload                                  --workload-param
    phase                with data: the phase id to balance (None: the first)
    replay               with data: every phase in turn, under the mapping the strategy keeps
    write                with data or charm_dump: write the balanced phase as vt's LB data
                         files WRITE.R.json
    phases               with a workload: the phases to run (None: 1)
    every, threshold     with a workload or replay: balance after every k-th phase (None: 1),
                         and after any phase whose imbalance exceeds threshold (None: "inf")
    memory_bound         the most bytes a node may hold, or "inf" (None: "inf", or
                         lbaf_config's)
    memory_group         the bound holds for each K consecutive nodes together (LBAF's
                         ranks_per_node; None: 1, or lbaf_config's)            --memory-group
    speeds               each node's speed, "1,2" or [1, 2] (> 0; None: the input's, 1
                         on every node for a workload)                                  --speeds
    devices              each node's device speedup, "8,0,0,0", "8*2,0*6" (N nodes alike)
                         or [8, 0, 0, 0] (0: no device): every mapping judged in the
                         devices model                                                  --devices
    offload              with devices: the share of every object's load a device can
                         run, in [0, 1] (None: 1)                                       --offload
    device_blind         with devices: the strategies see the nodes' speeds alone, not
                         their speeds with the devices                                  --device-blind
    work_model           what the criteria weigh: "load", or LBAF's work
                         "beta=B,gamma=G,delta=D", vt's "intra=I" (None: "load", or
                         lbaf_config's)                                                 --work-model
    cost, cost_params    the cost model of the protocol's messages and field overrides
    migration_cost       time to migrate one object, e.g. "50us" (None: the model's per_task)
    migration_byte_cost  time per byte migrated, e.g. "0.1ns" (default: the cost model's per_byte)
    seed                 0 to 2**64-1: the same seed gives the same run
    optimal              also solve the exact reference of each balancing step (a MILP;
                         small phases only)                                             --optimal
    time_limit           with optimal: seconds for each MILP (None: 60)                 --time-limit
    as_protocol          run the strategy's rank protocol, each node an agent, and price
                         its own rounds (tempered, diffusion ...)                       --as-protocol
    lbaf_config          LBAF's YAML configuration: its data, phase, algorithm (as
                         tempered), work model, memory bound and group, where the arguments leave
                         them None (each of params overrides the file's)          --lbaf-config

    Returns a PhasesResult. The run releases the GIL. Raises ValueError with the CLI's message
    for bad input. Each key of lbaf_config left out is a UserWarning "ignored: KEY (why)", as
    the CLI's lines on stderr (and in result.inputs["lbaf_config"]["ignored"]).
    """
    for name, flag in (("replay", replay), ("optimal", optimal), ("as_protocol", as_protocol),
                       ("device_blind", device_blind)):
        if flag not in (True, False):
            raise ValueError(f"{name}: '{flag}' is not accepted; accepted: True or False")
    result = PhasesResult(_json.loads(_dlbkit.phases(
        _text_or_none(strategy) or "", _texts(params), _text_or_none(workload), _texts(workload_params),
        _text_or_none(data),
        _integer("--phase", phase, -2**63, 2**63 - 1, "a decimal integer"), _text_or_none(write), bool(replay),
        _text_or_none(topology) or "", _integer("--phases", phases, 1, 1000000), _integer("--every", every, 1, 1000000),
        _text_or_none(threshold), _text(cost), _texts(cost_params), _text_or_none(migration_cost) or "",
        _text_or_none(migration_byte_cost) or "", _text_or_none(memory_bound),
        _integer("--seed", seed, 0, 2**64 - 1, "a decimal whole number"), bool(optimal), _text_or_none(time_limit),
        _text_or_none(lbaf_config), _text_or_none(work_model), _text_or_none(charm_dump), bool(as_protocol),
        _list_text(speeds), _list_text(devices), _text_or_none(offload), bool(device_blind),
        _integer("--memory-group", memory_group, -2**63, 2**63 - 1, "an integer >= 1 (nodes)"))))
    for key in (result.inputs["lbaf_config"] or {}).get("ignored", []):
        _warnings.warn(f"ignored: {key}", stacklevel=2)
    for warning in result.inputs.get("warnings", []):
        _warnings.warn(warning, RuntimeWarning, stacklevel=2)
    return result


def read_vt_data(stem):
    """The objects of vt's LB data files STEM.0.json, STEM.1.json ... (as `dlbkit::ObjectRuntime`
    writes them with --record, or vt itself), one row per object of each phase, read by the
    C++ reader with all of its checks:

    phase              the phase id
    rank               the rank whose file holds the object in that phase
    object             the object's id (vt's entity id or seq_id)
    load               its measured time in the phase, seconds
    migratable         False for an object vt may not move
    footprint_bytes, working_bytes, serialized_bytes, shared_id (-1: no shared block)
                       where the data describes memory
    sent_bytes, received_bytes, sent_messages, received_messages
                       where the data has communications between objects

    A pandas DataFrame (a dict of numpy arrays without pandas) whose attrs hold "ranks", the
    number of files. Raises ValueError with the CLI's message for missing or malformed files.
    """
    columns = _dlbkit.read_vt_data(str(stem))
    ranks = columns.pop("ranks")
    return _table(columns, {"ranks": ranks})
