# The example scripts (python/examples) in their tiny mode, so that they keep running as the
# package changes: each writes its PNG.
import os
import subprocess
import sys

import pytest

from conftest import ROOT


@pytest.mark.parametrize("script", ["speedup_vs_n.py", "convergence.py"])
def test_example_runs_and_writes_its_figure(script, tmp_path):
    out = tmp_path / "figure.png"
    env = dict(os.environ, DLBKIT_EXAMPLE_TINY="1")
    p = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / script), "--out", str(out)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out}" in p.stdout
