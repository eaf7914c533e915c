"""Reading what runs write: timelines (docs/timeline.md) and recorded task trees
(docs/trace-format.md), as tables."""

import json as _json

from . import _dlbkit


def _table(columns, attrs):
    """A pandas DataFrame of {name: column} when pandas is installed, the dict itself otherwise;
    attrs (the file's other facts) go to DataFrame.attrs, or into the dict under "attrs"."""
    try:
        import pandas
    except ImportError:
        return dict(columns, attrs=attrs)
    frame = pandas.DataFrame(columns)
    frame.attrs.update(attrs)
    return frame


def read_trace(path):
    """The tasks of a run recorded with `dlbkit run --record PATH`, one row a task, in the
    order of the file (the C++ reader's, with all of its checks):

    task         the task's number, 0 .. tasks - 1
    worker       the worker that executed it
    index        its index among that worker's tasks ((worker, index) is its name)
    parent       the task that spawned it, -1 for a root
    origin       for a root, the worker it started on; -1 for a child
    duration_ns  the wall time its execute() took, ns

    A pandas DataFrame (a dict of numpy arrays without pandas) whose attrs hold "workers",
    the worker count of the run. Raises ValueError with the CLI's message for an unreadable
    or malformed file.
    """
    columns = _dlbkit.read_trace(str(path))
    workers = columns.pop("workers")
    return _table(columns, {"workers": workers})


def _timeline_error(path, problem):
    return ValueError(f"timeline '{path}': {problem}; accepted: a Chrome trace-event JSON file written by "
                      f"--timeline (docs/timeline.md)")


def read_timeline(path):
    """The events of a timeline written by `dlbkit simulate ... --timeline PATH` or `dlbkit run
    ... --timeline PATH` (Chrome trace-event JSON, docs/timeline.md), one row an event in the
    order of the file:

    node      the node (the event's tid)
    event     busy, overhead, idle (spans), load (the node's task count), migration
    phase     the trace-event phase: X a span, C a counter, s / f a migration's start / finish
    time      when it begins, seconds from the start of the run
    duration  a span's length in seconds (NaN for other events)
    tasks     load: the tasks the node holds; migration: the tasks moved (NaN for spans)
    id        a migration's id, the same at its start and finish (-1 for other events)

    A pandas DataFrame (a dict of lists without pandas); its attrs hold "process" (the run's
    description) and, for an MPI run, "clock_sync" ({node: {offset_us, error_us}}).
    Raises ValueError for a file that cannot be read or is not such a timeline.
    """
    try:
        with open(path, "rb") as f:
            document = _json.load(f)
    except OSError as e:
        raise ValueError(f"timeline '{path}' cannot be read: {e.strerror}; accepted: a readable file") from None
    except ValueError as e:
        raise _timeline_error(path, f"not JSON ({e})") from None
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        raise _timeline_error(path, "no traceEvents list")
    columns = {name: [] for name in ("node", "event", "phase", "time", "duration", "tasks", "id")}
    attrs = {"process": None, "clock_sync": {}}
    nan = float("nan")
    for k, e in enumerate(document["traceEvents"]):
        try:
            phase, name, node = e["ph"], e["name"], e["tid"]
            if phase == "M":
                if name == "process_name":
                    attrs["process"] = e["args"]["name"]
                elif name == "clock_sync":
                    attrs["clock_sync"][node] = dict(e["args"])
                continue
            columns["node"].append(int(node))
            columns["event"].append(name.split(" ")[0])  # "load 3" is node 3's load counter
            columns["phase"].append(phase)
            columns["time"].append(float(e["ts"]) * 1e-6)
            columns["duration"].append(float(e["dur"]) * 1e-6 if phase == "X" else nan)
            columns["tasks"].append(float(e["args"]["tasks"]) if phase in ("C", "s", "f") else nan)
            columns["id"].append(int(e["id"]) if phase in ("s", "f") else -1)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise _timeline_error(path, f"event {k} ({_json.dumps(e)[:80]}) lacks a field of its phase") from None
    if not attrs["clock_sync"]:
        del attrs["clock_sync"]
    return _table(columns, attrs)
