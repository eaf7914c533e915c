// `dlbkit rounds` between reading its options and printing (moved from the CLI, which prints
// this report as text or JSON; the Python module returns it).

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
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/rounds/rounds_command.hpp>
#include <dlbkit/rounds/stochastic.hpp>
#include <dlbkit/topology/topology.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace dlbkit {

namespace {

constexpr auto kMaxUnsigned = std::numeric_limits<std::uint64_t>::max();

double parse_real(const std::string& text, const std::string& what, const std::string& accepted) {
  double x = 0;
  if (!parse_number(text, x))
    throw InputError(fmt::format("{} '{}' is not accepted; accepted: {}", what, text, accepted));
  return x;
}

bool is_polynomial(const std::string& algorithm) {
  return algorithm == "sos" || algorithm == "chebyshev" || algorithm == "ops";
}

// The loads of every step are kept only when (the steps the run may take + 1) x nodes is bounded.
void check_recorded_loads(std::uint64_t max_steps, std::size_t nodes) {
  const double values = (static_cast<double>(max_steps) + 1) * static_cast<double>(nodes);
  if (values > static_cast<double>(kMaxRecordedLoads))
    throw InputError(fmt::format("recording the loads of every step needs up to {:.0f} values ((max steps {} + 1) x {} "
                                 "nodes); accepted: at most {} (a lower --max-steps, or --until steps:N)",
                                 values, max_steps, nodes, kMaxRecordedLoads));
}

// The diffusion matrix of --alpha (diffusion, sos, chebyshev, ops).
DiffusionMatrix diffusion_matrix(const RoundsInputs& o, const Topology& t) {
  if (o.alpha.empty()) return DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
  if (o.alpha == "optimal")
    return DiffusionMatrix::uniform(t, optimal_uniform_alpha(t, graph_laplacian_extremes(t)).alpha);
  if (o.alpha.starts_with("file:")) return DiffusionMatrix::from_edge_file(t, o.alpha.substr(5));
  if (o.alpha == "degree") return DiffusionMatrix::degree_weights(t);
  return DiffusionMatrix::uniform(
      t, parse_real(o.alpha, "--alpha", "a number in (0, 1/max degree], 'optimal', 'degree' or file:PATH"));
}

std::unique_ptr<RoundKernel> make_kernel(const RoundsInputs& o, const Topology& t, std::uint64_t seed) {
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
nlohmann::json stochastic_model(const RoundsInputs& o, const Topology& t, const RoundKernel& kernel, std::uint64_t seed) {
  const StopRule until = StopRule::parse(o.until);
  if (until.kind != StopRule::Kind::steps)
    throw InputError(fmt::format("--until {} is not accepted with --arrivals; accepted: steps:N (N periods)", o.until));
  if (o.integer) throw InputError("--integer is not accepted with --arrivals: the stochastic model is continuous");
  if (is_polynomial(o.algorithm))
    throw InputError(fmt::format("--arrivals is not accepted with {}: the stochastic model (Cyb89 eq. 12, 17) is "
                                 "defined for diffusion and dimension exchange",
                                 o.algorithm));
  if (o.threads != 1) throw InputError(fmt::format("--threads {} is not accepted with --arrivals; accepted: 1", o.threads));
  if (o.record_loads)
    throw InputError("the loads of every step are not recorded with --arrivals; accepted: the error norm (trace)");
  StochasticOptions so{.arrivals = ArrivalDistribution::parse(o.arrivals),
                       .work = parse_real(o.work, "--work", "a number >= 0"),
                       .periods = until.steps,
                       .warmup = parse_unsigned(o.warmup, "--warmup", kMaxUnsigned),
                       .steps_per_period = parse_unsigned(o.steps_per_period, "--steps-per-period", kMaxUnsigned),
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
  nlohmann::json j = to_json(r, so);
  j["inputs"] = {{"algorithm", o.algorithm}, {"topology", t.spec()}, {"init", o.init}, {"until", until.to_string()},
                 {"alpha", o.alpha}, {"lambda", o.lambda}, {"seed", seed}};
  j["kernel"] = kernel_description(kernel);
  j["bound"] = finite(bound);
  j["bound_theorem"] = theorem.empty() ? nlohmann::json(nullptr) : nlohmann::json(theorem);
  j["exact_stationary_variance"] = finite(exact);
  return j;
}

// --algorithm lm | nna: integer loads until balanced (Definition 2) and shared, time in shifts.
RoundsResult liquid_or_nna(const RoundsInputs& o, const Topology& t, std::uint64_t seed) {
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
  bo.max_shifts = parse_unsigned(o.max_steps, "--max-steps", kMaxUnsigned);
  bo.record = o.trace || o.record_loads;
  if (o.until == "balanced") {
    // Definition 2: the default tolerance D.
  } else if (o.until.starts_with("balanced:")) {
    bo.tolerance = static_cast<std::int64_t>(parse_unsigned(o.until.substr(9), "--until balanced:TOL",
                                                            std::numeric_limits<std::int64_t>::max()));
  } else if (o.until.starts_with("steps:")) {
    bo.stop_when_balanced = false;
    bo.max_shifts = parse_unsigned(o.until.substr(6), "--until steps:N", kMaxUnsigned);
  } else {
    throw InputError(fmt::format("--until {} is not accepted with {}; accepted: balanced (Definition 2: max - min <= "
                                 "D, and every node shared), balanced:TOL (max - min <= TOL) or steps:N (N shifts)",
                                 o.until, o.algorithm));
  }
  if (o.record_loads) check_recorded_loads(bo.max_shifts, t.size());  // a step takes at least one shift
  std::vector<std::int64_t> w = integer_initial_load(o.init, t.size(), seed);
  RoundsResult report{.nodes = t.size()};
  BalanceResult r;
  std::string description;
  if (lm) {
    const LiquidKernel k(t, parse_shift_condition(o.condition.empty() ? "c5" : o.condition));
    description = fmt::format("{} (Liquid model, condition {}, D = {})", k.name(), to_string(k.condition()),
                              k.dimensions());
    report.kernel_name = k.name();
    r = run_to_balance(k, w, bo);
  } else {
    const NnaKernel k(t, o.nna_transfer.empty() ? NnaTransfer::net : parse_nna_transfer(o.nna_transfer),
                      o.nna_time.empty() ? NnaTime::sequential : parse_nna_time(o.nna_time));
    description = fmt::format("nna (transfer {}, time {})", to_string(k.transfer()), to_string(k.time()));
    report.kernel_name = k.name();
    r = run_to_balance(k, w, bo);
  }
  if (o.record_loads) {
    report.loads.reserve(r.trace.size() * t.size());
    for (const BalanceSnapshot& s : r.trace) report.loads.insert(report.loads.end(), s.loads.begin(), s.loads.end());
    if (!o.trace) r.trace.clear();  // the JSON holds the loads only when asked for, as the CLI's --trace
  }
  report.json = to_json(r);
  report.json["inputs"] = {{"algorithm", o.algorithm}, {"topology", t.spec()}, {"init", o.init}, {"until", o.until},
                           {"condition", o.condition}, {"nna_transfer", o.nna_transfer}, {"nna_time", o.nna_time},
                           {"max_steps", o.max_steps}, {"seed", seed}};
  report.json["kernel"] = description;
  return report;
}

}  // namespace

RoundsResult rounds_command(const RoundsInputs& o) {
  const Topology t = parse_topology(o.topology);
  if (o.algorithm == "lm" || o.algorithm == "nna")
    return liquid_or_nna(o, t, parse_unsigned(o.seed, "--seed", kMaxUnsigned));
  if (!o.condition.empty() || !o.nna_transfer.empty() || !o.nna_time.empty())
    throw InputError("--condition, --nna-transfer and --nna-time apply to --algorithm lm or nna only");
  const std::uint64_t seed = parse_unsigned(o.seed, "--seed", kMaxUnsigned);
  const std::unique_ptr<RoundKernel> kernel = make_kernel(o, t, seed);
  RoundsResult report{.kernel_name = kernel->name(), .nodes = t.size()};
  if (!o.arrivals.empty()) {
    report.json = stochastic_model(o, t, *kernel, seed);
    return report;
  }
  if (o.work != "0" || o.warmup != "0" || o.steps_per_period != "1")
    throw InputError("--work, --warmup and --steps-per-period apply with --arrivals only");
  const std::uint64_t max_steps = parse_unsigned(o.max_steps, "--max-steps", kMaxUnsigned);
  RoundLoopOptions run{.until = StopRule::parse(o.until), .max_steps = max_steps, .threads = o.threads, .trace = o.trace,
                 .record_loads = o.record_loads};
  if (o.record_loads)
    check_recorded_loads(run.until.kind == StopRule::Kind::steps ? std::min(run.until.steps, max_steps) : max_steps,
                         t.size());
  RoundLoopResult r;
  if (o.integer) {
    std::vector<std::int64_t> w = integer_initial_load(o.init, t.size(), seed);
    r = run_rounds(*kernel, w, run);
  } else {
    std::vector<double> w = continuous_initial_load(o.init, t.size(), seed);
    r = run_rounds(*kernel, w, run);
  }
  const double rate = r.seconds > 0 ? static_cast<double>(r.steps) * static_cast<double>(t.size()) / r.seconds : 0;
  report.loads = std::move(r.loads);
  report.json = to_json(r);
  report.json["inputs"] = {{"algorithm", o.algorithm}, {"topology", t.spec()},  {"init", o.init},
                           {"until", run.until.to_string()}, {"alpha", o.alpha}, {"lambda", o.lambda},
                           {"rounding", o.rounding}, {"max_steps", max_steps}, {"integer", o.integer},
                           {"threads", o.threads}, {"seed", seed}};
  report.json["node_updates_per_second"] = rate;
  report.json["kernel"] = kernel_description(*kernel);
  return report;
}

}  // namespace dlbkit
