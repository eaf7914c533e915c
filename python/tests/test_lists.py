# dlbkit.strategies(), workloads() and cost_models() against `dlbkit list`.
import json

import dlbkit

from conftest import run_cli


def listing(title, items):
    """The text `dlbkit list` prints for these items (cli/info.cpp's print_components)."""
    lines = [title]
    for item in items:
        lines.append(f"  {item['name']:<18} {item['description']}")
        if item["source"]:
            lines.append(f"  {'':<18} source: {item['source']}")
        for p in item["params"]:
            tries = f"; dlbkit advise also tries {', '.join(p['search'])}" if p["search"] else ""
            lines.append(f"  {'':<18}   {p['name'] + '=' + p['default']:<22} {p['description']} ({p['accepted']}{tries})")
    return "\n".join(lines) + "\n"


def test_strategies_are_the_cli_list():
    _, out, _ = run_cli("list", "strategies")
    assert listing("strategies (-p/--param name=value):", dlbkit.strategies()) == out
    assert {"rid", "sid", "gm", "hbm", "dem", "work_stealing"} <= {s["name"] for s in dlbkit.strategies()}


def test_workloads_are_the_cli_list():
    _, out, _ = run_cli("list", "workloads")
    assert listing("workloads (--workload-param name=value):", dlbkit.workloads()) == out


def test_cost_models_are_the_cli_list():
    _, out, _ = run_cli("list", "cost-models")
    lines = out.splitlines()[1:-1]  # between the title and the list of fields
    presets = dlbkit.cost_models()
    assert [line.split()[0] for line in lines[0::2]] == [c["name"] for c in presets]
    for preset, fields in zip(presets, lines[1::2]):
        expected = json.loads(fields)
        expected.pop("name")
        expected = {k: v if isinstance(v, str) else json.dumps(v) for k, v in expected.items()}
        for unset in ("protocol_round", "protocol_step", "protocol_object", "protocol_compute"):  # only when set
            expected.setdefault(unset, "0")
        assert {p["name"]: p["default"] for p in preset["params"]} == expected
