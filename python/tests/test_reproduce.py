# dlbkit.reproduce against `dlbkit reproduce NAME --json`: the same tables and comparisons.
import pytest

import dlbkit


def records(table):
    return table.to_dict("records") if hasattr(table, "to_dict") else table


@pytest.mark.parametrize("name", ["ahmad-table2", "henrich-theorem3"])
def test_reproduce_equals_cli(name, cli, tmp_path):
    expected = cli("reproduce", name, "--runs", "1", "--out", str(tmp_path / "cli"), "--json")
    r = dlbkit.reproduce(name, out_dir=tmp_path / "py", runs=1)
    assert list(r.tables) == [t["name"] for t in expected["tables"]]
    for t in expected["tables"]:
        rows = [dict(zip(t["columns"], row)) for row in t["rows"]]
        got = records(r.tables[t["name"]])
        assert len(got) == len(rows)
        for a, b in zip(got, rows):
            assert {k: (None if v != v else v) for k, v in a.items()} == b  # NaN (pandas' None) as null
    assert r.inputs == expected["inputs"]
    assert len(records(r.comparisons)) == len(expected["comparisons"])
    assert all(f.startswith(str(tmp_path / "py")) for f in r.files)


def test_reproductions_are_listed_and_a_bad_name_is_a_value_error():
    names = [r["name"] for r in dlbkit.reproductions()]
    assert "wlr93-table4" in names and "phases" in names
    with pytest.raises(ValueError, match="unknown reproduction 'nosuch'"):
        dlbkit.reproduce("nosuch")
    with pytest.raises(ValueError, match="nosuch"):
        dlbkit.reproduce("predict-runtime", params={"nosuch": 1})
