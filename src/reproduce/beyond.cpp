// Beyond Cybenko: the successors of first-order diffusion measured beside what their papers
// predict. See docs/reproductions/beyond.md for the sources and the reading of each column.

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/workloads/builtin.hpp>
#include "reproduce/beyond.hpp"
#include "reproduce/trials.hpp"
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/rounds/round_engine.hpp>
#include <dlbkit/strategies/builtin.hpp>

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

std::string steps_text(const std::optional<std::uint64_t>& s) { return s ? std::to_string(*s) : std::string("-"); }

ReproductionReport steps(const ReproductionOptions& options, bool large) {
  make_directory(options.out_dir);
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
    const RoundsResult r = run_rounds(*k, w, {.until = StopRule::parse("eps:1e-6"), .max_steps = cap});
    if (r.stop_rule_met) row.measured[scheme] = r.steps;
    else row.note[scheme] = fmt::format("> {}", r.steps);
  });

  ReproductionReport report;
  std::string& out = report.text;
  out += fmt::format("Steps until ||w - w_bar|| <= 1e-6 ||w0 - w_bar||, spike on node 0, alpha = 1/(degree + 1), "
                     "measured | predicted from the spectrum\n\n");
  out += fmt::format("{:<18}{:>10}{:>14}{:>8} |", "topology", "n", "1 - gamma", "m");
  for (const char* s : kSchemes) out += fmt::format("{:>24}", fmt::format("{} meas | pred", s));
  out += "\n";
  std::vector<std::vector<std::string>> csv_rows;
  nlohmann::json points = nlohmann::json::array();
  for (const StepsRow& row : rows) {
    const std::optional<std::uint64_t> predicted[4] = {row.predicted.fos, row.predicted.sos, row.predicted.chebyshev,
                                                       row.predicted.ops};
    out += fmt::format("{:<18}{:>10}{:>14.6g}{:>8} |", row.topology, row.n, 1 - row.gamma,
                       row.distinct ? std::to_string(row.distinct) : "?");
    std::vector<std::string> csv{row.topology, std::to_string(row.n), csv_number(1 - row.gamma),
                                 std::to_string(row.distinct)};
    nlohmann::json point = {{"topology", row.topology}, {"n", row.n}, {"gamma", row.gamma},
                            {"distinct_eigenvalues", row.distinct}, {"step_cap", row.cap}};
    for (int s = 0; s < 4; ++s) {
      const std::string measured = row.measured[s] ? std::to_string(*row.measured[s]) : row.note[s];
      out += fmt::format("{:>24}", fmt::format("{} | {}", measured, steps_text(predicted[s])));
      csv.push_back(row.measured[s] ? std::to_string(*row.measured[s]) : "");
      csv.push_back(predicted[s] ? std::to_string(*predicted[s]) : "");
      point[kSchemes[s]] = {{"measured", row.measured[s] ? nlohmann::json(*row.measured[s]) : nlohmann::json()},
                            {"note", row.note[s]},
                            {"predicted", predicted[s] ? nlohmann::json(*predicted[s]) : nlohmann::json()}};
    }
    out += "\n";
    csv_rows.push_back(std::move(csv));
    points.push_back(std::move(point));
  }
  out += fmt::format(
      "\nm: distinct eigenvalues of L. Predictions: FOS gamma^t <= 1e-6 (Cyb89 eq. 11, a bound); SOS (beta - 1)^(t/2) "
      "(GMS96, the asymptotic rate); Chebyshev 2 r^t/(1 + r^(2t)) (DFM99, a bound); OPS m - 1 (DFM99, exact).\n"
      "'> N': not reached within the step cap (a budget of {:.3g} node-updates per run); 'refused': OPS with more "
      "than {} distinct eigenvalues.\n",
      budget, kMaxOpsEigenvalues);
  std::vector<std::string> header{"topology", "n", "one_minus_gamma", "distinct_eigenvalues"};
  for (const char* s : {"fos", "sos", "chebyshev", "ops"})
    for (const char* what : {"_measured", "_predicted"}) header.push_back(std::string(s) + what);
  const std::string name = large ? "beyond-steps-large" : "beyond-steps";
  const std::string csv = path_in(options, name + ".csv");
  write_csv(csv, header, csv_rows);
  report.files = {csv};
  report.data = {{"inputs", {{"init", "spike"}, {"alpha", "1/(degree + 1)"}, {"eps", 1e-6}, {"budget", budget}}},
                 {"points", points}};
  return report;
}

// ----- beyond-discrepancy -----

constexpr const char* kRoundings[] = {"deterministic", "randomized", "flow-imitation"};

struct DiscrepancyRow {
  std::string topology;
  std::size_t n = 0, d = 0;
  std::uint64_t steps = 0;
  bool converged = false;     // the continuous scheme shrank its error by 1e9 within the steps
  double continuous = 0;      // max - min of the continuous scheme after `steps`
  double measured[3] = {};    // mean over runs
  double worst[3] = {};
};

ReproductionReport discrepancy(const ReproductionOptions& options, bool large) {
  make_directory(options.out_dir);
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
    const RunOptions until{.until = StopRule::parse(fmt::format("steps:{}", row.steps)), .max_steps = row.steps};
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

  ReproductionReport report;
  std::string& out = report.text;
  out += fmt::format("Final max - min of integer first-order diffusion, alpha = 1/(d + 1), loads uniform in [0, 1000] "
                     "(seeds 1..{}), mean (worst) over the runs\n\n", runs);
  out += fmt::format("{:<18}{:>10}{:>4}{:>9}{:>12} |{:>16}{:>16}{:>16} |{:>6}{:>14}{:>8}\n", "topology", "n", "d",
                     "steps", "continuous", "deterministic", "randomized", "flow-imit.", "d", "sqrt(d ln n)", "2d");
  std::vector<std::vector<std::string>> csv_rows;
  nlohmann::json points = nlohmann::json::array();
  for (const DiscrepancyRow& row : rows) {
    const double d = static_cast<double>(row.d), root = std::sqrt(d * std::log(static_cast<double>(row.n)));
    out += fmt::format("{:<18}{:>10}{:>4}{:>9}{:>12.3g} |", row.topology, row.n, row.d,
                       fmt::format("{}{}", row.steps, row.converged ? "" : "*"), row.continuous);
    for (int r = 0; r < 3; ++r) out += fmt::format("{:>16}", fmt::format("{:.3g} ({:g})", row.measured[r], row.worst[r]));
    out += fmt::format(" |{:>6}{:>14.3g}{:>8}\n", row.d, root, 2 * row.d);
    std::vector<std::string> csv{row.topology, std::to_string(row.n), std::to_string(row.d), std::to_string(row.steps),
                                 row.converged ? "1" : "0", csv_number(row.continuous)};
    nlohmann::json point = {{"topology", row.topology}, {"n", row.n}, {"d", row.d}, {"steps", row.steps},
                            {"continuous_converged", row.converged}, {"continuous_max_min", row.continuous},
                            {"sqrt_d_ln_n", root}};
    for (int r = 0; r < 3; ++r) {
      csv.push_back(csv_number(row.measured[r]));
      csv.push_back(csv_number(row.worst[r]));
      point[kRoundings[r]] = {{"mean", row.measured[r]}, {"worst", row.worst[r]}};
    }
    csv_rows.push_back(std::move(csv));
    points.push_back(std::move(point));
  }
  out += fmt::format(
      "\nsteps: until the continuous scheme shrinks its error by 1e9 (eq. 11), at most {:.3g} node-updates; '*': cut "
      "there, the continuous scheme (its max - min in 'continuous') has not converged.\nPublished orders (constants "
      "unknown): deterministic rounding Omega(d) (lower bound, Shiraga 2018); randomized diffusion O(sqrt(d log n)) "
      "(Shiraga 2018, for its own randomized algorithm);\nflow imitation: every node within d of the continuous load "
      "(Akbari, Berenbrink, Sauerwald: max - average <= 2d), so max - min <= 2d + continuous.\n",
      budget);
  std::vector<std::string> header{"topology", "n", "d", "steps", "continuous_converged", "continuous_max_min"};
  for (const char* r : {"deterministic", "randomized", "flow_imitation"})
    for (const char* what : {"_mean", "_worst"}) header.push_back(std::string(r) + what);
  const std::string name = large ? "beyond-discrepancy-large" : "beyond-discrepancy";
  const std::string csv = path_in(options, name + ".csv");
  write_csv(csv, header, csv_rows);
  report.files = {csv};
  report.data = {{"inputs", {{"init", "uniform:1000"}, {"alpha", "1/(d + 1)"}, {"runs", runs}, {"budget", budget}}},
                 {"points", points}};
  return report;
}

// ----- beyond-agents -----

struct AgentColumn {
  std::string label, strategy;
  std::map<std::string, std::string> params;
};

ReproductionReport agents(const ReproductionOptions& options) {
  make_directory(options.out_dir);
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
  ReproductionReport report;
  std::string& out = report.text;
  out += fmt::format("Each scheme as an agent: {}, WLR93's artificial workload g = {}, cost model ipsc2 (Table IV's "
                     "setting), mean of {} run(s)\n\n",
                     spec, granularity, runs);
  out += fmt::format("{:<16}{:>12}{:>10}{:>8}{:>12}{:>12}\n", "strategy", "T (s)", "speedup", "Pi", "transferred",
                     "messages");
  std::vector<std::vector<std::string>> csv_rows;
  nlohmann::json points = nlohmann::json::array();
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
    out += fmt::format("{:<16}{:>12.4g}{:>10.3f}{:>8.3f}{:>12}{:>12}\n", columns[c].label, mean.makespan, speedup, pi,
                       mean.tasks_transferred, mean.messages);
    csv_rows.push_back({columns[c].label, csv_number(mean.makespan), csv_number(speedup), csv_number(pi),
                        std::to_string(mean.tasks_transferred), std::to_string(mean.messages)});
    points.push_back({{"label", columns[c].label}, {"strategy", columns[c].strategy}, {"T", mean.makespan},
                      {"speedup", speedup}, {"pi", pi}, {"tasks_transferred", mean.tasks_transferred},
                      {"messages", mean.messages}});
  }
  out += "\nspeedup: NOBAL's makespan over the strategy's (WLR93 Table IV); Pi: eq. (36). Agents with their "
         "defaults (alpha auto, lambda 1/2, beta auto, period 10 ms).\n";
  const std::string csv = path_in(options, "beyond-agents.csv");
  write_csv(csv, {"strategy", "T", "speedup", "pi", "tasks_transferred", "messages"}, csv_rows);
  report.files = {csv};
  report.data = {{"inputs", {{"topology", spec}, {"granularity", granularity}, {"cost_model", "ipsc2"}, {"runs", runs}}},
                 {"columns", points}};
  return report;
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
