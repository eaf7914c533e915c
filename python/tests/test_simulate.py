# dlbkit.simulate against `dlbkit simulate --json` on the same inputs.
import threading

import pytest

import dlbkit

from conftest import run_cli

HOST_TIMES = {"wall_seconds", "events_per_second"}  # the host's time, different in each run

CASES = [
    (dict(strategy="rid", topology="hypercube:5"),
     ["-s", "rid", "-t", "hypercube:5"]),
    (dict(strategy="sid", topology="torus:4x4", params={"u": 0.8, "l_low": "auto"},
          workload_params={"granularity": 20}, seed=7, cost="meiko-cs1"),
     ["-s", "sid", "-t", "torus:4x4", "-p", "u=0.8", "-p", "l_low=auto", "--workload-param", "granularity=20",
      "--seed", "7", "-c", "meiko-cs1"]),
    (dict(strategy="direct_neighbor", topology="ring:8", execution="ps", cost_params={"latency": "500us"},
          per_node=True),
     ["-s", "direct_neighbor", "-t", "ring:8", "--execution", "ps", "--cost-param", "latency=500us", "--per-node"]),
    (dict(strategy="work_stealing", topology="ring:4", speeds=[1, 2.5, 1, 0.5]),
     ["-s", "work_stealing", "-t", "ring:4", "--speeds", "1,2.5,1,0.5"]),
    (dict(strategy="rid", topology="ring:4", speeds="cycle:2,1"),
     ["-s", "rid", "-t", "ring:4", "--speeds", "cycle:2,1"]),
    (dict(strategy="work_stealing", topology="hypercube:3", threads=2),
     ["-s", "work_stealing", "-t", "hypercube:3", "--threads", "2"]),
]


@pytest.mark.parametrize("kwargs,args", CASES, ids=[c[0]["strategy"] + ("-speeds" if "speeds" in c[0] else "")
                                                     + ("-threads" if "threads" in c[0] else "") for c in CASES])
def test_simulate_equals_cli(kwargs, args, cli):
    expected = cli("simulate", *args, "--json")
    r = dlbkit.simulate(**kwargs)
    got = r.to_dict()
    assert got.keys() == expected.keys()
    for key in expected.keys() - HOST_TIMES:
        assert got[key] == expected[key], key
    assert r.makespan == expected["makespan"]
    assert r.tasks == expected["tasks"]
    assert r.messages["total"] == expected["messages"]["total"]
    assert r.inputs == expected["inputs"]


def test_per_node_is_a_structured_array():
    r = dlbkit.simulate(strategy="rid", topology="hypercube:3", per_node=True)
    nodes = r.per_node
    assert nodes.shape == (8,)
    assert nodes["tasks_executed"].sum() == r.tasks
    assert nodes["busy"] + nodes["overhead"] + nodes["idle"] == pytest.approx([r.makespan] * 8)
    assert dlbkit.simulate(strategy="rid", topology="hypercube:3").per_node is None


def test_undefined_figures_are_none_with_the_reason(cli):
    # One loop of work in all: NOBAL is already optimal, Pi would divide by zero.
    expected = cli("simulate", "-s", "rid", "-t", "hypercube:3", "--workload-param", "total_load=1", "--json")
    r = dlbkit.simulate(strategy="rid", topology="hypercube:3", workload_params={"total_load": 1})
    assert r.pi is None and r.pi_undefined.startswith("NOBAL is already optimal")
    assert r.pi_undefined == expected["pi_undefined"] and r.speedup == expected["speedup"]


def test_values_are_spelled_as_on_the_command_line(cli):
    expected = cli("simulate", "-s", "rid", "-t", "hypercube:3", "-p", "retry_on_update=true", "--json")
    r = dlbkit.simulate(strategy="rid", topology="hypercube:3", params={"retry_on_update": True})
    assert r.inputs == expected["inputs"] and r.makespan == expected["makespan"]


@pytest.mark.parametrize("kwargs,args", [
    (dict(strategy="nope", topology="ring:8"), ["-s", "nope", "-t", "ring:8"]),
    (dict(strategy="rid", topology="hypercube:99"), ["-s", "rid", "-t", "hypercube:99"]),
    (dict(strategy="rid", topology="hypercube:3", params={"u": 2}), ["-s", "rid", "-t", "hypercube:3", "-p", "u=2"]),
    (dict(strategy="rid", topology="hypercube:3", params={"nope": 1}),
     ["-s", "rid", "-t", "hypercube:3", "-p", "nope=1"]),
    (dict(strategy="rid", topology="hypercube:3", workload="nope"), ["-s", "rid", "-t", "hypercube:3", "-w", "nope"]),
    (dict(strategy="rid", topology="hypercube:3", cost_params={"latency": "fast"}),
     ["-s", "rid", "-t", "hypercube:3", "--cost-param", "latency=fast"]),
    (dict(strategy="rid", topology="hypercube:3", seed=-1), ["-s", "rid", "-t", "hypercube:3", "--seed", "-1"]),
    (dict(strategy="rid", topology="hypercube:3", execution="fast"),
     ["-s", "rid", "-t", "hypercube:3", "--execution", "fast"]),
    (dict(strategy="rid", topology="complete:2", speeds=[1, 0]), ["-s", "rid", "-t", "complete:2", "--speeds", "1,0"]),
    (dict(strategy="rid", topology="complete:2", speeds="1,nan"),
     ["-s", "rid", "-t", "complete:2", "--speeds", "1,nan"]),
    (dict(strategy="rid", topology="ring:3", speeds=[1, 2]), ["-s", "rid", "-t", "ring:3", "--speeds", "1,2"]),
    (dict(strategy="rid", topology="ring:3", threads=0), ["-s", "rid", "-t", "ring:3", "--threads", "0"]),
], ids=["strategy", "topology", "param-value", "param-name", "workload", "cost-param", "seed", "execution",
        "speed-zero", "speed-nan", "speeds-count", "threads-zero"])
def test_bad_input_is_a_value_error_with_the_cli_message(kwargs, args, cli_error):
    message = cli_error("simulate", *args)
    with pytest.raises(ValueError) as e:
        dlbkit.simulate(**kwargs)
    assert str(e.value) == message


def test_a_failed_run_is_a_runtime_error_with_the_cli_message():
    # Stopped by the event limit before the tasks are done: the CLI says "dlbkit: failed: ..." (status 1).
    status, _, err = run_cli("simulate", "-s", "rid", "-t", "hypercube:3", "--max-events", "100")
    assert status == 1 and err.startswith("dlbkit: failed: ")
    with pytest.raises(RuntimeError) as e:
        dlbkit.simulate(strategy="rid", topology="hypercube:3", max_events=100)
    assert str(e.value) == err.strip()[len("dlbkit: failed: "):]


def test_runs_in_two_threads_give_the_figures_of_one_alone():
    # simulate releases the GIL, so two runs may overlap: they share nothing.
    alone = dlbkit.simulate(strategy="sid", topology="hypercube:4").makespan
    results = []
    threads = [threading.Thread(target=lambda: results.append(
        dlbkit.simulate(strategy="sid", topology="hypercube:4").makespan)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [alone, alone]
