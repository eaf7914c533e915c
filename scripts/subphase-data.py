#!/usr/bin/python3
"""Writes vt LB data (STEM.0.json ... one file per rank) of one phase with two anti-correlated
subphases: the objects of the first half of the ranks spend HEAVY of their time in subphase 0,
those of the other half HEAVY of it in subphase 1 (a code whose ranks hold two kinds of work,
each done between the same two synchronisations). Each object's time is uniform in
[0.5, 1.5] ms, so that the ranks' phase loads are balanced to within noise while each
subphase's are not. Deterministic for a seed.

    scripts/subphase-data.py STEM [--ranks 8] [--objects-per-rank 32] [--heavy 0.8] [--seed 1]
"""

import argparse
import json
import random
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stem")
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--objects-per-rank", type=int, default=32)
    parser.add_argument("--heavy", type=float, default=0.8, help="an object's share of its time in its heavy subphase")
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args()
    if a.ranks < 2 or a.objects_per_rank < 1 or not 0.5 <= a.heavy <= 1:
        sys.exit(f"subphase-data.py: --ranks {a.ranks}, --objects-per-rank {a.objects_per_rank}, --heavy {a.heavy}; "
                 "accepted: at least 2 ranks, at least 1 object per rank, heavy in [0.5, 1]")
    rng = random.Random(a.seed)
    for rank in range(a.ranks):
        heavy_in = 0 if rank < a.ranks // 2 else 1
        tasks = []
        for k in range(a.objects_per_rank):
            time = rng.uniform(0.5e-3, 1.5e-3)
            parts = [time * a.heavy, time * (1 - a.heavy)]
            if heavy_in == 1:
                parts.reverse()
            tasks.append({"entity": {"type": "object", "id": rank * a.objects_per_rank + k, "home": rank,
                                     "migratable": True},
                          "node": rank, "resource": "cpu", "time": sum(parts),
                          "subphases": [{"id": s, "time": t} for s, t in enumerate(parts)]})
        document = {"metadata": {"type": "LBDatafile", "rank": rank}, "phases": [{"id": 0, "tasks": tasks}]}
        with open(f"{a.stem}.{rank}.json", "w") as out:
            json.dump(document, out)
            out.write("\n")


if __name__ == "__main__":
    main()
