# Type stubs of the dlbkit package (python/dlbkit/__init__.py, _sweep.py): what IDEs and type
# checkers read. The docstrings are in the package itself (help(dlbkit.simulate)).
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

def topology(spec: str) -> Topology: ...
def simulate(strategy: str, topology: str, workload: str = "artificial", cost: str = "ipsc2",
             params: _Params = None, workload_params: _Params = None, cost_params: _Params = None,
             seed: int = 1, execution: str = "fcfs", max_events: Optional[_Value] = None,
             max_seconds: Optional[_Value] = None, per_node: bool = False) -> SimulationResult: ...
def sweep(strategies: Union[str, Sequence[str]], topologies: Union[str, Sequence[str]],
          workload: Union[str, Sequence[str]] = "artificial", params: Optional[Mapping[str, _Axis]] = None,
          workload_params: Optional[Mapping[str, _Axis]] = None, seeds: Union[int, Iterable[int]] = (1,),
          cost: str = "ipsc2", cost_params: _Params = None, execution: str = "fcfs",
          max_seconds: Optional[_Value] = None, jobs: Optional[int] = None,
          progress: Optional[bool] = None) -> SweepResult: ...
def reproduce(name: str, out_dir: str = "out", runs: Optional[int] = None, jobs: Optional[int] = None,
              params: _Params = None) -> ReproductionResult: ...
def reproductions() -> list[dict[str, Any]]: ...
def strategies() -> list[dict[str, Any]]: ...
def workloads() -> list[dict[str, Any]]: ...
def cost_models() -> list[dict[str, Any]]: ...
