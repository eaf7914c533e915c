# dlbkit.run and dlbkit.calibrate: the library functions of `dlbkit run` and `dlbkit calibrate`,
# compared with the CLI.
import json
import warnings

import pytest

import dlbkit

SMALL_BUSY = {"granularity": 5, "total_load": 500}  # 5 tasks a worker


def test_a_busy_run_equals_its_sequential_run_with_the_clis_fields(cli):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a run this short may move no task
        r = dlbkit.run("busy", app_params=SMALL_BUSY, workers=3)
    assert r.same_result is True
    assert r.result == r.sequential["result"] and r.result["tasks"] == 15
    assert r.tasks_executed == 15 and 0 < r.efficiency and 0 < r.cpu_efficiency
    assert r.inputs["topology"] == "complete:3" and r.inputs["engine"] == "threads"
    assert len(r.workers) == 3 and sum(r.workers["tasks_executed"]) == 15
    expected = cli("run", "--app", "busy", "--app-param", "granularity=5", "--app-param", "total_load=500",
                   "--workers", "3", "--json")
    d = r.to_dict()
    assert set(d) == set(expected) and set(d["inputs"]) == set(expected["inputs"])
    assert d["inputs"] == expected["inputs"] and d["result"] == expected["result"]


def test_the_sequential_engine_and_no_sequential_run_leave_the_comparison_out():
    r = dlbkit.run("queens", app_params={"n": 6}, engine="sequential")
    assert r.inputs["engine"] == "sequential" and r.result["solutions"] == 4
    assert r.sequential is None and r.same_result is None and r.efficiency is None
    assert "sequential" not in r.to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        r = dlbkit.run("queens", app_params={"n": 6}, topology="complete:2", sequential=False)
    assert r.result["solutions"] == 4 and r.same_result is None and len(r.workers) == 2


def test_the_runs_warnings_are_python_warnings_and_not_printed(capfd):
    # rid that never asks, with one root: the other workers start idle and stay so
    with pytest.warns(RuntimeWarning, match="retry_on_update=false"):
        r = dlbkit.run("bnb", app_params={"n": 6}, strategy="rid", params={"retry_on_update": False},
                       topology="ring:3", sequential=False)
    assert any("start without tasks" in w for w in r.warnings)
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("kwargs, args", [
    ({"app": "nope"}, ["--app", "nope"]),
    ({"app": "busy", "workers": 0}, ["--app", "busy", "--workers", "0"]),
    ({"app": "busy", "seed": -1}, ["--app", "busy", "--seed", "-1"]),
    ({"app": "busy", "poll_interval": "x"}, ["--app", "busy", "--poll-interval", "x"]),
    ({"app": "bnb", "app_params": {"n": 0}}, ["--app", "bnb", "--app-param", "n=0"]),
    ({"app": "bnb", "strategy": "hbm", "topology": "ring:3"}, ["--app", "bnb", "--strategy", "hbm", "--topology",
                                                               "ring:3"]),
])
def test_bad_run_values_raise_the_clis_message(kwargs, args, cli_error):
    with pytest.raises(ValueError) as e:
        dlbkit.run(**kwargs)
    assert str(e.value) == cli_error("run", *args)


def test_calibrate_writes_a_cost_model_that_simulate_takes(tmp_path):
    path = tmp_path / "threads.json"
    r = dlbkit.calibrate(str(path), app_params=SMALL_BUSY, repetitions=5, app_runs=1)
    assert r.to_dict() == json.loads(path.read_text())
    assert r.name == "calibrated-threads" and r.cost == f"file:{path}"
    assert r.engine["repetitions"] == 5 and r.engine["loop_ns"] > 0
    assert r.app["name"] == "busy" and r.app["ns_per_loop"] > 0
    assert r.workload_params["busy"]["loop_time"].endswith("ns")
    s = dlbkit.simulate("work_stealing", "hypercube:1", workload="busy", workload_params=SMALL_BUSY, cost=r.cost)
    assert s.inputs["cost_model"]["name"] == "calibrated-threads" and s.makespan > 0
    assert s.inputs["workload"]["params"]["loop_time"] == r.workload_params["busy"]["loop_time"]  # the app's, measured


@pytest.mark.parametrize("kwargs, args", [
    ({"repetitions": 1}, ["--repetitions", "1"]),
    ({"app_runs": 0}, ["--app-runs", "0"]),
    ({"app": "nothing"}, ["--app", "nothing"]),
    ({"poll_interval": "3"}, ["--poll-interval", "3"]),
])
def test_bad_calibrate_values_raise_the_clis_message(kwargs, args, cli_error, tmp_path):
    path = str(tmp_path / "never.json")
    with pytest.raises(ValueError) as e:
        dlbkit.calibrate(path, **kwargs)
    assert str(e.value) == cli_error("calibrate", "-o", path, *args)
    assert not (tmp_path / "never.json").exists()
