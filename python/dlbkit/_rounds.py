"""dlbkit.rounds and dlbkit.analyze: the round loop and the spectral analysis of diffusion,
as `dlbkit rounds` and `dlbkit analyze diffusion` (the same library functions)."""

import json as _json
import math

from . import _dlbkit, _Figures


class RoundsResult(_Figures):
    """One run of `dlbkit rounds --json`: every figure of its JSON as an attribute.

    The round loop (diffusion, sos, chebyshev, ops, dimension-exchange, gde): steps,
    stop_rule_met, max_min_difference, initial_error, final_error (||w - w_bar||),
    relative_error, total_initial, total_final, seconds, node_updates_per_second, kernel,
    inputs, trace (with trace=True: ||w - w_bar|| after steps 0, 1, ...).
    lm and nna: shifts, steps, shifts_to_sharing, shifts_to_balancing, steps_to_sharing,
    steps_to_balancing (None when not reached), shared, balanced, fixed_point, tolerance, ...
    With arrivals (the stochastic model): variance, variance_stderr, bound, bound_theorem,
    exact_stationary_variance, mean_load, ...

    loads (with rounds(..., loads=True)) is a float64 numpy array of shape (steps + 1, nodes):
    row s holds the loads after step s (row 0 the initial loads; lm: after every shift, nna:
    after every iteration; integer loads exactly, up to 2^53). None otherwise.
    """

    def __init__(self, figures, loads):
        super().__init__(figures)
        self.loads = loads

    def __repr__(self):
        return f"<RoundsResult {self.inputs['algorithm']} on {self.inputs['topology']}: {self.kernel}>"


class DiffusionAnalysis(_Figures):
    """`dlbkit analyze diffusion --json`: every figure as an attribute: gamma, lambda_2,
    lambda_n, one_minus_gamma, converges, theorem1, lemma2, optimal_alpha, variance_factor,
    steps (eq. 11), steps_kappa, schemes (the steps of fos, sos, chebyshev and ops), alpha,
    nodes, topology, eigen_method, inputs ..."""

    def __repr__(self):
        return f"<DiffusionAnalysis {self.topology}, {self.alpha}: gamma {self.gamma:.6g}>"


def _option(name, value):
    """An option's text as the CLI holds it: None is an option not given (""), and an empty
    text is refused as the CLI refuses it."""
    if value is None:
        return ""
    text = ("true" if value else "false") if isinstance(value, bool) else str(value)
    if text == "":
        raise ValueError(f"--{name}: '' is empty; accepted: a non-empty value")
    return text


def _int_option(name, value):
    """An option the CLI reads as a C int (threads)."""
    if isinstance(value, bool) or not isinstance(value, int) or not -2**31 <= value < 2**31:
        raise ValueError(f"--{name}: '{value}' is not accepted; accepted: a decimal integer")
    return value


def rounds(algorithm, topology, init, until, alpha=None, lambda_=None, integer=False, rounding=None,
           max_steps=1000000, seed=1, threads=1, arrivals=None, work=None, warmup=None, steps_per_period=None,
           condition=None, nna_transfer=None, nna_time=None, trace=False, loads=False):
    """Run a synchronous balancing scheme on a load vector: `dlbkit rounds`.

    algorithm         diffusion (FOS, Cyb89), sos (GMS96), chebyshev, ops (DFM99),
                      dimension-exchange (hypercube, Cyb89), gde (any graph, XL97),
                      lm (Liquid model, torus, Henrich) or nna (ring)          --algorithm
    topology          e.g. "hypercube:10", "torus:32x32"                        --topology
    init              initial load: "spike", "spike:AMOUNT", "uniform:MAX" or "file:PATH"
    until             stop rule: "steps:N", "eps:X" (relative error) or "balanced:TOL"
                      (max - min); lm and nna: "balanced", "balanced:TOL" or "steps:N" (shifts)
    alpha             diffusion, sos, chebyshev, ops: a number, "optimal", "degree" or
                      "file:PATH" (None: 1/(max degree + 1))
    lambda_           gde: the exchange parameter in (0, 1) (None: 0.5)          --lambda
    integer           integer loads, exactly conserved
    rounding          with integer: "deterministic" (None), "randomized" or "flow-imitation"
    max_steps         stop here even if until is not met (lm, nna: shifts)
    seed              of uniform:MAX, arrivals and randomized rounding
    threads           1 or 2 (identical results)
    arrivals          the stochastic model (Cyb89 eq. 12/17): "normal:MU:SIGMA",
                      "uniform:LO:HI" or "exponential:MEAN"; until "steps:N" counts periods
    work, warmup, steps_per_period   with arrivals (None: 0, 0, 1)
    condition         lm: shift condition c0..c5 (None: c5)
    nna_transfer      nna: "net" (None) or "gross";  nna_time: "sequential" (None) or "simultaneous"
    trace             the error norm after every step in .trace (lm, nna: the loads)
    loads             the load vector after every step as the numpy array .loads, of
                      (steps + 1) x nodes; refused (ValueError) when (max steps + 1) x nodes
                      could exceed 1e8 values: lower max_steps or use until "steps:N".
                      Not with arrivals.

    Returns a RoundsResult. The run releases the GIL. Raises ValueError with the CLI's
    message for bad input.
    """
    o = _option
    figures, recorded = _dlbkit.rounds(
        o("algorithm", algorithm), o("topology", topology), o("init", init), o("until", until), o("alpha", alpha),
        o("lambda", lambda_), o("max-steps", max_steps), o("seed", seed), o("arrivals", arrivals),
        o("work", work) if work is not None else "0", o("warmup", warmup) if warmup is not None else "0",
        o("steps-per-period", steps_per_period) if steps_per_period is not None else "1",
        o("condition", condition), o("nna-transfer", nna_transfer), o("nna-time", nna_time),
        o("rounding", rounding), _int_option("threads", threads),
        bool(integer), bool(trace), bool(loads))
    return RoundsResult(_json.loads(figures), recorded)


def analyze(topology, alpha="optimal", factor=1000):
    """Cybenko's analysis of one diffusion matrix: `dlbkit analyze diffusion`.

    topology  e.g. "hypercube:10", "torus:64x64"
    alpha     a number in (0, 1/max degree], "optimal", "degree" (1/(max(d_i, d_j) + 1) per
              edge) or "file:PATH" (lines "u v alpha")
    factor    the error reduction for the step counts of eq. 11 and the schemes (> 1)

    Returns a DiffusionAnalysis (Theorem 1, gamma, Lemma 2, the optimal alpha, the steps of
    FOS, SOS, Chebyshev and OPS). Raises ValueError with the CLI's message for bad input.
    """
    try:
        value = float(factor)
    except (TypeError, ValueError):
        value = math.nan
    if isinstance(factor, bool) or not math.isfinite(value):
        raise ValueError(f"--factor: '{factor}' is not accepted; accepted: a finite decimal number")
    return DiffusionAnalysis(_json.loads(_dlbkit.analyze_diffusion(_option("topology", topology),
                                                                   _option("alpha", alpha), value)))
