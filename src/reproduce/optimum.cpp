// Every phase strategy beside the exact reference and the lower bound (optimum.hpp).

#include "reproduce/optimum.hpp"
#include "reproduce/render.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/milp.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/generators.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <vector>

namespace dlbkit {

namespace {

constexpr RealParam kTimeLimit{.name = "time_limit", .default_value = "60",
                               .description = "seconds for each workload's MILP", .min = 0.001, .max = 1e6};
constexpr IntegerParam kObjectsPerNode{.name = "objects_per_node", .default_value = "6",
                                       .description = "objects on each of the 16 nodes", .min = 1, .max = 1000};

std::vector<ParamSpec> optimum_params() { return {kTimeLimit, kObjectsPerNode}; }

ReproductionResult beside_optimum(const ReproductionOptions& options) {
  const Parameters params = Parameters::parse(optimum_params(), options.params, "reproduction phases-optimum");
  const double time_limit = params[kTimeLimit];
  const std::int64_t per_node = options.tiny ? 3 : params[kObjectsPerNode];
  // The mesh's torus, or the hypercube of the same size for the strategies that need one (hbm).
  const std::string torus = options.tiny ? "torus:2x2" : "torus:4x4", cube = options.tiny ? "hypercube:2" : "hypercube:4";

  Table table{.name = "phases-optimum",
              .title = fmt::format("Every phase strategy beside the optimum: the first phase of each workload, "
                                   "{} nodes x {} objects, MILP time limit {} s",
                                   parse_topology(torus).size(), per_node, time_limit),
              .columns = {{.name = "workload", .left = true, .quoted = true},
                          {.name = "strategy", .left = true, .quoted = true},
                          {.name = "imbalance_after", .label = "I after", .format = "{:.4f}"},
                          {.name = "objects_migrated", .label = "migrated"},
                          {.name = "above_optimum_percent", .label = "% above optimum", .format = "{:.2f}"},
                          {.name = "above_bound_percent", .label = "% above bound", .format = "{:.2f}"}}};
  nlohmann::json solved = nlohmann::json::object();
  for (const auto& w : builtin_phase_workloads().all()) {
    const Phase phase = builtin_phase_workloads()
                            .configure(w.name, {{"objects_per_node", std::to_string(per_node)}})
                            .create()
                            ->first_phase(parse_topology(torus).size(), 1);
    std::vector<Rebalanced> runs;
    std::vector<std::string> labels;
    for (const auto& s : builtin_phase_strategies().all()) {
      Topology topology = parse_topology(torus);
      if (s.check_topology) try {
          s.check_topology(topology);
        } catch (const InputError&) {
          topology = parse_topology(cube);
        }
      runs.push_back(rebalance(builtin_phase_strategies().configure(s.name, {}), phase, topology, {}));
      labels.push_back(s.name);
    }
    // greedy's local search, the one option that aims at the optimum.
    runs.push_back(rebalance(builtin_phase_strategies().configure("greedy", {{"improve", "true"}}), phase,
                             parse_topology(torus), {}));
    labels.push_back("greedy improve=true");
    // The MILP starts from the best strategy's mapping: out of time, it is never worse than they are.
    const auto better = [](const Rebalanced& a, const Rebalanced& b) { return a.after.max_load < b.after.max_load; };
    const MilpResult best =
        solve_milp(phase, {.time_limit = time_limit, .start = std::min_element(runs.begin(), runs.end(), better)->mapping});
    const double bound = best.max_load_lower_bound, mean = phase_figures(phase, phase.node_of).mean_load;
    const auto percent = [](double load, double reference) { return 100 * (load / reference - 1); };
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const Rebalanced& r = runs[k];
      table.rows.push_back({w.name, labels[k], r.after.imbalance,
                            static_cast<std::int64_t>(r.objects_migrated), percent(r.after.max_load, best.max_load),
                            percent(r.after.max_load, bound)});
    }
    table.rows.push_back({w.name, std::string(best.optimal ? "optimum (proven)" : "MILP (out of time)"),
                          std::max(0.0, best.max_load / mean - 1), static_cast<std::int64_t>(best.objects_migrated), 0.0,
                          percent(best.max_load, bound)});
    solved[w.name] = {{"optimal", best.optimal}, {"migrations_minimal", best.migrations_minimal},
                      {"objects", phase.objects.size()}};
  }
  Results results{.inputs = {{"topology", torus}, {"objects_per_node", per_node}, {"time_limit", time_limit},
                             {"milp", solved}},
                  .tables = {std::move(table)}};
  results.notes = {
      "I after: max / mean - 1 after one balancing step of the workload's first phase (seed 1; hbm on the hypercube "
      "of the size); % above optimum: the strategy's max load against the MILP's (COIN-OR CBC; its best mapping when "
      "out of time); % above bound: against the proven lower bound (lower_bound.hpp, raised to the solver's)."};
  return render(results, options);
}

}  // namespace

ReproductionInfo phases_optimum_reproduction() {
  return {.name = "phases-optimum",
          .description = "every phase strategy beside the MILP optimum and the lower bound on small phases",
          .source = "docs/phases.md (How far from the best)",
          .params = optimum_params(),
          .default_runs = 1,
          .run = beside_optimum,
          .scoreboard_skip = "no published figure: the strategies beside the optimum are our own comparison"};
}

}  // namespace dlbkit
