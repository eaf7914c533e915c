# dlbkit.topology against `dlbkit topology SPEC --json`.
import math

import numpy
import pytest

import dlbkit

SPECS = ["hypercube:4", "torus:4x6", "mesh:3x5", "tree:binary:4", "bisectional:5"]


@pytest.mark.parametrize("spec", SPECS)
def test_topology_equals_cli(spec, cli):
    expected = cli("topology", spec, "--json", "--neighbors")
    t = dlbkit.topology(spec)
    neighbors = expected.pop("neighbors")
    assert t.to_dict() == expected
    assert (t.spec, t.size, t.degree, t.min_degree, t.edges, t.diameter) == (
        expected["spec"], expected["nodes"], expected["degree"]["max"], expected["degree"]["min"],
        expected["edges"], expected["diameter"])
    assert [t.neighbors(v) for v in range(t.size)] == neighbors


def test_bad_spec_and_node_are_value_errors(cli_error):
    with pytest.raises(ValueError) as e:
        dlbkit.topology("torus:1x4")
    assert str(e.value) == cli_error("topology", "torus:1x4")
    t = dlbkit.topology("ring:5")
    for v in (-1, 5):
        with pytest.raises(ValueError, match="accepted: 0 to 4"):
            t.neighbors(v)


def test_laplacian_spectrum():
    # Q_3: eigenvalue 2k with multiplicity C(3, k); the ring C_5: 2 - 2 cos(2 pi k / 5).
    assert dlbkit.topology("hypercube:3").laplacian_spectrum() == pytest.approx([0, 2, 2, 2, 4, 4, 4, 6], abs=1e-9)
    ring = sorted(2 - 2 * math.cos(2 * math.pi * k / 5) for k in range(5))
    spectrum = dlbkit.topology("ring:5").laplacian_spectrum()
    assert isinstance(spectrum, numpy.ndarray) and spectrum == pytest.approx(ring, abs=1e-9)
    assert spectrum[0] == 0.0 and list(dlbkit.topology("complete:1").laplacian_spectrum()) == [0.0]
