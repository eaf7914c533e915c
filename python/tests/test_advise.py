# dlbkit.advise against `dlbkit advise --json` on the same inputs (a workload, a phase of vt's LB
# data, a replay of every phase), and the CLI's errors.
import pathlib

import pytest

import dlbkit

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "vt"
BLOCKS = str(DATA / "synthetic-dataset-blocks")  # 4 ranks, 9 objects that communicate, one phase
TREE = "type=geometric,shape=fixed,b0=4,depth=5,seed=19"  # a UTS tree of a few hundred nodes


def cases(recorded):
    return [
        (dict(workload="uts", workload_params={"tree": TREE}, topology="hypercube:3", cost="ipsc2", seed=3,
              max_events=6000, jobs=2),
         ["-w", "uts", "--workload-param", "tree=" + TREE, "-t", "hypercube:3", "-c", "ipsc2", "--seed", "3",
          "--max-events", "6000", "--jobs", "2"]),
        (dict(workload="busy", workload_params={"total_load": 2000}, topology="ring:4", cost="ideal",
              cost_params={"latency": "5us"}, execution="lifo", jobs=1),
         ["-w", "busy", "--workload-param", "total_load=2000", "-t", "ring:4", "-c", "ideal", "--cost-param",
          "latency=5us", "--execution", "lifo", "--jobs", "1"]),
        (dict(data=BLOCKS, topology="complete:4", cost="ideal", migration_cost="1us", memory_bound="1e9", jobs=2),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "ideal", "--migration-cost", "1us", "--memory-bound", "1e9",
          "--jobs", "2"]),
        (dict(data=recorded, topology="complete:2", cost="ipsc2", every=2, threshold=0.1,
              migration_byte_cost="0.1ns"),
         ["--data", recorded, "-t", "complete:2", "-c", "ipsc2", "--every", "2", "--threshold", "0.1",
          "--migration-byte-cost", "0.1ns"]),
        (dict(data=recorded, topology="complete:2", cost="ideal", phase=1),
         ["--data", recorded, "-t", "complete:2", "-c", "ideal", "--phase", "1"]),
        (dict(data=recorded, topology="complete:2", cost="ipsc2", as_protocol=True),
         ["--data", recorded, "-t", "complete:2", "-c", "ipsc2", "--as-protocol"]),
        (dict(data=BLOCKS, topology="complete:4", cost="ideal", memory_bound=40, memory_group=2, jobs=2),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "ideal", "--memory-bound", "40", "--memory-group", "2",
          "--jobs", "2"]),
    ]


def test_the_same_document_as_the_cli(cli, recorded):
    for kwargs, args in cases(recorded):
        assert dlbkit.advise(**kwargs).to_dict() == cli("advise", *args, "--json"), args


def test_ranking_is_a_table_of_the_rows(recorded):
    pandas = pytest.importorskip("pandas")
    r = dlbkit.advise(workload="uts", workload_params={"tree": TREE}, topology="hypercube:3", cost="ipsc2",
                      max_events=6000)
    document = r.to_dict()
    assert isinstance(r.ranking, pandas.DataFrame)
    assert list(r.ranking["strategy"]) == [row["strategy"] for row in document["ranking"]]
    assert list(r.ranking["rank"]) == list(range(1, len(r.ranking) + 1))
    assert r.ranking["predicted_makespan"].is_monotonic_increasing
    assert len(r.failed) > 0 and set(r.failed.columns) == {"strategy", "params", "error"}
    assert "nna" in set(r.not_run["strategy"])  # nna runs on rings only
    assert r.nobal_makespan == document["nobal_makespan"] and r.search == document["search"]
    assert "uts on hypercube:3" in repr(r)
    on_data = dlbkit.advise(data=recorded, cost="ideal")
    assert on_data.inputs["topology"] == "complete:2" and on_data.inputs["replay"] is True
    assert "predicted_phase_seconds" in on_data.ranking.columns


def test_bad_values_are_the_clis_errors(cli_error, recorded):
    for kwargs, args in [
        (dict(workload="uts", topology="hypercube:x", cost="ideal"), ["-w", "uts", "-t", "hypercube:x", "-c", "ideal"]),
        (dict(topology="complete:2", cost="ideal"), ["-t", "complete:2", "-c", "ideal"]),
        (dict(workload="uts", trace="x.trace", topology="complete:2", cost="ideal"),
         ["-w", "uts", "--trace", "x.trace", "-t", "complete:2", "-c", "ideal"]),
        (dict(data=BLOCKS, topology="complete:4", cost="ideal", execution="lifo"),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "ideal", "--execution", "lifo"]),
        (dict(workload="uts", topology="complete:2", cost="ideal", every=2),
         ["-w", "uts", "-t", "complete:2", "-c", "ideal", "--every", "2"]),
        (dict(data=recorded, topology="complete:2", cost="ideal", phase=1, threshold=1),
         ["--data", recorded, "-t", "complete:2", "-c", "ideal", "--phase", "1", "--threshold", "1"]),
        (dict(data=BLOCKS, topology="complete:4", cost="nosuch"),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "nosuch"]),
        (dict(data=BLOCKS, topology="complete:4", cost="ideal", jobs=0),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "ideal", "--jobs", "0"]),
        (dict(data=recorded, topology="complete:2", cost="ideal", every=0),
         ["--data", recorded, "-t", "complete:2", "-c", "ideal", "--every", "0"]),
        (dict(workload="uts", topology="complete:2", cost="ideal", as_protocol=True),
         ["-w", "uts", "-t", "complete:2", "-c", "ideal", "--as-protocol"]),
        (dict(data=BLOCKS, topology="complete:4", cost="ideal", memory_group=0),
         ["--data", BLOCKS, "-t", "complete:4", "-c", "ideal", "--memory-group", "0"]),
    ]:
        with pytest.raises(ValueError) as error:
            dlbkit.advise(**kwargs)
        expected = cli_error("advise", *args)
        # An option's own check in the CLI names the command's help.
        assert str(error.value) == expected.replace(" (dlbkit advise --help)", ""), args
    with pytest.raises(ValueError, match="no cost model"):
        dlbkit.advise(workload="uts", topology="complete:2")
