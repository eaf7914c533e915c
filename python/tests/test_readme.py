# The README's Python example runs and prints what the README shows after it.
import contextlib
import io
import re

from conftest import ROOT


def test_readme_example_prints_what_the_readme_shows():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## From Python"):]
    code, shown = re.search(r"```python\n(.*?)```\n+```\n(.*?)```", section, re.S).groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
