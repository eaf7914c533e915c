#!/usr/bin/python3
"""Checks that the docs say what the tree holds.

  check-docs.py paths                  every file path named in docs/ and README.md exists
  check-docs.py outputs DLBKIT [PAGE..] every marked output block equals what its command prints
  check-docs.py outputs DLBKIT --update [PAGE..]   rewrites the marked blocks instead

A marked block is a fenced block right after a line `<!-- dlbkit reproduce NAME [ARGS] -->`:
the checker runs `DLBKIT reproduce NAME [ARGS]` and compares its output with the block, as
SimGrid's tesh files do. Fields that vary from run to run (wall times) are masked.
Exit status 0 when everything agrees, 1 with one line per difference.
"""
import difflib
import glob
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Paths from the top of the tree: a top-level folder of the repository, then a name.
TREE_PATH = re.compile(
    r"(?<![\w/.$-])((?:src|include|scripts|examples|docs|tests|python|cli|bench|cmake|fuzz)/[\w./+-]*[\w+/])")
# Shorter source paths, as an #include or a folder's own docs write them (dlbkit/sim/simulator.hpp,
# sim/experiment.cpp): found in one of these folders. Paths under build/ and out/ are made by runs.
SHORT_PATH = re.compile(r"(?<![\w/.$-])(?!(?:build|out)/)([\w.+-]+/[\w./+-]*\.(?:hpp|cpp|h|py|sh|md|png|json|csv))\b")
SHORT_PATH_ROOTS = ["include", "include/dlbkit", "src", "cli", "python"]
MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


def docs():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def named_paths(doc):
    """(line number, path as written, path in the tree) for each path the doc names."""
    for number, line in enumerate(doc.read_text().splitlines(), 1):
        for match in TREE_PATH.finditer(line):
            yield number, match.group(1), ROOT / match.group(1)
        for match in SHORT_PATH.finditer(line):
            if not TREE_PATH.fullmatch(match.group(1)):
                found = [p for p in [doc.parent] + [ROOT / r for r in SHORT_PATH_ROOTS]
                         if (p / match.group(1)).exists()]
                yield number, match.group(1), (found[0] if found else doc.parent) / match.group(1)
        for match in MARKDOWN_LINK.finditer(line):
            target = match.group(1).split("#")[0]
            if target and not re.match(r"[a-z]+:", target):
                yield number, target, doc.parent / target


def exists(path):
    """A file or folder, a stem of files (vt's data set STEM.RANK.json), or a pattern whose
    capitalised name stands for any (src/strategies/NAME.cpp)."""
    if path.exists() or any(path.parent.glob(glob.escape(path.name) + ".*")):
        return True
    pattern = re.sub(r"\bNAME\b", "*", path.name)
    return pattern != path.name and any(path.parent.glob(pattern))


def check_paths():
    missing = [f"{doc.relative_to(ROOT)}:{number}: {written} does not exist"
               for doc in docs() for number, written, path in named_paths(doc) if not exists(path)]
    print("\n".join(missing) if missing else f"every path named in {len(docs())} docs exists")
    return 1 if missing else 0


MARK = re.compile(r"<!-- dlbkit (reproduce .*?) -->")
# Wall times: "took 3.2 s", "(1.5 s)", "wall 0.8 s" and the like, and the scoreboard's time column.
VARYING = [(re.compile(r"\b\d+(\.\d+)? ?(s|ms|min)\b(?= wall| of wall| \(wall)"), "<time>"),
           (re.compile(r"(wall(?: time)?:? )\d+(\.\d+)? ?(s|ms|min)\b"), r"\1<time>")]


def masked(text):
    for pattern, replacement in VARYING:
        text = pattern.sub(replacement, text)
    return text


def marked_blocks(lines):
    """(index of the command line, its command, first and end index of the block's body)."""
    for i, line in enumerate(lines):
        mark = MARK.fullmatch(line.strip())
        if mark:
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                raise SystemExit(f"line {i + 1}: a marked command must be followed by a fenced block")
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
            yield i, mark.group(1), i + 2, end


def check_outputs(dlbkit, pages, update):
    failures = 0
    for page in pages:
        lines = page.read_text().splitlines()
        blocks = list(marked_blocks(lines))
        for mark, command, first, end in reversed(blocks):  # from the end: rewriting keeps indices
            run = subprocess.run([dlbkit] + command.split()[:1] + command.split()[1:],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{page.relative_to(ROOT)}:{mark + 1}: dlbkit {command} failed: {run.stderr.strip()}")
                failures += 1
                continue
            printed = masked(run.stdout).rstrip("\n").splitlines()
            if update:
                lines[first:end] = printed
            elif printed != lines[first:end]:
                print(f"{page.relative_to(ROOT)}:{mark + 1}: the block differs from what "
                      f"'dlbkit {command}' prints (scripts/check-docs.py outputs DLBKIT --update rewrites it):")
                sys.stdout.writelines(difflib.unified_diff(
                    [l + "\n" for l in lines[first:end]], [l + "\n" for l in printed], "page", "printed", n=1))
                failures += 1
        if update:
            page.write_text("\n".join(lines) + "\n")
        if not update and not failures:
            print(f"{page.relative_to(ROOT)}: {len(blocks)} blocks as printed")
    return 1 if failures else 0


def main(argv):
    if argv[:1] == ["paths"] and len(argv) == 1:
        return check_paths()
    if argv[:1] == ["outputs"] and len(argv) >= 2:
        update = "--update" in argv
        rest = [a for a in argv[2:] if a != "--update"]
        pages = [pathlib.Path(p).resolve() for p in rest] or sorted((ROOT / "docs/reproductions").glob("*.md"))
        return check_outputs(argv[1], pages, update)
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
