"""Every strategy's speedup over NOBAL against the number of nodes, on hypercubes of 2 to 1024
nodes: WLR93 Fig. 6 (artificial workload, the iPSC/2 cost model), with 95% confidence
intervals over the seeds, run with dlbkit.sweep on every core.

    python3 python/examples/speedup_vs_n.py                  # about 3 minutes on 2 idle cores
                                                             # (5.6 min while 3 other builds ran)
    python3 python/examples/speedup_vs_n.py --seeds 10       # narrower bands, ~3x longer

The default takes only 3 seeds per point (wide intervals: Student's t with two degrees of
freedom is 4.3) to stay near 3 minutes; the diffusion agents (diffusion, sos, chebyshev)
take most of it, about 15 s a run at N = 1024. nna is left out: it is defined on rings only.
Writes docs/figures/python/speedup_vs_n.png and the summary beside it (.csv).
DLBKIT_EXAMPLE_TINY=1 (or --tiny) runs a few seconds' version, for the tests.
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import pandas  # noqa: E402

import dlbkit  # noqa: E402

WLR93 = ["gm", "sid", "rid", "hbm", "dem"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def accepts(strategy, topology):
    """Whether the strategy runs on the network (semi_distributed needs 8 nodes or more): a run
    stopped after one event raises RuntimeError, a network refused raises ValueError."""
    try:
        dlbkit.simulate(strategy=strategy, topology=topology, max_events=1)
    except ValueError:
        return False
    except RuntimeError:
        pass
    return True


def main():
    tiny = os.environ.get("DLBKIT_EXAMPLE_TINY") == "1"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per point (default 3)")
    parser.add_argument("--max-dim", type=int, default=10, help="the largest hypercube dimension (default 10: 1024)")
    parser.add_argument("--granularity", type=int, default=100, help="g, tasks per node (WLR93 Fig. 6: 100)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--tiny", action="store_true", default=tiny, help="hypercubes up to 8 nodes, g = 5")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "figures", "python", "speedup_vs_n.png"))
    args = parser.parse_args()
    if args.tiny:
        args.max_dim, args.granularity = 3, 5

    strategies = [s["name"] for s in dlbkit.strategies() if s["name"] not in ("none", "nna")]
    sizes = {f"hypercube:{d}": 2 ** d for d in range(1, args.max_dim + 1)}
    # One sweep per set of networks the strategies accept, the largest networks first, so that
    # the longest runs do not end a sweep on one core.
    groups = {}
    for name in strategies:
        groups.setdefault(tuple(t for t in reversed(sizes) if accepts(name, t)), []).append(name)
    summaries = [dlbkit.sweep(names, list(topologies), workload_params={"granularity": args.granularity},
                              seeds=args.seeds, jobs=args.jobs).summary for topologies, names in groups.items()]
    summary = pandas.concat(summaries, ignore_index=True)
    summary = summary.assign(N=summary["topology"].map(sizes)).sort_values(["strategy", "N"])
    print(summary[["strategy", "N", "n", "speedup", "speedup_ci95"]].to_string(index=False))

    # Two panels: the strategies of WLR93 Fig. 6, and the others; each mean with its 95% band.
    fig, axes = plt.subplots(1, 2, figsize=(13, 5.5), sharey=True)
    best = summary.assign(bound=summary["nobal_makespan"] / summary["optimal"]).groupby("N")["bound"].mean()
    for ax, names in zip(axes, [WLR93, sorted(set(summary["strategy"]) - set(WLR93))]):
        for name in names:
            rows = summary[summary["strategy"] == name]
            line, = ax.plot(rows["N"], rows["speedup"], marker="o", ms=3, label=name)
            ax.fill_between(rows["N"], (rows["speedup"] - rows["speedup_ci95"]).clip(lower=0),
                            rows["speedup"] + rows["speedup_ci95"], color=line.get_color(), alpha=0.15, lw=0)
        # The best any strategy can do: NOBAL's makespan over the work spread evenly.
        ax.plot(best.index, best.values, "k--", label="optimal")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("N (hypercube nodes)")
        ax.legend(ncol=2, fontsize=8, loc="upper left")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("speedup over NOBAL")
    axes[0].set_ylim(bottom=0)
    axes[0].set_title("WLR93's strategies (Fig. 6)", fontsize=10)
    axes[1].set_title("the other strategies", fontsize=10)
    fig.suptitle(f"Speedup vs system size: artificial workload g = {args.granularity}, ipsc2 cost model; "
                 f"mean and 95% confidence band over {args.seeds} seeds", fontsize=11)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=100, bbox_inches="tight")
    summary.to_csv(os.path.splitext(args.out)[0] + ".csv", index=False)  # the figure's numbers
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
