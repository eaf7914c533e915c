# Type stubs of the dlbkit package (python/dlbkit/__init__.py, _sweep.py): what IDEs and type
# checkers read. The docstrings are in the package itself (help(dlbkit.simulate)).
from concurrent.futures import Executor
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy

_Value = Union[str, int, float, bool]
_Params = Optional[Mapping[str, _Value]]
_Axis = Union[_Value, Sequence[_Value]]

class Topology:
    @property
    def spec(self) -> str: ...
    @property
    def size(self) -> int: ...
    @property
    def degree(self) -> int: ...
    @property
    def min_degree(self) -> int: ...
    @property
    def edges(self) -> int: ...
    @property
    def diameter(self) -> int: ...
    def neighbors(self, v: int) -> list[int]: ...
    def distance(self, u: int, v: int) -> int: ...
    def laplacian_spectrum(self) -> numpy.ndarray: ...
    def to_dict(self) -> dict[str, Any]: ...

class SimulationResult:
    inputs: dict[str, Any]
    makespan: float
    optimal: float
    nobal_makespan: float
    speedup: Optional[float]
    pi: Optional[float]
    tasks: int
    tasks_transferred: int
    messages: dict[str, int]
    events: int
    wall_seconds: float
    events_per_second: float
    nodes: dict[str, float]
    per_node: Optional[numpy.ndarray]
    def to_dict(self) -> dict[str, Any]: ...

class SweepResult:
    runs: Any  # pandas.DataFrame, or a list of dicts without pandas
    summary: Any

class ReproductionResult:
    name: str
    inputs: dict[str, Any]
    notes: list[str]
    files: list[str]
    text: str
    tables: dict[str, Any]  # pandas.DataFrame each, or lists of dicts without pandas
    comparisons: Any

class RoundsResult:
    inputs: dict[str, Any]
    kernel: str
    steps: int
    max_min_difference: float
    total_initial: float
    total_final: float
    seconds: float
    loads: Optional[numpy.ndarray]  # (steps + 1) x nodes with rounds(..., loads=True)
    def to_dict(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...  # the other figures of `dlbkit rounds --json`

class DiffusionAnalysis:
    inputs: dict[str, Any]
    topology: str
    nodes: int
    alpha: str
    gamma: float
    lambda_2: float
    lambda_n: float
    converges: bool
    schemes: dict[str, Any]
    def to_dict(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...  # the other figures of `dlbkit analyze diffusion --json`

class PhasesResult:
    inputs: dict[str, Any]
    imbalance_before: Optional[float]
    imbalance_after: Optional[float]
    imbalance_lower_bound: Optional[float]
    at_lower_bound: Optional[bool]
    lower_bound_units: str
    objects_migrated: int
    objects_created: int
    objects_destroyed: int
    balancing_steps: int
    application_seconds: float
    communication_seconds: float
    unbalanced_seconds: float
    balancing_seconds: float
    mean_phase_seconds: float
    wall_seconds: float
    phases: Any  # pandas.DataFrame, or a list of dicts without pandas
    def to_dict(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...  # the other figures of `dlbkit phases --json`

def topology(spec: str) -> Topology: ...
def simulate(strategy: str, topology: str, workload: str = "artificial", cost: str = "ipsc2",
             params: _Params = None, workload_params: _Params = None, cost_params: _Params = None,
             seed: int = 1, execution: str = "fcfs", max_events: Optional[_Value] = None,
             max_seconds: Optional[_Value] = None, per_node: bool = False,
             speeds: Optional[Union[str, Sequence[float]]] = None,
             threads: Optional[int] = None) -> SimulationResult: ...
def sweep(strategies: Union[str, Sequence[str]], topologies: Union[str, Sequence[str]],
          workload: Union[str, Sequence[str]] = "artificial", params: Optional[Mapping[str, _Axis]] = None,
          workload_params: Optional[Mapping[str, _Axis]] = None, seeds: Union[int, Iterable[int]] = (1,),
          cost: str = "ipsc2", cost_params: _Params = None, execution: str = "fcfs",
          max_seconds: Optional[_Value] = None, jobs: Optional[int] = None,
          progress: Optional[bool] = None,
          executor: Optional[Union[Executor, Any]] = None) -> SweepResult: ...  # Any: a Dask distributed Client
def rounds(algorithm: str, topology: str, init: str, until: str, alpha: Optional[_Value] = None,
           lambda_: Optional[_Value] = None, integer: bool = False, rounding: Optional[str] = None,
           max_steps: _Value = 1000000, seed: _Value = 1, threads: int = 1, arrivals: Optional[str] = None,
           work: Optional[_Value] = None, warmup: Optional[_Value] = None, steps_per_period: Optional[_Value] = None,
           condition: Optional[str] = None, nna_transfer: Optional[str] = None, nna_time: Optional[str] = None,
           trace: bool = False, loads: bool = False) -> RoundsResult: ...
def analyze(topology: str, alpha: _Value = "optimal", factor: Union[float, str] = 1000) -> DiffusionAnalysis: ...
def phases(strategy: Optional[str] = None, workload: Optional[str] = None, data: Optional[str] = None,
           topology: Optional[str] = None, params: _Params = None, workload_params: _Params = None,
           phase: Optional[int] = None, replay: bool = False, write: Optional[str] = None,
           phases: Optional[int] = None, every: Optional[int] = None, threshold: Optional[_Value] = None,
           memory_bound: Optional[_Value] = None, cost: str = "ipsc2", cost_params: _Params = None,
           migration_cost: Optional[_Value] = None, migration_byte_cost: Optional[_Value] = None,
           seed: int = 1, optimal: bool = False, time_limit: Optional[_Value] = None,
           lbaf_config: Optional[str] = None, work_model: Optional[str] = None,
           charm_dump: Optional[str] = None, as_protocol: bool = False,
           speeds: Optional[Union[str, Sequence[float]]] = None,
           devices: Optional[Union[str, Sequence[float]]] = None, offload: Optional[_Value] = None,
           device_blind: bool = False, memory_group: Optional[int] = None) -> PhasesResult: ...
def read_timeline(path: str) -> Any: ...  # pandas.DataFrame, or a dict of lists without pandas
def read_trace(path: str) -> Any: ...  # pandas.DataFrame, or a dict of numpy arrays without pandas
def read_vt_data(stem: str) -> Any: ...  # pandas.DataFrame, or a dict of numpy arrays without pandas
def reproduce(name: str, out_dir: str = "out", runs: Optional[int] = None, jobs: Optional[int] = None,
              params: _Params = None) -> ReproductionResult: ...
def reproductions() -> list[dict[str, Any]]: ...
def strategies() -> list[dict[str, Any]]: ...
def workloads() -> list[dict[str, Any]]: ...
def cost_models() -> list[dict[str, Any]]: ...

class AdviceResult:
    inputs: dict[str, Any]
    optimal: float
    nobal_makespan: Optional[float]
    ranking: Any  # pandas.DataFrame, or a list of dicts without pandas
    failed: Any
    not_run: Any
    search: dict[str, dict[str, list[str]]]
    def to_dict(self) -> dict[str, Any]: ...

def advise(workload: Optional[str] = None, trace: Optional[str] = None, data: Optional[str] = None,
           topology: Optional[str] = None, cost: Optional[str] = None, cost_params: _Params = None,
           seed: _Value = 1, workload_params: _Params = None, execution: Optional[str] = None,
           max_events: Optional[_Value] = None, max_seconds: Optional[_Value] = None, phase: Optional[int] = None,
           every: Optional[int] = None, threshold: Optional[_Value] = None, memory_bound: Optional[_Value] = None,
           migration_cost: Optional[_Value] = None, migration_byte_cost: Optional[_Value] = None,
           as_protocol: bool = False, jobs: Optional[int] = None,
           memory_group: Optional[int] = None) -> AdviceResult: ...

class RunResult:
    inputs: dict[str, Any]
    result: dict[str, Any]
    elapsed_seconds: float
    tasks_executed: int
    tasks_moved: int
    messages: dict[str, int]
    warnings: list[str]
    sequential: Optional[dict[str, Any]]
    same_result: Optional[bool]
    efficiency: Optional[float]
    cpu_efficiency: Optional[float]
    workers: Any  # pandas.DataFrame, or a list of dicts without pandas
    def to_dict(self) -> dict[str, Any]: ...

class CalibrationResult:
    name: str
    cost: str  # "file:OUTPUT", simulate()'s cost
    engine: dict[str, Any]
    app: dict[str, Any]
    calibration: dict[str, Any]
    def to_dict(self) -> dict[str, Any]: ...
    def __getattr__(self, name: str) -> Any: ...  # the other fields of the cost model file

def run(app: str, app_params: _Params = None, strategy: str = "work_stealing", params: _Params = None,
        topology: str = "auto", engine: str = "threads", workers: Optional[int] = None, seed: _Value = 1,
        check_tasks: _Value = 1024, poll_interval: _Value = "20us", max_delay: _Value = "0", sequential: bool = True,
        record: Optional[str] = None, timeline: Optional[str] = None,
        timeline_nodes: Optional[str] = None) -> RunResult: ...
def calibrate(output: str, app: str = "busy", app_params: _Params = None, name: Optional[str] = None,
              repetitions: int = 200, app_runs: int = 3, poll_interval: _Value = "20us") -> CalibrationResult: ...
