# dlbkit.sweep on other executors, as on a cluster: any concurrent.futures.Executor, a Dask
# distributed Client (directly or through get_executor()) and mpi4py's MPIPoolExecutor under
# mpirun. The runs go through the executor given, and the runs and the summary are those of the
# default process pool.
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import dlbkit

from conftest import ROOT
from sweep_on_mpi import as_json

SWEEP = dict(strategies=["rid", "sid"], topologies=["ring:8", "hypercube:3"], seeds=3,
             workload_params={"granularity": 10})
RUNS = 2 * 2 * 3


@pytest.fixture(scope="module")
def default_pool():
    return as_json(dlbkit.sweep(jobs=2, progress=False, **SWEEP))


class CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts the calls it is given."""

    def __init__(self):
        super().__init__(max_workers=2)
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        return super().submit(fn, *args, **kwargs)


def test_any_executor_runs_the_sweep_and_gives_the_same_result(default_pool):
    with CountingExecutor() as pool:
        r = dlbkit.sweep(executor=pool, progress=False, **SWEEP)
        assert pool.calls == RUNS - 1  # the first run is in this process: bad input fails there
        assert pool.submit(str, "open").result() == "open"  # the caller's to shut down
    assert as_json(r) == default_pool


def test_a_dask_client_runs_the_sweep_and_gives_the_same_result(default_pool):
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed "
                                      "(Debian: python3-distributed)")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        for executor in (client, client.get_executor()):
            with distributed.get_task_stream(client) as stream:
                r = dlbkit.sweep(executor=executor, progress=False, **SWEEP)
            assert len(stream.data) == RUNS - 1
            assert as_json(r) == default_pool


def test_dask_worker_processes_import_dlbkit_and_give_the_same_result(default_pool):
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed "
                                      "(Debian: python3-distributed)")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with distributed.get_task_stream(client) as stream:
            r = dlbkit.sweep(executor=client, progress=False, **SWEEP)
        assert len(stream.data) == RUNS - 1
    assert as_json(r) == default_pool


def test_mpi4py_workers_under_mpirun_give_the_same_result(default_pool):
    pytest.importorskip("mpi4py.futures", reason="mpi4py is not installed (Debian: python3-mpi4py)")
    mpirun = shutil.which("mpirun")
    if mpirun is None:
        pytest.skip("mpirun is not on the PATH (Debian: openmpi-bin)")
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    script = ROOT / "python" / "tests" / "sweep_on_mpi.py"
    p = subprocess.run(["timeout", "120", mpirun, "--oversubscribe", "-n", "3", sys.executable, "-m", "mpi4py.futures",
                        str(script), json.dumps(SWEEP)], env=env, capture_output=True, text=True, timeout=150)
    assert p.returncode == 0, p.stderr
    sent, result = p.stdout.splitlines()
    assert json.loads(sent) == {"runs sent": RUNS - 1}
    assert result == default_pool


def test_an_executor_of_another_kind_is_a_type_error_and_jobs_belong_to_the_default_pool():
    with pytest.raises(TypeError, match=r"executor=4; accepted: None .*concurrent.futures.Executor"):
        dlbkit.sweep("rid", "ring:4", executor=4, progress=False)
    with ThreadPoolExecutor() as pool, pytest.raises(ValueError, match="give jobs or executor, not both"):
        dlbkit.sweep("rid", "ring:4", executor=pool, jobs=2, progress=False)
