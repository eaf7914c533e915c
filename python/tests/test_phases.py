# dlbkit.phases and dlbkit.read_vt_data against `dlbkit phases --json` on the same inputs (a
# workload, a phase of vt's LB data, a replay of every phase), and the CLI's errors.
import json
import pathlib

import pytest

import dlbkit

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "vt"
TOY_MEM = str(DATA / "toy_mem")  # 4 ranks, 32 objects with memory, one phase
BLOCKS = str(DATA / "synthetic-dataset-blocks")  # 4 ranks, 9 objects that communicate
LBAF = DATA.parent / "lbaf"  # LBAF's configurations of these data sets



def cases(recorded):
    return [
        (dict(strategy="greedy", workload="hotspot", topology="torus:4x4", phases=5, every=2, seed=3),
         ["-s", "greedy", "-w", "hotspot", "-t", "torus:4x4", "--phases", "5", "--every", "2", "--seed", "3"]),
        (dict(strategy="diffusion", workload="random_walk", topology="ring:6", phases=4, threshold=0.1,
              params={"tolerance": 0.05}, workload_params={"sigma": 0.3}, cost="ideal",
              cost_params={"latency": "5us"}, migration_cost="1us", migration_byte_cost="0.1ns"),
         ["-s", "diffusion", "-w", "random_walk", "-t", "ring:6", "--phases", "4", "--threshold", "0.1", "-p",
          "tolerance=0.05", "--workload-param", "sigma=0.3", "-c", "ideal", "--cost-param", "latency=5us",
          "--migration-cost", "1us", "--migration-byte-cost", "0.1ns"]),
        (dict(strategy="tempered", data=TOY_MEM, memory_bound=8e9),
         ["-s", "tempered", "--data", TOY_MEM, "--memory-bound", "8000000000.0"]),
        (dict(strategy="refine", data=BLOCKS, phase=0, topology="ring:4"),
         ["-s", "refine", "--data", BLOCKS, "--phase", "0", "-t", "ring:4"]),
        (dict(strategy="greedy", data=recorded, replay=True, every=2),
         ["-s", "greedy", "--data", recorded, "--replay", "--every", "2"]),
        (dict(strategy="refine", data=TOY_MEM, memory_bound=1.45e10, optimal=True, time_limit=30),
         ["-s", "refine", "--data", TOY_MEM, "--memory-bound", "14500000000.0", "--optimal", "--time-limit", "30"]),
        (dict(lbaf_config=str(LBAF / "user-defined-memory-toy-problem.yaml"), params={"n_iterations": 2}),
         ["--lbaf-config", str(LBAF / "user-defined-memory-toy-problem.yaml"), "-p", "n_iterations=2"]),
        (dict(lbaf_config=str(LBAF / "synthetic-blocks.yaml")), ["--lbaf-config", str(LBAF / "synthetic-blocks.yaml")]),
        (dict(strategy="greedy", data=TOY_MEM, memory_bound=1.45e10, memory_group=2),
         ["-s", "greedy", "--data", TOY_MEM, "--memory-bound", "14500000000.0", "--memory-group", "2"]),
        (dict(strategy="tempered", data=BLOCKS, work_model="beta=1e-9,delta=0.1",
              params={"transfer_strategy": "Clustering"}),
         ["-s", "tempered", "--data", BLOCKS, "--work-model", "beta=1e-9,delta=0.1", "-p",
          "transfer_strategy=Clustering"]),
        (dict(strategy="tempered", workload="hotspot", topology="ring:8", as_protocol=True),
         ["-s", "tempered", "-w", "hotspot", "-t", "ring:8", "--as-protocol"]),
        (dict(strategy="refine", workload="amr", topology="torus:4x4", phases=8, workload_params={"rate": 1}),
         ["-s", "refine", "-w", "amr", "-t", "torus:4x4", "--phases", "8", "--workload-param", "rate=1"]),
        (dict(strategy="greedy", workload="amr", topology="complete:2", phases=3, speeds=[1, 2]),
         ["-s", "greedy", "-w", "amr", "-t", "complete:2", "--phases", "3", "--speeds", "1,2"]),
        (dict(strategy="greedy", workload="hotspot", topology="complete:4", devices=[8, 0, 0, 0], offload=0.9),
         ["-s", "greedy", "-w", "hotspot", "-t", "complete:4", "--devices", "8,0,0,0", "--offload", "0.9"]),
        (dict(strategy="refine", data=TOY_MEM, devices="4*2,0*2", device_blind=True),
         ["-s", "refine", "--data", TOY_MEM, "--devices", "4*2,0*2", "--device-blind"]),
    ]


def without_wall_times(document):
    """The document without this machine's times, which differ from run to run."""
    document = {k: v for k, v in document.items() if k != "wall_seconds"}
    document["phases"] = [{k: v for k, v in p.items() if k != "wall_seconds"} for p in document["phases"]]
    for p in document["phases"]:
        if "optimum" in p:
            p["optimum"] = {k: v for k, v in p["optimum"].items() if k != "wall_seconds"}
    return document


@pytest.mark.filterwarnings("ignore:ignored:UserWarning")  # case 6's keys left out of its LBAF file
@pytest.mark.parametrize("k", range(13))
def test_phases_equals_cli(k, recorded, cli):
    kwargs, args = cases(recorded)[k]
    expected = cli("phases", *args, "--json")
    r = dlbkit.phases(**kwargs)
    assert without_wall_times(r.to_dict()) == without_wall_times(expected)
    for key in expected.keys() - {"phases", "wall_seconds"}:
        assert getattr(r, key) == expected[key], key
    assert len(r.phases) == len(expected["phases"])
    assert list(r.phases["max_load"]) == [p["max_load"] for p in expected["phases"]]
    assert list(r.phases["balanced"]) == [p["balanced"] for p in expected["phases"]]
    assert list(r.phases["objects_created"]) == [p["objects_created"] for p in expected["phases"]]


def test_devices_are_judged_per_phase_and_told_to_the_strategies_unless_blind():
    kwargs = dict(strategy="greedy", workload="hotspot", topology="complete:8", devices="8,0*7", offload=0.9)
    aware, blind = dlbkit.phases(**kwargs), dlbkit.phases(**kwargs, device_blind=True)
    assert aware.device_bound == blind.device_bound
    assert aware.device_time_after <= 1.1 * aware.device_bound < 1.5 * blind.device_bound < blind.device_time_after
    assert list(aware.phases["device_time_after"]) == [aware.device_time_after]
    with pytest.raises(ValueError, match="device_blind: 'yes' is not accepted"):
        dlbkit.phases(**kwargs, device_blind="yes")


def test_amrs_objects_created_and_destroyed_are_counted_apart_from_migrations():
    r = dlbkit.phases(strategy="none", workload="amr", topology="torus:4x4", phases=12,
                      workload_params={"rate": 1, "lifetime": 2})
    assert r.objects_created > 0 and r.objects_destroyed > 0
    assert r.objects_migrated == 0
    assert sum(r.phases["objects_created"]) == r.objects_created
    assert sum(r.phases["objects_destroyed"]) == r.objects_destroyed
    objects = list(r.phases["objects"])
    assert objects[-1] == objects[0] + r.objects_created - r.objects_destroyed


def test_each_key_of_lbaf_config_left_out_is_a_warning():
    with pytest.warns(UserWarning) as warnings:
        r = dlbkit.phases(lbaf_config=str(LBAF / "conf.yaml"))
    assert [str(w.message) for w in warnings] == [f"ignored: {key}" for key in r.inputs["lbaf_config"]["ignored"]]
    assert len(warnings) == 4  # check_schema and LBAF's output files
    assert r.inputs["strategy"] == "tempered" and r.inputs["data"] == BLOCKS


def test_subphases_give_the_phase_time_and_vts_focused_subphase_a_warning(tmp_path):
    r = dlbkit.phases(strategy="refine", data=str(DATA / "subphases"), params={"subphases": True})
    assert r.inputs["subphases"] == 2 and r.inputs["warnings"] == []
    assert r.subphase_time_after < 0.8 * r.subphase_time_before
    assert list(r.phases["subphase_time_after"]) == [r.subphase_time_after]
    # One task whose time is its subphase 1's alone, as vt writes it with a focused subphase.
    task = {"entity": {"type": "object", "id": 0, "home": 0, "migratable": True}, "node": 0, "resource": "cpu",
            "time": 2.0, "subphases": [{"id": 0, "time": 5.0}, {"id": 1, "time": 2.0}]}
    (tmp_path / "f.0.json").write_text(json.dumps({"phases": [{"id": 0, "tasks": [task]}]}))
    with pytest.warns(RuntimeWarning, match="focused subphase"):
        dlbkit.phases(strategy="none", data=str(tmp_path / "f"))


def test_a_replay_plays_the_recorded_loads(recorded):
    r = dlbkit.phases(strategy="greedy", data=recorded, replay=True)
    assert r.inputs["replay"] and r.inputs["phases"] == 3 and r.balancing_steps == 3
    # Never balanced, each phase takes its busiest rank's time under the recorded mapping.
    assert r.unbalanced_seconds == 6 + 4 + 5
    assert r.phases["max_load"][0] == 6  # the first phase runs as recorded
    # Greedy's mapping of phase 0's loads, object 1 alone, meets phase 1's loads: 1 | 2 + 1 + 3.
    assert r.phases["max_load"][1] == 6


def test_write_gives_the_files_the_cli_writes(tmp_path, cli):
    cli("phases", "-s", "greedy", "--data", TOY_MEM, "--write", str(tmp_path / "cli"), "--json")
    r = dlbkit.phases(strategy="greedy", data=TOY_MEM, write=tmp_path / "py")
    assert r.inputs["write"] == str(tmp_path / "py")
    for rank in range(4):
        assert (tmp_path / f"py.{rank}.json").read_text() == (tmp_path / f"cli.{rank}.json").read_text()


def test_read_vt_data_has_every_object_of_every_phase(recorded, recorded_loads):
    objects = dlbkit.read_vt_data(recorded)
    assert objects.attrs["ranks"] == 2
    assert list(objects.columns) == ["phase", "rank", "object", "load", "migratable"]  # no memory, no communication
    assert len(objects) == 12 and objects["migratable"].all()
    assert objects.groupby("phase")["load"].sum().tolist() == [sum(recorded_loads[k]) for k in range(3)]
    for row in objects.itertuples():
        assert row.load == recorded_loads[row.phase][row.object - 1]
        assert row.rank == (1 if row.object == 4 else 0)


def test_read_vt_data_reads_memory_and_communication(cli):
    mem = dlbkit.read_vt_data(TOY_MEM)
    figures = cli("phases", "-s", "none", "--data", TOY_MEM, "--json")
    assert len(mem) == figures["inputs"]["objects"]
    by_rank = mem.groupby("rank")["load"].sum()
    assert by_rank.max() / by_rank.mean() - 1 == pytest.approx(figures["imbalance_before"])
    assert {"footprint_bytes", "working_bytes", "serialized_bytes", "shared_id"} <= set(mem.columns)
    assert (mem["shared_id"] >= 0).all()
    blocks = dlbkit.read_vt_data(BLOCKS)
    assert blocks["sent_bytes"].sum() == blocks["received_bytes"].sum() > 0
    assert blocks["sent_messages"].sum() == blocks["received_messages"].sum() > 0


BAD = [
    (dict(strategy="greedy", workload="hotspot", data=BLOCKS, topology="ring:4"),
     ["-s", "greedy", "-w", "hotspot", "--data", BLOCKS, "-t", "ring:4"]),
    (dict(strategy="greedy"), ["-s", "greedy"]),
    (dict(strategy="greedy", data=BLOCKS, phases=2), ["-s", "greedy", "--data", BLOCKS, "--phases", "2"]),
    (dict(strategy="greedy", data=BLOCKS, every=2), ["-s", "greedy", "--data", BLOCKS, "--every", "2"]),
    (dict(strategy="greedy", data=BLOCKS, replay=True, phase=0),
     ["-s", "greedy", "--data", BLOCKS, "--replay", "--phase", "0"]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", replay=True),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--replay"]),
    (dict(strategy="greedy", workload="hotspot"), ["-s", "greedy", "-w", "hotspot"]),
    (dict(strategy="greedy", data=BLOCKS, phase=3), ["-s", "greedy", "--data", BLOCKS, "--phase", "3"]),
    (dict(strategy="greedy", data=BLOCKS, topology="ring:5"), ["-s", "greedy", "--data", BLOCKS, "-t", "ring:5"]),
    (dict(strategy="greedy", data="/nonexistent/lb"), ["-s", "greedy", "--data", "/nonexistent/lb"]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", threshold=-1),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--threshold", "-1"]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", phases=0),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--phases", "0"]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", memory_bound="lots"),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--memory-bound", "lots"]),
    (dict(strategy="greedy", data=BLOCKS, work_model="beta=1,beta=2"),
     ["-s", "greedy", "--data", BLOCKS, "--work-model", "beta=1,beta=2"]),
    (dict(strategy="gready", workload="hotspot", topology="ring:4"), ["-s", "gready", "-w", "hotspot", "-t", "ring:4"]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", workload_params={"speed": -1}),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--workload-param", "speed=-1"]),
    (dict(strategy="greedy", data=BLOCKS, time_limit=5), ["-s", "greedy", "--data", BLOCKS, "--time-limit", "5"]),
    (dict(strategy="greedy", data=BLOCKS, optimal=True, time_limit="never"),
     ["-s", "greedy", "--data", BLOCKS, "--optimal", "--time-limit", "never"]),
    (dict(strategy="greedy", data=BLOCKS, memory_group=0), ["-s", "greedy", "--data", BLOCKS, "--memory-group", "0"]),
    (dict(strategy="hierarchical", data=TOY_MEM, memory_bound=1.45e10, memory_group=2),
     ["-s", "hierarchical", "--data", TOY_MEM, "--memory-bound", "14500000000.0", "--memory-group", "2"]),
    (dict(data=BLOCKS), ["--data", BLOCKS]),
    (dict(strategy="greedy", workload="hotspot", topology="ring:4", as_protocol=True),
     ["-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--as-protocol"]),
    (dict(strategy="greedy", workload="hotspot", topology="complete:2", speeds="1,nan"),
     ["-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--speeds", "1,nan"]),
    (dict(strategy="greedy", workload="hotspot", topology="complete:2", devices=[8, -1]),
     ["-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--devices", "8,-1"]),
    (dict(strategy="greedy", workload="hotspot", topology="complete:2", devices="8"),
     ["-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--devices", "8"]),
    (dict(strategy="greedy", workload="hotspot", topology="complete:2", devices="8,0", offload=1.5),
     ["-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--devices", "8,0", "--offload", "1.5"]),
    (dict(strategy="greedy", workload="hotspot", topology="complete:2", offload=0.5),
     ["-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--offload", "0.5"]),
]


@pytest.mark.parametrize("kwargs,args", BAD, ids=[str(k) for k in range(len(BAD))])
def test_phases_errors_are_the_clis(kwargs, args, cli_error):
    expected = cli_error("phases", *args)
    with pytest.raises(ValueError) as e:
        dlbkit.phases(**kwargs)
    assert str(e.value) == expected


def test_seeds_and_counts_are_refused_as_the_cli_refuses_them(cli_error):
    expected = cli_error("phases", "-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--seed", "-1")
    with pytest.raises(ValueError) as e:
        dlbkit.phases(strategy="greedy", workload="hotspot", topology="ring:4", seed=-1)
    assert expected.startswith(str(e.value))  # the CLI adds "(see dlbkit phases --help)"
    with pytest.raises(ValueError, match="--every: '1.5' is not accepted"):
        dlbkit.phases(strategy="greedy", workload="hotspot", topology="ring:4", every=1.5)
    with pytest.raises(ValueError, match="/nonexistent/lb.0.json"):
        dlbkit.read_vt_data("/nonexistent/lb")


CHARM_DUMP = str(DATA.parent / "charm" / "lbdump.0")  # Charm++'s stencil3d: 4 PEs, 16 chares


def test_a_charm_dump_is_balanced_as_the_cli_balances_it(cli, cli_error, tmp_path):
    expected = cli("phases", "-s", "refine", "--charm-dump", CHARM_DUMP, "--json")
    r = dlbkit.phases(strategy="refine", charm_dump=CHARM_DUMP)
    assert without_wall_times(r.to_dict()) == without_wall_times(expected)
    assert r.inputs["format_version"] == 3 and r.inputs["objects"] == 16
    cut = tmp_path / "lbdump.0"
    cut.write_bytes(pathlib.Path(CHARM_DUMP).read_bytes()[:100])
    expected = cli_error("phases", "-s", "greedy", "--charm-dump", str(cut))
    with pytest.raises(ValueError) as e:
        dlbkit.phases(strategy="greedy", charm_dump=str(cut))
    assert str(e.value) == expected and "byte 28" in expected
