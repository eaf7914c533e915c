#!/usr/bin/python3
"""Checks that the docs say what the tree holds.

  check-docs.py paths                             every file path named in docs/ and README.md exists
  check-docs.py outputs DLBKIT [--long] [PAGE...] every marked output block is what its command prints
  check-docs.py outputs DLBKIT --update [PAGE...] rewrites the marked blocks instead (long ones too)

A marked block is a fenced block right after a line `<!-- dlbkit reproduce NAME [ARGS] -->`
(`<!-- dlbkit reproduce NAME [ARGS] long -->` for a command of tens of seconds or more,
checked only with --long): the checker runs `DLBKIT reproduce NAME [ARGS]` and compares its
output with the block, as SimGrid's tesh files do. Without PAGE, every reproduction page with
a marked block. The block holds the command's report: the last two lines it prints,
the files it wrote and its wall time, are left out, a column of wall times shows '-', and the
comparison does not count spaces (a column's width follows its widest value).
Exit status 0 when everything agrees, 1 with one line per difference, 2 on bad arguments.
"""
import difflib
import glob
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Paths from the top of the tree: a top-level folder of the repository, then a name.
TREE_PATH = re.compile(
    r"(?<![\w/.$-])((?:src|include|scripts|examples|docs|tests|python|cli|bench|cmake|fuzz)/[\w./+-]*[\w+/])")
# Shorter source paths, as an #include or a folder's own docs write them (dlbkit/sim/simulator.hpp,
# sim/experiment.cpp): found in one of these folders. Paths under build/ and out/ are made by runs.
SHORT_PATH = re.compile(
    r"(?<![\w/.$-])(?!(?:build|out)/)([\w.+-]+/[\w./+-]*\.(?:hpp|cpp|h|py|sh|md|png|json|csv))\b")
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


# `long` marks a command of tens of seconds or more: --long and --update run it, the test does not.
MARK = re.compile(r"<!-- dlbkit (reproduce [^>]*?)( long)? -->")


def marked_blocks(page, lines):
    """(index of the mark, its command, whether it is long, first and end index of the block's body)."""
    for i, line in enumerate(lines):
        mark = MARK.fullmatch(line.strip())
        if mark:
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                raise SystemExit(f"{page.relative_to(ROOT)}:{i + 1}: a marked command must be followed by "
                                 "a fenced block")
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
            yield i, mark.group(1), bool(mark.group(2)), i + 2, end


def printed(dlbkit, command, out_dir):
    """What the command prints, less the files it wrote and its wall time (the last two lines)."""
    run = subprocess.run([dlbkit, *command.split(), "--out", out_dir], capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    return masked(re.sub(r"\nwrote [^\n]*\n\(\d+\.\d s\)\n$", "", run.stdout).splitlines()), None


# Columns that vary from run to run: their values are shown as '-', and widths are not compared.
VARYING_COLUMNS = ["wall s"]


def masked(lines):
    """The lines with the values of a varying column (right-aligned under its label) as '-'."""
    result, ends = [], []
    for line in lines:
        if not line.strip():
            ends = []
        elif any(f" {label}" in line for label in VARYING_COLUMNS):
            ends = [line.index(f" {label}") + 1 + len(label)
                    for label in VARYING_COLUMNS if f" {label}" in line]
        else:
            for end in ends:
                value = re.search(r"\S+$", line[:end])
                if value and line[end:end + 1] in ("", " "):
                    line = line[:value.start()] + "-".rjust(len(value.group())) + line[end:]
        result.append(line)
    return result


def same(block, output):
    return [" ".join(line.split()) for line in block] == [" ".join(line.split()) for line in output]


def check_outputs(dlbkit, pages, update, long):
    failures = 0
    with tempfile.TemporaryDirectory() as out_dir:
        for page in pages:
            failures_before = failures
            lines = page.read_text().splitlines()
            blocks = list(marked_blocks(page, lines))
            run = [block for block in blocks if long or not block[2]]
            if not run:
                print(f"{page.relative_to(ROOT)}: no marked block to check "
                      "(<!-- dlbkit reproduce NAME --> right before a fenced block)")
                failures += 1
            for mark, command, _, first, end in reversed(run):  # from the end: rewriting keeps indices
                where = f"{page.relative_to(ROOT)}:{mark + 1}"
                output, error = printed(dlbkit, command, out_dir)
                if output is None:
                    print(f"{where}: dlbkit {command} failed: {error}")
                    failures += 1
                elif update:
                    lines[first:end] = output
                elif not same(lines[first:end], output):
                    print(f"{where}: the block is not what 'dlbkit {command}' prints now "
                          f"(scripts/check-docs.py outputs DLBKIT --update PAGE rewrites it):")
                    sys.stdout.writelines(difflib.unified_diff([line + "\n" for line in lines[first:end]],
                                                               [line + "\n" for line in output],
                                                               "page", "printed", n=1))
                    failures += 1
            if update:
                page.write_text("\n".join(lines) + "\n")
            elif failures == failures_before:
                print(f"{page.relative_to(ROOT)}: {len(run)} marked blocks as printed"
                      + (f", {len(blocks) - len(run)} long ones not run" if len(run) < len(blocks) else ""))
    return 1 if failures else 0


USAGE = "paths | outputs DLBKIT [--long | --update] [PAGE...]"


def main(argv):
    if argv == ["paths"]:
        return check_paths()
    if argv[:1] == ["outputs"] and len(argv) >= 2:
        dlbkit, flags = argv[1], {"--update", "--long"}
        pages = [pathlib.Path(p).resolve() for p in argv[2:] if p not in flags]
        unusable = [str(p) for p in [pathlib.Path(dlbkit)] + pages if not p.is_file()]
        if unusable:
            print(f"check-docs.py: {unusable[0]} is not a file; accepted: {USAGE}", file=sys.stderr)
            return 2
        pages = pages or [p for p in sorted((ROOT / "docs/reproductions").glob("*.md")) if MARK.search(p.read_text())]
        return check_outputs(dlbkit, pages, update="--update" in argv, long="--long" in argv or "--update" in argv)
    print(f"check-docs.py: arguments {' '.join(argv) or '(none)'} not understood; accepted: {USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
