#!/usr/bin/env python3
"""amr_counts.py CELLS LEVELS PHASES WIDTH [--max-over-mean R] COMMAND...: runs the AMR
example's COMMAND (with --json) and checks the cells it says were created and destroyed, and
left at the end, against the mesh's rules replayed here, and its max_over_mean_load against R
where given: after phase p, with the front at (p + 1.5) / PHASES, the
families marked at the last gap merge, each cell older than the gap within WIDTH / 2^level of
the front (below LEVELS) splits into 4, and each family of 4 cells older than the gap whose
parent is not within its distance is marked."""
import json
import subprocess
import sys


def replay(cells, levels, phases, width):
    leaves = {(0, i): -1 for i in range(cells)}  # (level, index) -> the gap that made it

    def near(level, index, front):
        if level >= levels:
            return False
        size = 1.0 / (cells * 4 ** level)
        lo, hi = index * size, (index + 1) * size
        distance = lo - front if front < lo else front - hi if front > hi else 0.0
        return distance < width / 2 ** level

    created = destroyed = 0
    marked = []
    for gap in range(phases - 1):
        front = (gap + 1.5) / phases
        for level, index in marked:
            for k in range(4):
                del leaves[(level + 1, 4 * index + k)]
            leaves[(level, index)] = gap
        created += len(marked)
        destroyed += 4 * len(marked)
        splits = [cell for cell, born in leaves.items() if born < gap and near(*cell, front)]
        for level, index in splits:
            del leaves[(level, index)]
            for k in range(4):
                leaves[(level + 1, 4 * index + k)] = gap
        created += 4 * len(splits)
        destroyed += len(splits)
        marked = sorted({(level - 1, index // 4) for (level, index) in leaves
                         if level > 0 and not near(level - 1, index // 4, front)
                         and all(leaves.get((level, 4 * (index // 4) + k), gap) < gap for k in range(4))})
    return created, destroyed, len(leaves)


cells, levels, phases = (int(a) for a in sys.argv[1:4])
expected = replay(cells, levels, phases, float(sys.argv[4]))
command = sys.argv[5:]
bound = float("inf")
if command[0] == "--max-over-mean":
    bound, command = float(command[1]), command[2:]
out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
got = (out["objects_created"], out["objects_destroyed"], out["cells_at_end"])
print(f"created, destroyed, left: {got}; replayed: {expected}; max over mean load {out['max_over_mean_load']}")
sys.exit(0 if got == expected and out["checksum_balanced"] == out["checksum_unbalanced"]
         and out["max_over_mean_load"] <= bound else 1)
