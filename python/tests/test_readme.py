# The README's Python examples run, in order, and the first prints what the README shows after it.
import contextlib
import io
import re

from conftest import ROOT


def test_readme_examples_run_and_print_what_the_readme_shows():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## From Python"):readme.index("## What is here")]
    code, shown = re.search(r"```python\n(.*?)```\n+```\n(.*?)```", section, re.S).groups()
    out = io.StringIO()
    namespace = {}
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), namespace)
    assert out.getvalue() == shown
    later = re.findall(r"```python\n(.*?)```", section, re.S)[1:]
    assert later, "the README shows dlbkit.sweep"
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        for block in later:
            exec(compile(block, "README.md", "exec"), namespace)
    assert "speedup_ci95" in printed.getvalue()
