#!/usr/bin/python3
"""Checks a record of ObjectRuntime under MPI (STEM.R.json for every rank R): every phase with
messages carries what packing and unpacking them cost per byte, the same in every rank's file,
each above 0 and below a microsecond a byte. Exit status 1 with a line saying what is wrong."""
import glob
import json
import sys

FIELDS = ("message_serialize_seconds_per_byte", "message_deserialize_seconds_per_byte")

stem = sys.argv[1]
files = sorted(glob.glob(stem + ".*.json"))
if len(files) < 2:
    sys.exit(f"{stem}: {len(files)} rank files; expected one per rank, at least 2")
costs = {}  # phase id -> the costs, as the first file has them
priced = 0
for name in files:
    for phase in json.load(open(name))["phases"]:
        mine = tuple(phase.get("user_defined", {}).get(f) for f in FIELDS)
        if costs.setdefault(phase["id"], mine) != mine:
            sys.exit(f"{name}: phase {phase['id']} costs {mine}, another file {costs[phase['id']]}")
for pid, values in costs.items():
    if values == (None, None):
        continue
    if not all(v is not None and 0 < v < 1e-6 for v in values):
        sys.exit(f"{stem}: phase {pid} costs {values}; expected both in (0, 1e-6)")
    priced += 1
if priced == 0:
    sys.exit(f"{stem}: no phase with the messages' costs")
print(f"{stem}: {priced} of {len(costs)} phases priced, the same in {len(files)} files")
