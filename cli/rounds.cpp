// dlbkit rounds: the synchronous round engine (diffusion, SOS, Chebyshev, OPS, dimension exchange, GDE) and the
// time to sharing and balancing of the Liquid model and NNA.

#include "commands.hpp"

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/core/number.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/balance_time.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/rounds/round_engine.hpp>
#include <dlbkit/rounds/stochastic.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace dlbkit::cli {

namespace {

struct Options {
  std::string algorithm, topology, init, until, alpha, lambda;
  std::string max_steps = "1000000", seed = "1";
  std::string arrivals, work = "0", warmup = "0", steps_per_period = "1";
  std::string condition, nna_transfer, nna_time, rounding;
  int threads = 1;
  bool integer = false, json = false, trace = false;
};

double parse_real(const std::string& text, const std::string& what, const std::string& accepted) {
  double x = 0;
  if (!parse_number(text, x))
    throw InputError(fmt::format("{} '{}' is not accepted; accepted: {}", what, text, accepted));
  return x;
}

bool is_polynomial(const std::string& algorithm) {
  return algorithm == "sos" || algorithm == "chebyshev" || algorithm == "ops";
}

// The diffusion matrix of --alpha (diffusion, sos, chebyshev, ops).
DiffusionMatrix diffusion_matrix(const Options& o, const Topology& t) {
  if (o.alpha.empty()) return DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
  if (o.alpha == "optimal")
    return DiffusionMatrix::uniform(t, optimal_uniform_alpha(t, graph_laplacian_extremes(t)).alpha);
  if (o.alpha.starts_with("file:")) return DiffusionMatrix::from_edge_file(t, o.alpha.substr(5));
  if (o.alpha == "degree") return DiffusionMatrix::degree_weights(t);
  return DiffusionMatrix::uniform(
      t, parse_real(o.alpha, "--alpha", "a number in (0, 1/max degree], 'optimal', 'degree' or file:PATH"));
}

std::unique_ptr<RoundKernel> make_kernel(const Options& o, const Topology& t, std::uint64_t seed) {
  const Rounding rounding = o.rounding.empty() ? Rounding::deterministic : parse_rounding(o.rounding);
  if (!o.rounding.empty() && !o.integer)
    throw InputError("--rounding applies to integer loads only; add --integer");
  if (!o.rounding.empty() && o.algorithm != "diffusion" && !is_polynomial(o.algorithm))
    throw InputError(fmt::format("--rounding applies to diffusion, sos, chebyshev and ops, not to {}", o.algorithm));
  if (o.algorithm == "diffusion" || is_polynomial(o.algorithm)) {
    if (!o.lambda.empty()) throw InputError(fmt::format("--lambda applies to gde only; {} takes --alpha", o.algorithm));
    DiffusionMatrix m = diffusion_matrix(o, t);
    const PolynomialKernel::Options po{.rounding = rounding, .seed = seed};
    if (o.algorithm == "diffusion") {
      if (rounding == Rounding::deterministic) return std::make_unique<DiffusionKernel>(std::move(m));
      return std::make_unique<PolynomialKernel>(PolynomialKernel::fos(std::move(m), po));
    }
    SchemeSpectrum spectrum = scheme_spectrum(m);
    if (o.algorithm == "sos")
      return std::make_unique<PolynomialKernel>(PolynomialKernel::sos(std::move(m), spectrum.gamma, po));
    if (o.algorithm == "chebyshev")
      return std::make_unique<PolynomialKernel>(PolynomialKernel::chebyshev(std::move(m), spectrum.gamma, po));
    if (!spectrum.laplacian_eigenvalues)
      throw InputError(fmt::format("ops needs every eigenvalue of the diffusion matrix; on {} they are known in closed "
                                   "form only for a uniform alpha on hypercubes, tori, rings and meshes, and by the "
                                   "dense solver up to {} nodes",
                                   t.spec(), kDenseEigenLimit));
    if (spectrum.laplacian_eigenvalues->size() > kMaxOpsEigenvalues)
      throw InputError(fmt::format(
          "ops on {} is refused: its Laplacian has {} distinct eigenvalues, and OPS (DFM99) takes one step per "
          "non-zero one, {} steps, after Leja-ordering them (quadratic in their number); accepted: networks with at "
          "most {} distinct Laplacian eigenvalues (hypercubes; tori up to 256x256)",
          t.spec(), spectrum.laplacian_eigenvalues->size(), spectrum.laplacian_eigenvalues->size() - 1,
          kMaxOpsEigenvalues));
    return std::make_unique<PolynomialKernel>(
        PolynomialKernel::ops(std::move(m), std::move(*spectrum.laplacian_eigenvalues), po));
  }
  if (!o.alpha.empty())
    throw InputError(fmt::format("--alpha applies to diffusion, sos, chebyshev and ops only, not to {}", o.algorithm));
  if (o.algorithm == "dimension-exchange") {
    if (!o.lambda.empty())
      throw InputError("--lambda applies to gde only; dimension-exchange always halves (lambda = 1/2)");
    return std::make_unique<DimensionExchangeKernel>(DimensionExchangeKernel::hypercube(t));
  }
  if (o.algorithm == "gde") {
    const double lambda =
        o.lambda.empty() ? 0.5 : parse_real(o.lambda, "--lambda", "a number with 0 < lambda < 1");
    return std::make_unique<DimensionExchangeKernel>(
        DimensionExchangeKernel::generalized(t, edge_coloring(t), lambda));
  }
  throw InputError(fmt::format("algorithm '{}' is not accepted; accepted: diffusion, sos, chebyshev, ops, "
                               "dimension-exchange, gde, lm, nna",
                               o.algorithm));
}

// The parameters the kernel runs with, defaults included: "alpha=0.2", "lambda=0.5, 7 colours".
std::string kernel_description(const RoundKernel& kernel) {
  if (const auto* d = dynamic_cast<const DiffusionKernel*>(&kernel)) return d->matrix().description();
  if (const auto* p = dynamic_cast<const PolynomialKernel*>(&kernel)) return p->description();
  const auto& x = dynamic_cast<const DimensionExchangeKernel&>(kernel);
  return fmt::format("lambda={}, {} colours", x.lambda(), x.colours());
}

// --arrivals: the stochastic model of Cyb89 eq. (12)/(17), measured beside Theorems 2 and 5.
int run_stochastic_model(const Options& o, const Topology& t, const RoundKernel& kernel, std::uint64_t seed) {
  const StopRule until = StopRule::parse(o.until);
  if (until.kind != StopRule::Kind::steps)
    throw InputError(fmt::format("--until {} is not accepted with --arrivals; accepted: steps:N (N periods)", o.until));
  if (o.integer) throw InputError("--integer is not accepted with --arrivals: the stochastic model is continuous");
  if (is_polynomial(o.algorithm))
    throw InputError(fmt::format("--arrivals is not accepted with {}: the stochastic model (Cyb89 eq. 12, 17) is "
                                 "defined for diffusion and dimension exchange",
                                 o.algorithm));
  if (o.threads != 1) throw InputError(fmt::format("--threads {} is not accepted with --arrivals; accepted: 1", o.threads));
  const auto max = std::numeric_limits<std::uint64_t>::max();
  StochasticOptions so{.arrivals = ArrivalDistribution::parse(o.arrivals),
                       .work = parse_real(o.work, "--work", "a number >= 0"),
                       .periods = until.steps,
                       .warmup = parse_unsigned(o.warmup, "--warmup", max),
                       .steps_per_period = parse_unsigned(o.steps_per_period, "--steps-per-period", max),
                       .trace = o.trace};
  std::vector<double> w = continuous_initial_load(o.init, t.size(), seed);
  const StochasticResult r = run_stochastic(kernel, w, so, seed);
  const double sigma2 = so.arrivals.variance();
  // The paper's bound for the scheme and, on the hypercube, the exact stationary value (stochastic.hpp).
  double bound = HUGE_VAL, exact = HUGE_VAL;
  std::string theorem;
  const bool cube = t.kind() == TopologyKind::hypercube;
  const auto d = static_cast<unsigned>(t.extents().size());
  if (const auto* diffusion = dynamic_cast<const DiffusionKernel*>(&kernel)) {
    theorem = "Theorem 2";
    bound = theorem2_bound(t.size(), sigma2, analyze_diffusion(diffusion->matrix(), 10.0).gamma, so.steps_per_period);
    if (cube && diffusion->matrix().uniform_alpha())
      exact = hypercube_diffusion_variance(d, *diffusion->matrix().uniform_alpha(), so.steps_per_period, sigma2);
  } else if (o.algorithm == "dimension-exchange") {
    theorem = "Theorem 5";
    bound = theorem5_bound(t.size(), sigma2);
    exact = hypercube_exchange_variance(d, so.steps_per_period, sigma2);
  }
  const auto finite = [](double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); };
  if (o.json) {
    nlohmann::json j = to_json(r, so);
    j["inputs"] = {{"algorithm", o.algorithm}, {"topology", t.spec()}, {"init", o.init}, {"until", until.to_string()},
                   {"alpha", o.alpha}, {"lambda", o.lambda}, {"seed", seed}};
    j["kernel"] = kernel_description(kernel);
    j["bound"] = finite(bound);
    j["bound_theorem"] = theorem.empty() ? nlohmann::json(nullptr) : nlohmann::json(theorem);
    j["exact_stationary_variance"] = finite(exact);
    fmt::print("{}\n", json_text(j));
    return 0;
  }
  fmt::print("{} ({}) on {} ({} nodes), arrivals {} (mu {:.6g}, sigma^2 {:.6g}), work c = {:.6g}, "
             "{} kernel step(s) per period\n\n",
             kernel.name(), kernel_description(kernel), t.spec(), t.size(), so.arrivals.to_string(),
             so.arrivals.mean(), sigma2, so.work, so.steps_per_period);
  fmt::print("  periods              {} ({} kernel steps), time average over the last {} after a warm-up of {}\n",
             r.periods, r.kernel_steps, r.samples, so.warmup);
  fmt::print("  E||w - w_bar||^2     {:.6g} +- {:.2g} (standard error, batch means)\n", r.variance, r.variance_stderr);
  if (!theorem.empty()) fmt::print("  bound ({})    {:.6g}\n", theorem, bound);
  if (std::isfinite(exact)) fmt::print("  exact stationary     {:.6g}\n", exact);
  fmt::print("  mean load            {:.6g}   (expected {:.6g} = mean w0 + periods (mu - c))\n", r.mean_load,
             r.expected_mean_load);
  fmt::print("  max - min            {:.6g}\n", r.max_min_difference);
  fmt::print("  time                 {:.3f} s\n", r.seconds);
  if (o.trace) {
    fmt::print("\n  period  ||w - w_bar||^2\n");
    for (std::size_t s = 0; s < r.trace.size(); ++s) fmt::print("  {:>6}  {:.9g}\n", s, r.trace[s]);
  }
  return 0;
}

// --algorithm lm | nna: integer loads until balanced (Definition 2) and shared, time in shifts.
int run_liquid_or_nna(const Options& o, const Topology& t, std::uint64_t seed) {
  const bool lm = o.algorithm == "lm";
  if (!o.alpha.empty() || !o.lambda.empty() || !o.arrivals.empty() || !o.rounding.empty())
    throw InputError(fmt::format("--alpha, --lambda, --rounding and --arrivals do not apply to {}", o.algorithm));
  if (o.work != "0" || o.warmup != "0" || o.steps_per_period != "1")
    throw InputError("--work, --warmup and --steps-per-period apply with --arrivals only");
  if (o.threads != 1) throw InputError(fmt::format("--threads {} is not accepted with {}; accepted: 1", o.threads, o.algorithm));
  if (lm && (!o.nna_transfer.empty() || !o.nna_time.empty()))
    throw InputError("--nna-transfer and --nna-time apply to --algorithm nna only");
  if (!lm && !o.condition.empty()) throw InputError("--condition applies to --algorithm lm only");
  BalanceOptions bo;
  bo.max_shifts = parse_unsigned(o.max_steps, "--max-steps", std::numeric_limits<std::uint64_t>::max());
  bo.record = o.trace;
  if (o.until == "balanced") {
    // Definition 2: the default tolerance D.
  } else if (o.until.starts_with("balanced:")) {
    bo.tolerance = static_cast<std::int64_t>(parse_unsigned(o.until.substr(9), "--until balanced:TOL",
                                                            std::numeric_limits<std::int64_t>::max()));
  } else if (o.until.starts_with("steps:")) {
    bo.stop_when_balanced = false;
    bo.max_shifts = parse_unsigned(o.until.substr(6), "--until steps:N", std::numeric_limits<std::uint64_t>::max());
  } else {
    throw InputError(fmt::format("--until {} is not accepted with {}; accepted: balanced (Definition 2: max - min <= "
                                 "D, and every node shared), balanced:TOL (max - min <= TOL) or steps:N (N shifts)",
                                 o.until, o.algorithm));
  }
  std::vector<std::int64_t> w = integer_initial_load(o.init, t.size(), seed);
  BalanceResult r;
  std::string description;
  if (lm) {
    const LiquidKernel k(t, parse_shift_condition(o.condition.empty() ? "c5" : o.condition));
    description = fmt::format("{} (Liquid model, condition {}, D = {})", k.name(), to_string(k.condition()),
                              k.dimensions());
    r = run_to_balance(k, w, bo);
  } else {
    const NnaKernel k(t, o.nna_transfer.empty() ? NnaTransfer::net : parse_nna_transfer(o.nna_transfer),
                      o.nna_time.empty() ? NnaTime::sequential : parse_nna_time(o.nna_time));
    description = fmt::format("nna (transfer {}, time {})", to_string(k.transfer()), to_string(k.time()));
    r = run_to_balance(k, w, bo);
  }
  if (o.json) {
    nlohmann::json j = to_json(r);
    j["inputs"] = {{"algorithm", o.algorithm}, {"topology", t.spec()}, {"init", o.init}, {"until", o.until},
                   {"condition", o.condition}, {"nna_transfer", o.nna_transfer}, {"nna_time", o.nna_time},
                   {"max_steps", o.max_steps}, {"seed", seed}};
    j["kernel"] = description;
    fmt::print("{}\n", json_text(j));
    return 0;
  }
  const auto when = [](const std::optional<std::uint64_t>& x) { return x ? std::to_string(*x) : std::string("not reached"); };
  const char* step_name = lm ? "sub-steps" : "iterations";
  fmt::print("{} on {} ({} nodes), integer loads from {}, until {}\n\n", description, t.spec(), t.size(), o.init,
             o.until);
  fmt::print("  shifts to sharing    {}   ({} {})\n", when(r.shifts_to_sharing), when(r.steps_to_sharing), step_name);
  fmt::print("  shifts to balancing  {}   ({} {}; balanced = max - min <= {})\n", when(r.shifts_to_balancing),
             when(r.steps_to_balancing), step_name, r.tolerance);
  const bool goal = r.balanced && (r.shared || r.total_initial < static_cast<std::int64_t>(t.size()));
  fmt::print("  shifts run           {}{}\n", r.shifts,
             !bo.stop_when_balanced || goal ? ""
             : r.fixed_point              ? "   (a fixed point: the loads no longer change; never balanced)"
                                          : "   (NOT balanced and shared: --max-steps reached)");
  fmt::print("  max - min            {}\n", r.max_min_difference);
  fmt::print("  total load           {}   (initially {})\n", r.total_final, r.total_initial);
  fmt::print("  time                 {:.3f} s\n", r.seconds);
  if (o.trace) {
    fmt::print("\n  {:>6}  loads\n", "shifts");
    for (const BalanceSnapshot& s : r.trace) fmt::print("  {:>6}  {}\n", s.shifts, fmt::join(s.loads, " "));
  }
  return 0;
}

}  // namespace

Run add_rounds(CLI::App& app) {
  auto* cmd = app.add_subcommand("rounds", "Run a synchronous balancing scheme on a load vector (round engine)");
  auto o = std::make_shared<Options>();
  cmd->add_option("--algorithm", o->algorithm,
                  "diffusion, sos, chebyshev, ops, dimension-exchange (hypercube), gde (any graph), lm (Liquid model, "
                  "torus) or nna (ring)")
      ->required();
  cmd->add_option("--topology", o->topology, "e.g. hypercube:20, torus:1024x1024 (see 'dlbkit list topologies')")
      ->required();
  cmd->add_option("--init", o->init, "initial load: spike, spike:AMOUNT, uniform:MAX or file:PATH (one per line)")
      ->required();
  cmd->add_option("--until", o->until,
                  "stop rule: steps:N, eps:X (relative error) or balanced:TOL (max - min); lm and nna: balanced "
                  "(Definition 2 and shared), balanced:TOL or steps:N (shifts)")
      ->required();
  cmd->add_option("--alpha", o->alpha,
                  "diffusion, sos, chebyshev, ops: a number, 'optimal', 'degree' (1/(max(d_i, d_j) + 1) per edge) or file:PATH "
                  "('u v alpha' lines); default 1/(max degree + 1)");
  cmd->add_option("--lambda", o->lambda, "gde: exchange parameter in (0, 1); default 0.5");
  cmd->add_option("--rounding", o->rounding,
                  "with --integer, diffusion/sos/chebyshev/ops: deterministic (default; toward zero), randomized "
                  "(up with the fractional part's probability) or flow-imitation (follow the continuous flow)");
  cmd->add_option("--max-steps", o->max_steps, "stop here even if the rule is not met (lm, nna: shifts)")
      ->capture_default_str();
  cmd->add_flag("--integer", o->integer, "integer loads (exactly conserved; rounding toward zero per edge)");
  cmd->add_option("--threads", o->threads, "1 or 2 (identical results)")->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of uniform:MAX, --arrivals and --rounding randomized")->capture_default_str();
  cmd->add_option("--arrivals", o->arrivals,
                  "stochastic model (Cyb89 eq. 12/17): new work per node and period, normal:MU:SIGMA, uniform:LO:HI "
                  "or exponential:MEAN; --until steps:N then counts periods");
  cmd->add_option("--work", o->work, "with --arrivals: work c completed per node and period")->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "with --arrivals: periods before the time average starts")
      ->capture_default_str();
  cmd->add_option("--steps-per-period", o->steps_per_period, "with --arrivals: kernel steps between arrivals")
      ->capture_default_str();
  cmd->add_option("--condition", o->condition, "lm: shift condition c0..c5 (Henrich Table 1); default c5");
  cmd->add_option("--nna-transfer", o->nna_transfer, "nna: net (default, fn. 3) or gross (eq. 5 as written)");
  cmd->add_option("--nna-time", o->nna_time,
                  "nna: shifts per iteration, sequential (default: right, then left) or simultaneous");
  cmd->add_flag("--json", o->json, "print one JSON document");
  cmd->add_flag("--trace", o->trace, "report the error norm ||w - w_bar|| after every step");
  return [o] {
    const Topology t = parse_topology(o->topology);
    if (o->algorithm == "lm" || o->algorithm == "nna")
      return run_liquid_or_nna(*o, t, parse_unsigned(o->seed, "--seed", std::numeric_limits<std::uint64_t>::max()));
    if (!o->condition.empty() || !o->nna_transfer.empty() || !o->nna_time.empty())
      throw InputError("--condition, --nna-transfer and --nna-time apply to --algorithm lm or nna only");
    const std::uint64_t seed = parse_unsigned(o->seed, "--seed", std::numeric_limits<std::uint64_t>::max());
    const std::unique_ptr<RoundKernel> kernel = make_kernel(*o, t, seed);
    if (!o->arrivals.empty()) return run_stochastic_model(*o, t, *kernel, seed);
    if (o->work != "0" || o->warmup != "0" || o->steps_per_period != "1")
      throw InputError("--work, --warmup and --steps-per-period apply with --arrivals only");
    const std::uint64_t max_steps = parse_unsigned(o->max_steps, "--max-steps", std::numeric_limits<std::uint64_t>::max());
    RunOptions run{.until = StopRule::parse(o->until), .max_steps = max_steps, .threads = o->threads,
                   .trace = o->trace};
    RoundsResult r;
    if (o->integer) {
      std::vector<std::int64_t> w = integer_initial_load(o->init, t.size(), seed);
      r = run_rounds(*kernel, w, run);
    } else {
      std::vector<double> w = continuous_initial_load(o->init, t.size(), seed);
      r = run_rounds(*kernel, w, run);
    }
    const double rate = r.seconds > 0 ? static_cast<double>(r.steps) * static_cast<double>(t.size()) / r.seconds : 0;
    if (o->json) {
      nlohmann::json j = to_json(r);
      j["inputs"] = {{"algorithm", o->algorithm}, {"topology", t.spec()},  {"init", o->init},
                     {"until", run.until.to_string()}, {"alpha", o->alpha}, {"lambda", o->lambda},
                     {"rounding", o->rounding}, {"max_steps", max_steps}, {"integer", o->integer}, {"threads", o->threads},
                     {"seed", seed}};
      j["node_updates_per_second"] = rate;
      j["kernel"] = kernel_description(*kernel);
      fmt::print("{}\n", json_text(j));
      return 0;
    }
    fmt::print("{} ({}) on {} ({} nodes), {} loads from {}, until {}\n\n", kernel->name(), kernel_description(*kernel),
               t.spec(), t.size(),
               o->integer ? fmt::format("integer (rounding {})", o->rounding.empty() ? "deterministic" : o->rounding)
                          : std::string("continuous"),
               o->init, run.until.to_string());
    fmt::print("  steps                {}{}\n", r.steps,
               r.stop_rule_met ? "" : "   (stop rule NOT met: --max-steps reached)");
    fmt::print("  max - min            {:.6g}\n", r.max_min_difference);
    fmt::print("  ||w - w_bar||        {:.6g}   (initially {:.6g}; relative {:.3g})\n", r.final_error, r.initial_error,
               r.relative_error);
    fmt::print("  total load           {:.17g}   (initially {:.17g})\n", r.total_final, r.total_initial);
    fmt::print("  time                 {:.3f} s   ({:.3g} node-updates/s)\n", r.seconds, rate);
    if (o->trace) {
      fmt::print("\n  step  ||w - w_bar||\n");
      for (std::size_t s = 0; s < r.trace.size(); ++s) fmt::print("  {:>4}  {:.9g}\n", s, r.trace[s]);
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
