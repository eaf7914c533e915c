# dlbkit.sweep: each row is the simulation of its grid point, the summary their mean and 95%
# confidence interval, the same whatever the worker processes; bad input before any run.
import math

import pytest

import dlbkit


def rows(result):
    return result.runs.to_dict("records") if hasattr(result.runs, "to_dict") else result.runs


def summary(result):
    return result.summary.to_dict("records") if hasattr(result.summary, "to_dict") else result.summary


def test_every_grid_point_is_the_simulation_of_its_inputs():
    r = dlbkit.sweep(["rid", "gm"], "hypercube:3", params={"u": [0.5, 0.9]}, seeds=[1, 2],
                     workload_params={"granularity": 20}, jobs=2, progress=False)
    got = rows(r)
    assert len(got) == 2 * 2 + 1 * 2  # rid: u x seeds; gm declares no u: seeds only
    for row in got:
        params = {} if row["strategy"] == "gm" else {"u": row["u"]}
        one = dlbkit.simulate(strategy=row["strategy"], topology="hypercube:3", params=params,
                              workload_params={"granularity": 20}, seed=row["seed"])
        assert row["makespan"] == one.makespan
        assert row["tasks_transferred"] == one.tasks_transferred
        assert row["messages"] == one.messages["total"]


def test_the_summary_is_the_mean_and_a_t_interval_over_the_seeds():
    r = dlbkit.sweep("rid", "hypercube:3", workload_params={"granularity": 20}, seeds=4, jobs=2, progress=False)
    makespans = [row["makespan"] for row in rows(r)]
    (s,) = summary(r)
    mean = sum(makespans) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in makespans) / 3)
    assert s["n"] == 4
    assert s["makespan"] == pytest.approx(mean)
    assert s["makespan_ci95"] == pytest.approx(3.182 * sd / 2)  # t(0.975, 3 degrees of freedom)


def test_the_same_rows_whatever_the_worker_processes():
    kwargs = dict(strategies=["rid", "sid"], topologies=["ring:8", "torus:3x3"], seeds=2,
                  workload_params={"granularity": 10}, progress=False)
    one, two = dlbkit.sweep(jobs=1, **kwargs), dlbkit.sweep(jobs=2, **kwargs)
    strip = lambda rs: [{k: v for k, v in row.items() if k != "wall_seconds"} for row in rs]  # noqa: E731
    assert strip(rows(one)) == strip(rows(two))


@pytest.mark.parametrize("kwargs,needle", [
    (dict(strategies="nosuch", topologies="ring:4"), "unknown strategy 'nosuch'"),
    (dict(strategies="gm", topologies="ring:4", params={"u": [0.5]}), "parameter 'u' is declared by none"),
    (dict(strategies="rid", topologies="ring:4", params={"u": [2]}), "u"),
    (dict(strategies="rid", topologies="nosuch:4"), "nosuch"),
    (dict(strategies=[], topologies="ring:4"), "at least one value"),
])
def test_bad_input_is_a_value_error_before_any_run(kwargs, needle):
    with pytest.raises(ValueError, match=needle):
        dlbkit.sweep(progress=False, **kwargs)


# Each seed is one independent run: a repeat would count a run twice and narrow the interval
# with a copy ([1, 1, 1] gave an interval of 6.8e-16).
@pytest.mark.parametrize("seeds,needle", [
    ([1, 1, 1], r"seeds repeat 1; accepted: a count n >= 1 \(seeds 1..n\), or a list of distinct integers"),
    ([3, 1, 3, 2, 1], "seeds repeat 1, 3;"),
    (0, r"seeds=0; accepted: a count n >= 1"),
    (-1, r"seeds=-1; accepted: a count n >= 1"),
    ([], r"seeds=\[\]; accepted"),
    ([1, -2], "seed -2; accepted"),
    ([1, 2**64], f"seed {2**64}; accepted"),
    ([1, 2.0], "seed 2.0; accepted"),
    (2.5, "seeds=2.5; accepted"),
    ("3", "seeds='3'; accepted"),
    (True, "seeds=True; accepted"),
])
def test_seeds_are_a_positive_count_or_distinct_integers(seeds, needle):
    with pytest.raises(ValueError, match=needle):
        dlbkit.sweep("rid", "ring:4", seeds=seeds, progress=False)


def test_seeds_may_be_any_integers_of_the_simulators_range():
    r = dlbkit.sweep("rid", "ring:4", seeds=(0, 2**64 - 1), workload_params={"granularity": 5}, jobs=1,
                     progress=False)
    assert [row["seed"] for row in rows(r)] == [0, 2**64 - 1]
