# dlbkit.rounds and dlbkit.analyze against `dlbkit rounds --json` and `dlbkit analyze diffusion
# --json` on the same inputs, the loads of every step, and the CLI's errors.
import threading

import numpy
import pytest

import dlbkit

HOST_TIMES = {"seconds", "node_updates_per_second"}  # the host's time, different in each run

CASES = [
    (dict(algorithm="diffusion", topology="torus:8x8", init="spike", until="eps:1e-4"),
     ["--algorithm", "diffusion", "--topology", "torus:8x8", "--init", "spike", "--until", "eps:1e-4"]),
    (dict(algorithm="sos", topology="torus:6x6", init="uniform:100", until="eps:1e-3", alpha="optimal", trace=True,
          seed=5),
     ["--algorithm", "sos", "--topology", "torus:6x6", "--init", "uniform:100", "--until", "eps:1e-3", "--alpha",
      "optimal", "--trace", "--seed", "5"]),
    (dict(algorithm="chebyshev", topology="hypercube:6", init="uniform:1000", until="steps:30", integer=True,
          rounding="randomized", seed=3),
     ["--algorithm", "chebyshev", "--topology", "hypercube:6", "--init", "uniform:1000", "--until", "steps:30",
      "--integer", "--rounding", "randomized", "--seed", "3"]),
    (dict(algorithm="ops", topology="hypercube:5", init="spike", until="eps:1e-9"),
     ["--algorithm", "ops", "--topology", "hypercube:5", "--init", "spike", "--until", "eps:1e-9"]),
    (dict(algorithm="dimension-exchange", topology="hypercube:7", init="spike", until="balanced:0.01", threads=2),
     ["--algorithm", "dimension-exchange", "--topology", "hypercube:7", "--init", "spike", "--until",
      "balanced:0.01", "--threads", "2"]),
    (dict(algorithm="gde", topology="ring:9", init="spike", until="steps:12", lambda_=0.3, max_steps=10),
     ["--algorithm", "gde", "--topology", "ring:9", "--init", "spike", "--until", "steps:12", "--lambda", "0.3",
      "--max-steps", "10"]),
    (dict(algorithm="diffusion", topology="hypercube:5", init="spike", until="steps:300", arrivals="normal:1:1",
          work=1, warmup=20, trace=True),
     ["--algorithm", "diffusion", "--topology", "hypercube:5", "--init", "spike", "--until", "steps:300",
      "--arrivals", "normal:1:1", "--work", "1", "--warmup", "20", "--trace"]),
    (dict(algorithm="lm", topology="ring:8", init="spike:16", until="balanced", condition="c2", trace=True),
     ["--algorithm", "lm", "--topology", "ring:8", "--init", "spike:16", "--until", "balanced", "--condition", "c2",
      "--trace"]),
    (dict(algorithm="nna", topology="ring:12", init="spike:40", until="balanced:2", nna_time="simultaneous"),
     ["--algorithm", "nna", "--topology", "ring:12", "--init", "spike:40", "--until", "balanced:2", "--nna-time",
      "simultaneous"]),
]


@pytest.mark.parametrize("kwargs,args", CASES, ids=[f"{c[0]['algorithm']}-{k}" for k, c in enumerate(CASES)])
def test_rounds_equals_cli(kwargs, args, cli):
    expected = cli("rounds", *args, "--json")
    r = dlbkit.rounds(**kwargs)
    got = r.to_dict()
    assert got.keys() == expected.keys()
    for key in expected.keys() - HOST_TIMES:
        assert got[key] == expected[key], key
    assert r.inputs == expected["inputs"] and r.kernel == expected["kernel"]
    assert r.loads is None


def test_loads_of_every_step():
    r = dlbkit.rounds(algorithm="diffusion", topology="torus:5x7", init="uniform:10", until="eps:1e-3", seed=4,
                      trace=True, loads=True)
    assert r.loads.shape == (r.steps + 1, 35)
    plain = dlbkit.rounds(algorithm="diffusion", topology="torus:5x7", init="uniform:10", until="eps:1e-3", seed=4)
    assert r.steps == plain.steps and r.final_error == plain.final_error  # recording changes nothing
    mean = r.total_initial / 35
    # Each row is the vector whose distance to the mean the trace reports.
    assert numpy.linalg.norm(r.loads - mean, axis=1) == pytest.approx(r.trace, rel=1e-9)
    assert r.loads.sum(axis=1) == pytest.approx([r.total_initial] * (r.steps + 1))


def test_integer_loads_and_the_liquid_model_are_conserved_row_by_row():
    r = dlbkit.rounds(algorithm="sos", topology="hypercube:4", init="uniform:50", until="steps:8", integer=True,
                      rounding="flow-imitation", loads=True)
    assert r.loads.shape == (9, 16)
    assert (r.loads == numpy.round(r.loads)).all() and (r.loads.sum(axis=1) == r.total_initial).all()
    lm = dlbkit.rounds(algorithm="lm", topology="ring:8", init="spike:16", until="balanced", loads=True)
    assert lm.shifts_to_balancing == 18  # Henrich Table 3
    assert lm.loads.shape == (lm.steps + 1, 8) and lm.loads[0, 0] == 16
    assert (lm.loads.sum(axis=1) == 16).all()
    assert "trace" not in lm.to_dict()  # as the CLI without --trace


def test_loads_beyond_the_bound_are_refused():
    # (1e6 default max steps + 1) x 100 nodes could exceed 1e8 values.
    with pytest.raises(ValueError, match="accepted: at most 100000000"):
        dlbkit.rounds(algorithm="diffusion", topology="torus:10x10", init="spike", until="eps:1e-3", loads=True)
    r = dlbkit.rounds(algorithm="diffusion", topology="torus:10x10", init="spike", until="eps:1e-3", loads=True,
                      max_steps=99999)
    assert r.loads.shape == (r.steps + 1, 100)
    with pytest.raises(ValueError, match="not recorded with --arrivals"):
        dlbkit.rounds(algorithm="diffusion", topology="ring:8", init="spike", until="steps:5", arrivals="normal:1:1",
                      loads=True)


BAD = [
    (dict(algorithm="heat", topology="ring:8", init="spike", until="steps:1"),
     ["--algorithm", "heat", "--topology", "ring:8", "--init", "spike", "--until", "steps:1"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", rounding="randomized"),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--rounding",
      "randomized"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", lambda_=0.5),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--lambda", "0.5"]),
    (dict(algorithm="sos", topology="ring:8", init="spike", until="steps:1", arrivals="normal:1:1"),
     ["--algorithm", "sos", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--arrivals",
      "normal:1:1"]),
    (dict(algorithm="lm", topology="ring:8", init="spike:8", until="eps:1e-3"),
     ["--algorithm", "lm", "--topology", "ring:8", "--init", "spike:8", "--until", "eps:1e-3"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="eps:2"),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "eps:2"]),
    (dict(algorithm="diffusion", topology="ring:8", init="file:/nonexistent/w.txt", until="steps:1"),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "file:/nonexistent/w.txt", "--until", "steps:1"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", seed=-1),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--seed", "-1"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", threads=3),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--threads", "3"]),
    (dict(algorithm="dimension-exchange", topology="ring:8", init="spike", until="steps:1"),
     ["--algorithm", "dimension-exchange", "--topology", "ring:8", "--init", "spike", "--until", "steps:1"]),
    (dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", work=2),
     ["--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until", "steps:1", "--work", "2"]),
    (dict(algorithm="nna", topology="ring:8", init="spike", until="balanced", condition="c1"),
     ["--algorithm", "nna", "--topology", "ring:8", "--init", "spike", "--until", "balanced", "--condition", "c1"]),
]


@pytest.mark.parametrize("kwargs,args", BAD, ids=[str(k) for k in range(len(BAD))])
def test_rounds_errors_are_the_clis(kwargs, args, cli_error):
    expected = cli_error("rounds", *args)
    with pytest.raises(ValueError) as e:
        dlbkit.rounds(**kwargs)
    assert str(e.value) == expected


def test_empty_and_mistyped_values_are_refused_as_the_cli_refuses_them(cli_error):
    expected = cli_error("rounds", "--algorithm", "diffusion", "--topology", "ring:8", "--init", "spike", "--until",
                         "steps:1", "--alpha", "")
    with pytest.raises(ValueError) as e:
        dlbkit.rounds(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", alpha="")
    assert expected.startswith(str(e.value))  # the CLI adds "(see dlbkit rounds --help)"
    with pytest.raises(ValueError, match="--threads: 'x' is not accepted"):
        dlbkit.rounds(algorithm="diffusion", topology="ring:8", init="spike", until="steps:1", threads="x")


ANALYSES = [
    (dict(topology="hypercube:10"), ["--topology", "hypercube:10"]),
    (dict(topology="ring:8", alpha=0.5), ["--topology", "ring:8", "--alpha", "0.5"]),
    (dict(topology="torus:8x6", alpha="degree", factor=100), ["--topology", "torus:8x6", "--alpha", "degree",
                                                              "--factor", "100"]),
]


@pytest.mark.parametrize("kwargs,args", ANALYSES, ids=[a[0]["topology"] for a in ANALYSES])
def test_analyze_equals_cli(kwargs, args, cli):
    expected = cli("analyze", "diffusion", *args, "--json")
    a = dlbkit.analyze(**kwargs)
    assert a.to_dict() == expected
    assert a.gamma == expected["gamma"] and a.schemes == expected["schemes"]


@pytest.mark.parametrize("kwargs,args", [
    (dict(topology="ring:8", factor=1), ["--topology", "ring:8", "--factor", "1"]),
    (dict(topology="ring:8", alpha="x"), ["--topology", "ring:8", "--alpha", "x"]),
    (dict(topology="ring:1x"), ["--topology", "ring:1x"]),
    (dict(topology="ring:8", alpha=0.9), ["--topology", "ring:8", "--alpha", "0.9"]),
], ids=["factor", "alpha", "topology", "alpha-too-large"])
def test_analyze_errors_are_the_clis(kwargs, args, cli_error):
    expected = cli_error("analyze", "diffusion", *args)
    with pytest.raises(ValueError) as e:
        dlbkit.analyze(**kwargs)
    assert str(e.value) == expected


def test_analyze_refuses_a_factor_that_is_not_a_finite_number():
    for factor in ("x", float("inf"), None):
        with pytest.raises(ValueError, match="accepted: a finite decimal number"):
            dlbkit.analyze(topology="ring:8", factor=factor)


@pytest.mark.parametrize("change", [
    dict(topology="hypercube:99"), dict(init="spike:-1"), dict(init="uniform:nan"), dict(until="steps:-1"),
    dict(until="eps:nan"), dict(until="balanced:1e400"), dict(max_steps="1e3"), dict(seed=2**64),
    dict(alpha=float("nan")), dict(alpha="file:/nonexistent"), dict(algorithm=None), dict(threads=2**40),
    dict(algorithm="gde", lambda_=1), dict(algorithm="ops", topology="random:3000:3"),
    dict(arrivals="normal:1:-1", until="steps:3"), dict(arrivals="normal:1:1", until="steps:3", warmup=3),
    dict(algorithm="lm", topology="complete:5", until="balanced"), dict(algorithm="nna", topology="torus:4x4x4"),
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_bad_values_raise_value_error(change):
    kwargs = dict(algorithm="diffusion", topology="ring:8", init="spike", until="steps:3")
    kwargs.update(change)
    with pytest.raises(ValueError) as e:
        dlbkit.rounds(**kwargs)
    assert str(e.value) and "\n" not in str(e.value)  # one line


def test_runs_in_two_threads_give_the_loads_of_one_alone():
    # rounds releases the GIL, so two runs may overlap: they share nothing.
    kwargs = dict(algorithm="chebyshev", topology="torus:12x12", init="uniform:100", until="eps:1e-6",
                  max_steps=1000, loads=True)
    alone = dlbkit.rounds(**kwargs).loads
    results = []
    threads = [threading.Thread(target=lambda: results.append(dlbkit.rounds(**kwargs).loads)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and all(numpy.array_equal(r, alone) for r in results)
