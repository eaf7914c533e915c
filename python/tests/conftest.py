# The CLI the tests compare the package with: the one built beside it (ctest sets DLBKIT_CLI).
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("DLBKIT_CLI", str(ROOT / "build" / "bin" / "dlbkit"))


def run_cli(*args):
    """The CLI's exit status, stdout and stderr for these arguments."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def cli():
    def cli_json(*args):
        status, out, err = run_cli(*args)
        assert status == 0, err
        return json.loads(out)
    return cli_json


@pytest.fixture
def cli_error():
    def error_line(*args):
        """The CLI's one error line without "dlbkit: error: " (status 2: bad input)."""
        status, _, err = run_cli(*args)
        assert status == 2, err
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("dlbkit: error: "), err
        return lines[0][len("dlbkit: error: "):]
    return error_line


RECORDED_LOADS = {0: [4, 1, 1, 1], 1: [1, 2, 1, 3], 2: [1, 1, 2, 5]}  # by phase, objects 1 to 4


@pytest.fixture(scope="session")
def recorded_loads():
    return RECORDED_LOADS


@pytest.fixture(scope="session")
def recorded(tmp_path_factory):
    """A run of 3 phases on 2 ranks as vt's LB data (as ObjectRuntime --record writes it):
    objects 1, 2, 3 on rank 0 and object 4 on rank 1, their loads RECORDED_LOADS."""
    stem = tmp_path_factory.mktemp("vt") / "run"
    for rank, objects in ((0, [1, 2, 3]), (1, [4])):
        phases = [{"id": k, "tasks": [{"entity": {"id": o, "home": rank, "migratable": True, "type": "object"},
                                       "node": rank, "resource": "cpu", "time": float(RECORDED_LOADS[k][o - 1])}
                                      for o in objects]} for k in range(3)]
        pathlib.Path(f"{stem}.{rank}.json").write_text(json.dumps({"type": "LBDatafile", "phases": phases}))
    return str(stem)
