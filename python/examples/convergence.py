"""Convergence of diffusion (FOS, Cyb89), second-order diffusion (SOS, GMS96), Chebyshev
acceleration (DFM99) and dimension exchange (generalized to the torus by an edge colouring,
lambda = 1/2, XL97) from a spike on a torus: ||w - w_bar|| after every step, computed from the
load vectors dlbkit.rounds records (loads=True), beside the rate gamma^t that
dlbkit.analyze predicts for diffusion (Cyb89 eq. 11).

    python3 python/examples/convergence.py          # torus:16x16, a few seconds

Writes docs/figures/python/convergence.png. DLBKIT_EXAMPLE_TINY=1 (or --tiny) runs on
torus:4x4, for the tests.
"""

import argparse
import os

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy  # noqa: E402

import dlbkit  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMES = [("diffusion", "diffusion (FOS)"), ("sos", "SOS"), ("chebyshev", "Chebyshev"),
           ("gde", "dimension exchange (lambda = 1/2)")]


def main():
    tiny = os.environ.get("DLBKIT_EXAMPLE_TINY") == "1"
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topology", default="torus:16x16", help="a torus (default torus:16x16)")
    parser.add_argument("--eps", default="1e-8", help="run each scheme until ||w - w_bar|| shrinks by this")
    parser.add_argument("--tiny", action="store_true", default=tiny, help="torus:4x4")
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "figures", "python", "convergence.png"))
    args = parser.parse_args()
    if args.tiny:
        args.topology = "torus:4x4"

    fig, ax = plt.subplots(figsize=(8, 5.5))
    longest = 0
    for algorithm, label in SCHEMES:
        # The same diffusion matrix for FOS, SOS and Chebyshev: alpha = 1/(max degree + 1).
        r = dlbkit.rounds(algorithm=algorithm, topology=args.topology, init="spike", until=f"eps:{args.eps}",
                          max_steps=100000, loads=True)
        w_bar = r.total_initial / r.loads.shape[1]
        error = numpy.linalg.norm(r.loads - w_bar, axis=1)  # one row per step
        ax.semilogy(numpy.arange(len(error)), error, label=f"{label}: {r.steps} steps")
        longest = max(longest, r.steps)
        print(f"{algorithm:10} {r.kernel:40} {r.steps:6} steps to shrink the error by {args.eps}")
    a = dlbkit.analyze(topology=args.topology, alpha=1 / (dlbkit.topology(args.topology).degree + 1))
    steps = numpy.arange(longest + 1)
    ax.semilogy(steps, r.initial_error * a.gamma ** steps, "k:", label=f"gamma^t, gamma = {a.gamma:.4f} (Cyb89 eq. 11)")
    ax.set_xlabel("step")
    ax.set_ylabel("||w - w_bar||")
    ax.set_title(f"Convergence from a spike on {args.topology}: diffusion, SOS, Chebyshev, dimension exchange",
                 fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, which="both")
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    fig.savefig(args.out, dpi=100, bbox_inches="tight")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
