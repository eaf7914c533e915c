#!/usr/bin/python3
"""Checks that scripts/install-deps.sh installs everything dlbkit's build, tests and examples use,
so that a fresh machine passes scripts/test.sh whatever was installed here by hand.

Three looks, each answered by dpkg (which package owns a file), against the packages the script
lists and every package they depend on:
  - each Python module imported by python/ (package, tests, examples) and scripts/*.py, or asked for
    with pytest.importorskip, as /usr/bin/python3 finds it;
  - each header the build compiled (the build's own dependency log, `ninja -t deps`);
  - each file or folder the CMake configure step found (FILEPATH and PATH entries and *_DIR of
    CMakeCache.txt: packages, libraries, programs).
A module or file that is missing, not from a Debian package, or from a package that the list does
not bring is one line naming it, who uses it and what to add; the exit status is then 1.

Usage: scripts/check-deps.py BUILD_DIR
"""
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def listed_packages():
    """The names in the `packages=(...)` array of scripts/install-deps.sh."""
    text = re.sub(r"(^|\s)#[^\n]*", r"\1", (ROOT / "scripts/install-deps.sh").read_text())
    match = re.search(r"^packages=\((.*?)\)", text, re.S | re.M)
    if not match:
        sys.exit("check-deps: no packages=(...) array in scripts/install-deps.sh")
    return set(match.group(1).split())


def installed():
    """Each installed package's dependencies (Depends and Pre-Depends, alternatives kept as
    lists) and the virtual names each one provides."""
    out = subprocess.run(["dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Depends}, ${Pre-Depends}\t${Provides}\n"],
                         check=True, capture_output=True, text=True).stdout
    depends, providers = {}, {}
    for line in out.splitlines():
        status, name, deps, provides = line.split("\t")
        if not status.startswith("ii"):
            continue
        depends[name] = [[re.sub(r"[\s(:].*", "", alt.strip()) for alt in group.split("|")]
                         for group in deps.split(",") if group.strip()]
        for virtual in provides.split(","):
            if virtual.strip():
                providers.setdefault(re.sub(r"[\s(].*", "", virtual.strip()), []).append(name)
    return depends, providers


def closure(roots, depends, providers):
    """The installed packages that installing `roots` brings: the roots and, recursively, the
    installed packages satisfying their dependencies (a virtual name: its installed providers)."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        for real in ([name] if name in depends else providers.get(name, [])):
            if real in seen:
                continue
            seen.add(real)
            for group in depends[real]:
                todo.extend(alt for alt in group if alt in depends or alt in providers)
    return seen


def file_owners():
    """Path -> the packages that own it (several for a folder), from dpkg's file lists (an
    architecture suffix dropped)."""
    owners = {}
    for listing in Path("/var/lib/dpkg/info").glob("*.list"):
        package = listing.stem.split(":")[0]
        for line in listing.read_text(errors="replace").splitlines():
            owners.setdefault(line, set()).add(package)
    return owners


def owners_of(path, owners):
    """The packages owning `path` as given, else with its links resolved (Debian's alternatives),
    else under merged /usr's other name; empty when none does."""
    candidates = [os.path.normpath(path), os.path.realpath(path)]
    candidates += [c[4:] for c in candidates if c.startswith("/usr/") and c[4:].startswith(("/bin/", "/lib"))]
    return next((owners[c] for c in candidates if c in owners), set())


def python_imports():
    """Top-level module name -> the first file importing it, over python/ and scripts/*.py."""
    files = sorted(ROOT.glob("python/**/*.py")) + sorted(ROOT.glob("scripts/*.py"))
    local = {f.stem for f in files} | {d.name for d in ROOT.glob("python/*/") if d.is_dir()} | {"_dlbkit"}
    found = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "importorskip"
                  and node.args and isinstance(node.args[0], ast.Constant)):
                names = [node.args[0].value]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top not in local:
                    found.setdefault(top, path.relative_to(ROOT))
    return found


def module_files(modules):
    """Module -> its file as Debian's python3 finds it (None when it cannot)."""
    program = ("import importlib.util, sys\n"
               "for m in sys.argv[1:]:\n"
               "    s = importlib.util.find_spec(m)\n"
               "    print(m, s.origin if s and s.origin else (list(s.submodule_search_locations)[0] if s else ''))\n")
    out = subprocess.run(["/usr/bin/python3", "-c", program, *modules], check=True, capture_output=True,
                         text=True, cwd="/").stdout
    return {m: (p or None) for m, _, p in (line.partition(" ") for line in out.splitlines())}


def compiled_headers(build):
    """System header -> an object file that includes it, from the build's dependency log."""
    out = subprocess.run(["ninja", "-C", str(build), "-t", "deps"], check=True, capture_output=True, text=True).stdout
    headers, target = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace():
            target = line.split(":")[0]
        elif line.strip().startswith("/") and not line.strip().startswith(str(ROOT)):
            headers.setdefault(line.strip(), target)
    return headers


# The archiver, linker and object tools CMake probes for beside a compiler: it takes LLVM's
# where they are installed (as for clang here) and binutils' (a dependency of g++) where not,
# so they are whatever the machine has, not what dlbkit needs.
BINUTILS_PROBES = r"CMAKE_((\w+_COMPILER_)?(AR|RANLIB)|LINKER|NM|OBJCOPY|OBJDUMP|READELF|STRIP|ADDR2LINE|DLLTOOL|MT)"


def cache_paths(build):
    """CMakeCache.txt's entries that are found files or folders outside the tree and the build."""
    paths = {}
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.+-]+):(FILEPATH|PATH|UNINITIALIZED|STRING|INTERNAL)=(/.*)$", line)
        if not match:
            continue
        name, kind, value = match.groups()
        if kind in ("STRING", "INTERNAL", "UNINITIALIZED") and not name.endswith("_DIR"):
            continue
        if (value.startswith((str(ROOT), str(build.resolve()), "/tmp/")) or not os.path.exists(value)
                or name.startswith(("CMAKE_INSTALL", "CMAKE_CACHEFILE", "CMAKE_HOME", "CMAKE_ROOT"))
                or re.fullmatch(BINUTILS_PROBES, name)):
            continue
        paths[value] = name
    return paths


def main():
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "CMakeCache.txt").is_file():
        sys.exit("usage: scripts/check-deps.py BUILD_DIR (a configured and built dlbkit build folder)")
    build = Path(sys.argv[1])
    listed = listed_packages()
    depends, providers = installed()
    unknown = sorted(p for p in listed if p not in depends and p not in providers)
    brought = closure(listed, depends, providers)
    owners = file_owners()
    problems = [f"install-deps.sh lists {p}, which is not installed here: run scripts/install-deps.sh" for p in unknown]
    missing = {}  # package -> what of it is used (one line a package)

    def check(path, what, used_by):
        packages = owners_of(path, owners)
        if not packages:
            problems.append(f"{what} ({path}), used by {used_by}, is not from a Debian package: "
                            "install it with apt and list that package in scripts/install-deps.sh")
        elif not packages & brought:
            missing.setdefault(" or ".join(sorted(packages)), []).append(f"{what} {path}, used by {used_by}")

    imports = python_imports()
    files = module_files(sorted(imports))
    for module, used_by in sorted(imports.items()):
        if files.get(module) is None:
            problems.append(f"Python module {module}, imported by {used_by}, is not installed for /usr/bin/python3: "
                            "add the Debian package that provides it (apt-file search, or python3-NAME) to scripts/install-deps.sh")
        else:
            check(files[module], f"Python module {module}", used_by)
    headers = compiled_headers(build) if (build / "build.ninja").is_file() else {}  # Ninja's log only
    for header, target in sorted(headers.items()):
        check(header, "header", target)
    found = cache_paths(build)
    for path, name in sorted(found.items()):
        check(path, f"CMake's {name}", "the CMake configure step")
    for package, uses in sorted(missing.items()):
        more = f" and {len(uses) - 1} more" if len(uses) > 1 else ""
        problems.append(f"the Debian package {package} is used ({uses[0]}{more}) but scripts/install-deps.sh "
                        "does not install it: add it to its list")
    for line in problems:
        print(f"check-deps: {line}")
    print(f"check-deps: {len(imports)} Python modules, {len(headers)} system headers and {len(found)} paths found by "
          f"CMake against the {len(listed)} packages of scripts/install-deps.sh and the {len(brought)} they bring: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
