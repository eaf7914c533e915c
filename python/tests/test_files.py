# dlbkit.read_trace and dlbkit.read_timeline against what the CLI writes and reads.
import json

import numpy
import pytest

import dlbkit

from conftest import run_cli

UTS = "tree=type=geometric,shape=fixed,b0=4,depth=4,seed=19"


@pytest.fixture(scope="module")
def trace(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "uts.trace"
    status, _, err = run_cli("run", "--app", "uts", "--app-param", UTS, "--workers", "2", "--no-sequential",
                             "--record", str(path))
    assert status == 0, err
    return path


def test_read_trace_is_the_tree_the_simulator_replays(trace, cli):
    tasks = dlbkit.read_trace(trace)
    replay = cli("simulate", "-s", "none", "-t", "complete:2", "-c", "ideal", "-w", f"trace:{trace}", "--json")
    assert len(tasks) == replay["tasks"]
    assert tasks.attrs["workers"] == 2
    assert (tasks["task"] == numpy.arange(len(tasks))).all()
    # A name (worker, index) per task, indices 0.. per worker in file order.
    for _, rows in tasks.groupby("worker"):
        assert (rows["index"] == numpy.arange(len(rows))).all()
    roots = tasks[tasks["parent"] == -1]
    assert len(roots) >= 1 and (roots["origin"] >= 0).all()
    children = tasks[tasks["parent"] >= 0]
    assert (children["origin"] == -1).all() and (children["parent"] < len(tasks)).all()
    # On one node under the ideal cost model the replay takes the sum of the durations.
    one = cli("simulate", "-s", "none", "-t", "complete:1", "-c", "ideal", "-w", f"trace:{trace}", "--json")
    assert one["makespan"] == pytest.approx(tasks["duration_ns"].sum() * 1e-9, rel=1e-9)


def test_read_trace_errors_are_the_clis(tmp_path, trace, cli_error):
    bad = tmp_path / "cut.trace"
    bad.write_bytes(trace.read_bytes()[:-5])
    expected = cli_error("simulate", "-s", "none", "-t", "complete:2", "-w", f"trace:{bad}")
    assert "truncated" in expected
    with pytest.raises(ValueError) as e:
        dlbkit.read_trace(bad)
    assert str(e.value) == expected
    with pytest.raises(ValueError, match="nowhere.trace"):
        dlbkit.read_trace(tmp_path / "nowhere.trace")


def test_read_timeline_adds_up_to_the_per_node_times(tmp_path):
    path = tmp_path / "sim.json"
    status, out, err = run_cli("simulate", "-s", "work_stealing", "-t", "complete:4", "-g", "20", "--per-node",
                               "--json", "--timeline", str(path))
    assert status == 0, err
    per_node = json.loads(out)["per_node"]
    events = dlbkit.read_timeline(path)
    assert events.attrs["process"].startswith("work_stealing on complete:4")
    spans = events[events["phase"] == "X"]
    for node, row in enumerate(per_node):
        mine = spans[spans["node"] == node]
        # (overhead is left out: a node's last overhead span may reach past the end of the run)
        for kind in ("busy", "idle"):
            assert mine[mine["event"] == kind]["duration"].sum() == pytest.approx(row[kind], rel=1e-6, abs=1e-9)
    loads = events[events["event"] == "load"]
    assert (loads["tasks"] >= 0).all() and loads["duration"].isna().all()
    starts, ends = events[events["phase"] == "s"], events[events["phase"] == "f"]
    assert sorted(starts["id"]) == sorted(ends["id"]) and len(starts) > 0


def test_read_timeline_refuses_what_is_not_a_timeline(tmp_path):
    for name, text in [("empty.json", ""), ("list.json", "[1, 2]"), ("field.json", '{"traceEvents": [{"ph": "X"}]}')]:
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(ValueError, match=f"timeline '.*{name}'.*accepted: a Chrome trace-event JSON file"):
            dlbkit.read_timeline(path)
    with pytest.raises(ValueError, match="cannot be read"):
        dlbkit.read_timeline(tmp_path / "nowhere.json")
