// Beyond Cybenko: the successors of first-order diffusion measured beside what their papers
// predict. See docs/reproductions/beyond.md for the sources and the reading of each column.

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include "reproduce/beyond.hpp"
#include "reproduce/render.hpp"
#include "reproduce/trials.hpp"
#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace {

// ----- beyond-steps -----

constexpr double kFactor = 1e6;                // error reduction, eps = 1e-6
constexpr const char* kSchemes[] = {"FOS", "SOS", "Chebyshev", "OPS"};

struct StepsRow {
  std::string topology;
  std::size_t n = 0;
  double gamma = 0;
  std::size_t distinct = 0;  // eigenvalues of L; 0 when unknown
  SchemePrediction predicted;
  std::uint64_t cap = 0;  // most steps run (a node-update budget)
  std::optional<std::uint64_t> measured[4];
  std::string note[4];
};

ReproductionResult steps(const ReproductionOptions& options, bool large) {
  std::vector<std::string> specs;
  for (int d = 6; d <= (options.tiny ? 7 : large ? 20 : 14); ++d) specs.push_back(fmt::format("hypercube:{}", d));
  for (int k = 16; k <= (options.tiny ? 16 : large ? 4096 : 128); k *= 2) specs.push_back(fmt::format("torus:{}x{}", k, k));
  // At most this many node-updates per run: FOS on the large tori needs millions of steps.
  const double budget = large ? 2.5e11 : 2e9;
  std::vector<StepsRow> rows(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    StepsRow& row = rows[i];
    const Topology t = parse_topology(specs[i]);
    row.topology = t.spec();
    row.n = t.size();
    const DiffusionMatrix m = DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
    const SchemeSpectrum s = scheme_spectrum(m);
    row.gamma = s.gamma;
    row.distinct = s.laplacian_eigenvalues ? s.laplacian_eigenvalues->size() : 0;
    row.predicted = predict_scheme_steps(s.gamma, row.distinct ? std::optional(row.distinct) : std::nullopt, kFactor);
    row.cap = static_cast<std::uint64_t>(std::max(1.0, std::min(1e7, budget / static_cast<double>(row.n))));
  }
  parallel_for(rows.size() * 4, options.jobs, [&](std::size_t job) {
    StepsRow& row = rows[job / 4];
    const std::size_t scheme = job % 4;
    const Topology t = parse_topology(row.topology);
    DiffusionMatrix m = DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
    std::unique_ptr<RoundKernel> k;
    if (scheme == 0) k = std::make_unique<DiffusionKernel>(std::move(m));
    if (scheme == 1) k = std::make_unique<PolynomialKernel>(PolynomialKernel::sos(std::move(m), row.gamma, {}));
    if (scheme == 2) k = std::make_unique<PolynomialKernel>(PolynomialKernel::chebyshev(std::move(m), row.gamma, {}));
    std::uint64_t cap = row.cap;
    if (scheme == 3) {
      if (row.distinct > kMaxOpsEigenvalues) {
        row.note[3] = fmt::format("refused: {} steps", row.distinct - 1);
        return;
      }
      const SchemeSpectrum s = scheme_spectrum(m);
      k = std::make_unique<PolynomialKernel>(PolynomialKernel::ops(std::move(m), *s.laplacian_eigenvalues, {}));
      cap = std::min(cap, 2 * static_cast<std::uint64_t>(row.distinct));
    }
    std::vector<double> w = continuous_initial_load("spike", t.size(), 1);
    const RoundLoopResult r = run_rounds(*k, w, {.until = StopRule::parse("eps:1e-6"), .max_steps = cap});
    if (r.stop_rule_met) row.measured[scheme] = r.steps;
    else row.note[scheme] = fmt::format("> {}", r.steps);
  });

  Table table{.name = large ? "beyond-steps-large" : "beyond-steps",
              .title = "Steps until ||w - w_bar|| <= 1e-6 ||w0 - w_bar||, spike on node 0, alpha = 1/(degree + 1), "
                       "measured beside predicted from the spectrum",
              .columns = {{.name = "topology", .left = true},
                          {.name = "n"},
                          {.name = "one_minus_gamma", .label = "1 - gamma"},
                          {.name = "distinct_eigenvalues", .label = "m"}}};
  const char* names[4] = {"fos", "sos", "chebyshev", "ops"};  // of the CSV's columns
  for (int s = 0; s < 4; ++s) {
    table.columns.push_back({.name = std::string(names[s]) + "_measured", .label = std::string(kSchemes[s]) + " meas"});
    table.columns.push_back({.name = std::string(names[s]) + "_predicted", .label = "pred"});
  }
  table.columns.push_back({.name = "not measured", .left = true, .written = false});
  table.columns.push_back({.name = "step cap", .printed = false, .written = false});
  for (const StepsRow& row : rows) {
    const std::optional<std::uint64_t> predicted[4] = {row.predicted.fos, row.predicted.sos, row.predicted.chebyshev,
                                                       row.predicted.ops};
    std::vector<Cell> cells{row.topology, static_cast<std::int64_t>(row.n), 1 - row.gamma,
                            static_cast<std::int64_t>(row.distinct)};
    std::vector<std::string> notes;
    for (int s = 0; s < 4; ++s) {
      cells.push_back(count_cell(row.measured[s]));
      cells.push_back(count_cell(predicted[s]));
      if (!row.note[s].empty()) notes.push_back(fmt::format("{} {}", kSchemes[s], row.note[s]));
    }
    cells.push_back(fmt::format("{}", fmt::join(notes, "; ")));
    cells.push_back(static_cast<std::int64_t>(row.cap));
    table.rows.push_back(std::move(cells));
  }
  Results results{.inputs = {{"init", "spike"}, {"alpha", "1/(degree + 1)"}, {"eps", 1e-6}, {"budget", budget}},
                  .tables = {std::move(table)}};
  results.notes = {
      "m: distinct eigenvalues of L (0: unknown). Predictions: FOS gamma^t <= 1e-6 (Cyb89 eq. 11, a bound); SOS "
      "(beta - 1)^(t/2) (GMS96, the asymptotic rate); Chebyshev 2 r^t/(1 + r^(2t)) (DFM99, a bound); OPS m - 1 "
      "(DFM99, exact).",
      fmt::format("'> N': not reached within the step cap (a budget of {:.3g} node-updates per run); 'refused': OPS "
                  "with more than {} distinct eigenvalues.",
                  budget, kMaxOpsEigenvalues)};
  return render(results, options);
}

// ----- beyond-discrepancy -----


struct DiscrepancyRow {
  std::string topology;
  std::size_t n = 0, d = 0;
  std::uint64_t steps = 0;
  bool converged = false;     // the continuous scheme shrank its error by 1e9 within the steps
  double continuous = 0;      // max - min of the continuous scheme after `steps`
  double measured[3] = {};    // mean over runs
  double worst[3] = {};
};

ReproductionResult discrepancy(const ReproductionOptions& options, bool large) {
  std::vector<std::string> specs;
  for (int d = 6; d <= (options.tiny ? 7 : large ? 24 : 14); d += 2) specs.push_back(fmt::format("hypercube:{}", d));
  for (int k = 16; k <= (options.tiny ? 16 : large ? 4096 : 64); k *= 2) specs.push_back(fmt::format("torus:{}x{}", k, k));
  const double budget = large ? 5e10 : 5e8;  // node-updates per run
  const auto runs = static_cast<std::size_t>(std::max(options.runs, 1));
  std::vector<DiscrepancyRow> rows(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const Topology t = parse_topology(specs[i]);
    DiscrepancyRow& row = rows[i];
    row.topology = t.spec();
    row.n = t.size();
    row.d = t.max_degree();
    const double gamma = scheme_spectrum(DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(row.d + 1))).gamma;
    const auto needed = *predict_scheme_steps(gamma, std::nullopt, 1e9).fos;
    const auto cap = static_cast<std::uint64_t>(std::max(1.0, budget / static_cast<double>(row.n)));
    row.steps = std::min(needed, cap);
    row.converged = needed <= cap;
  }
  // [row][rounding][run]; the continuous scheme as rounding index 3.
  std::vector<std::vector<std::vector<double>>> spread(
      rows.size(), std::vector<std::vector<double>>(4, std::vector<double>(runs)));
  parallel_for(rows.size() * 4 * runs, options.jobs, [&](std::size_t job) {
    const std::size_t i = job / (4 * runs), r = job / runs % 4, run = job % runs;
    DiscrepancyRow& row = rows[i];
    const Topology t = parse_topology(row.topology);
    DiffusionMatrix m = DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(row.d + 1));
    const RoundLoopOptions until{.until = StopRule::parse(fmt::format("steps:{}", row.steps)), .max_steps = row.steps};
    const std::uint64_t seed = run + 1;
    if (r == 3) {
      std::vector<double> w = continuous_initial_load("uniform:1000", t.size(), seed);
      spread[i][r][run] = run_rounds(DiffusionKernel(std::move(m)), w, until).max_min_difference;
      return;
    }
    std::vector<std::int64_t> w = integer_initial_load("uniform:1000", t.size(), seed);
    if (r == 0) {
      spread[i][r][run] = run_rounds(DiffusionKernel(std::move(m)), w, until).max_min_difference;
    } else {
      const PolynomialKernel k = PolynomialKernel::fos(
          std::move(m), {.rounding = r == 1 ? Rounding::randomized : Rounding::flow_imitation, .seed = seed});
      spread[i][r][run] = run_rounds(k, w, until).max_min_difference;
    }
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (int r = 0; r < 3; ++r) {
      for (double x : spread[i][r]) rows[i].measured[r] += x / static_cast<double>(runs);
      rows[i].worst[r] = *std::max_element(spread[i][r].begin(), spread[i][r].end());
    }
    rows[i].continuous = *std::max_element(spread[i][3].begin(), spread[i][3].end());
  }

  Table table{.name = large ? "beyond-discrepancy-large" : "beyond-discrepancy",
              .title = fmt::format("Final max - min of integer first-order diffusion, alpha = 1/(d + 1), loads uniform "
                                   "in [0, 1000] (seeds 1..{}), mean and worst over the runs",
                                   runs),
              .columns = {{.name = "topology", .left = true},
                          {.name = "n"},
                          {.name = "d"},
                          {.name = "steps"},
                          {.name = "continuous_converged", .label = "converged"},
                          {.name = "continuous_max_min", .label = "continuous", .format = "{:.3g}"}}};
  const char* names[3] = {"deterministic", "randomized", "flow_imitation"};  // of the CSV's columns
  const char* labels[3] = {"deterministic", "randomized", "flow-imit."};
  for (int r = 0; r < 3; ++r) {
    table.columns.push_back({.name = std::string(names[r]) + "_mean", .label = labels[r], .format = "{:.3g}"});
    table.columns.push_back({.name = std::string(names[r]) + "_worst", .label = "worst", .format = "{:g}"});
  }
  table.columns.push_back({.name = "sqrt(d ln n)", .format = "{:.3g}", .written = false});
  table.columns.push_back({.name = "2d", .written = false});
  for (const DiscrepancyRow& row : rows) {
    const double d = static_cast<double>(row.d);
    std::vector<Cell> cells{row.topology, static_cast<std::int64_t>(row.n), static_cast<std::int64_t>(row.d),
                            static_cast<std::int64_t>(row.steps), std::int64_t{row.converged ? 1 : 0}, row.continuous};
    for (int r = 0; r < 3; ++r) {
      cells.emplace_back(row.measured[r]);
      cells.emplace_back(row.worst[r]);
    }
    cells.emplace_back(std::sqrt(d * std::log(static_cast<double>(row.n))));
    cells.emplace_back(static_cast<std::int64_t>(2 * row.d));
    table.rows.push_back(std::move(cells));
  }
  Results results{.inputs = {{"init", "uniform:1000"}, {"alpha", "1/(d + 1)"}, {"runs", runs}, {"budget", budget}},
                  .tables = {std::move(table)}};
  results.notes = {
      fmt::format("steps: until the continuous scheme shrinks its error by 1e9 (eq. 11), at most {:.3g} node-updates; "
                  "converged 0: cut there, the continuous scheme (its max - min in 'continuous') has not converged.",
                  budget),
      "Published orders (constants unknown): deterministic rounding Omega(d) (lower bound, Shiraga 2018); randomized "
      "diffusion O(sqrt(d log n)) (Shiraga 2018, for its own randomized algorithm);",
      "flow imitation: every node within d of the continuous load (Akbari, Berenbrink, Sauerwald: max - average <= "
      "2d), so max - min <= 2d + continuous."};
  return render(results, options);
}

// ----- beyond-agents -----

struct AgentColumn {
  std::string label, strategy;
  std::map<std::string, std::string> params;
};

ReproductionResult agents(const ReproductionOptions& options) {
  const std::vector<AgentColumn> columns = {
      {"RID a", "rid", {}},
      {"DEM", "dem", {}},
      {"diffusion", "diffusion", {}},
      {"dim. exchange", "dimension_exchange", {}},
      {"SOS", "sos", {}},
      {"Chebyshev", "chebyshev", {}},
  };
  const std::string spec = options.tiny ? "hypercube:3" : "hypercube:5";
  const long long granularity = options.tiny ? 10 : 100;
  const Topology topology = parse_topology(spec);
  const CostModel cost = make_cost_model("ipsc2");
  const WorkloadChoice workload =
      builtin_workloads().configure("artificial", {{"granularity", std::to_string(granularity)}});
  std::vector<StrategyChoice> strategies{builtin_strategies().configure("none", {})};
  for (const AgentColumn& c : columns) strategies.push_back(builtin_strategies().configure(c.strategy, c.params));
  const auto runs = static_cast<std::size_t>(std::max(options.runs, 1));
  const auto results = simulate_seeds(topology, strategies, workload, cost, runs, options.jobs);
  Table table{.name = "beyond-agents",
              .title = fmt::format("Each scheme as an agent: {}, WLR93's artificial workload g = {}, cost model ipsc2 "
                                   "(Table IV's setting), mean of {} run(s)",
                                   spec, granularity, runs),
              .columns = {{.name = "strategy", .left = true}, {.name = "T", .label = "T (s)", .format = "{:.4g}"},
                          {.name = "speedup", .format = "{:.3f}"}, {.name = "pi", .label = "Pi", .format = "{:.3f}"},
                          {.name = "tasks_transferred", .label = "transferred"}, {.name = "messages"}}};
  nlohmann::json agents = nlohmann::json::array();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    Trial mean;
    double speedup = 0, pi = 0;
    for (std::size_t r = 0; r < runs; ++r) {
      const SimulationResult& nobal = results[0][r];
      const SimulationResult& x = results[c + 1][r];
      Trial t{.makespan = to_seconds(x.makespan), .nobal = to_seconds(nobal.makespan),
              .optimal = to_seconds(nobal.total_work) / static_cast<double>(topology.size()),
              .tasks_transferred = x.tasks_transferred, .messages = x.messages()};
      const double k = 1.0 / static_cast<double>(runs);
      mean.makespan += t.makespan * k;
      mean.tasks_transferred += t.tasks_transferred;
      mean.messages += t.messages;
      speedup += t.speedup() * k;
      pi += t.pi() * k;
    }
    mean.tasks_transferred /= runs;
    mean.messages /= runs;
    table.rows.push_back({columns[c].label, mean.makespan, speedup, pi, static_cast<std::int64_t>(mean.tasks_transferred),
                          static_cast<std::int64_t>(mean.messages)});
    agents.push_back({{"label", columns[c].label}, {"strategy", columns[c].strategy}, {"params", columns[c].params}});
  }
  Results out{.inputs = {{"topology", spec}, {"granularity", granularity}, {"cost_model", "ipsc2"}, {"runs", runs},
                         {"strategies", agents}},
              .tables = {std::move(table)}};
  out.notes = {"speedup: NOBAL's makespan over the strategy's (WLR93 Table IV); Pi: eq. (36). Agents with their "
               "defaults (alpha auto, lambda 1/2, beta auto, period 10 ms)."};
  return render(out, options);
}

}  // namespace

std::vector<ReproductionInfo> beyond_reproductions() {
  // These compare with the schemes' predicted step counts and asymptotic bounds, which hold up to
  // constants: there is no published figure for the scoreboard to put beside ours.
  const char* const kPredictionsOnly = "measured beside predicted step counts (asymptotic, up to constants), not published figures";
  const char* const kBoundsOnly = "measured beside asymptotic discrepancy bounds (up to constants), not published figures";
  return {
      {.name = "beyond-steps",
       .description = "steps to 1e-6 for FOS, SOS, Chebyshev and OPS on hypercubes d = 6..14 and tori 16x16..128x128, "
                      "beside the predictions",
       .source = "Cyb89 eq. 11; Ghosh, Muthukrishnan, Schultz SPAA'96; Diekmann, Frommer, Monien 1999",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return steps(o, false); },
       .scoreboard_skip = kPredictionsOnly},
      {.name = "beyond-steps-large",
       .description = "beyond-steps on hypercubes d = 6..20 and tori up to 4096x4096 (long)",
       .source = "Cyb89 eq. 11; GMS96; DFM99",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return steps(o, true); },
       .scoreboard_skip = kPredictionsOnly},
      {.name = "beyond-discrepancy",
       .description = "final max - min of integer diffusion, deterministic vs randomized rounding vs flow imitation, "
                      "hypercubes d = 6..14, tori 16x16..64x64",
       .source = "Shiraga 2018; Sauerwald & Sun 2012; Akbari, Berenbrink, Sauerwald 2016",
       .default_runs = 3,
       .run = [](const ReproductionOptions& o) { return discrepancy(o, false); },
       .scoreboard_skip = kBoundsOnly},
      {.name = "beyond-discrepancy-large",
       .description = "beyond-discrepancy up to 2^24 nodes (hypercube:24, torus:4096x4096; long)",
       .source = "Shiraga 2018; Sauerwald & Sun 2012; Akbari, Berenbrink, Sauerwald 2016",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return discrepancy(o, true); },
       .scoreboard_skip = kBoundsOnly},
      {.name = "beyond-agents",
       .description = "diffusion, dimension exchange, SOS and Chebyshev as agents on WLR93's Table IV setting",
       .source = "WLR93 Table IV setting; Cyb89; GMS96; DFM99",
       .default_runs = 4,
       .run = agents,
       .scoreboard_skip = "no published figure: the schemes as agents on WLR93's setting are our own experiment"},
  };
}

}  // namespace dlbkit
