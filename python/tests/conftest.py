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
