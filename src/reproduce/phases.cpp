// The phase strategies side by side on the synthetic iterative workloads (phases.hpp).

#include "reproduce/phases.hpp"
#include "reproduce/render.hpp"
#include <dlbkit/core/parallel_for.hpp>

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/topology/generators.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

struct Row {
  std::string workload, strategy, topology;
  std::size_t nodes = 0, objects = 0;
  double before = 0, after = 0;  // mean imbalance over the balancing steps
  std::size_t migrated = 0;      // per balancing step
  double crossing_before = 0, crossing_after = 0;  // bytes, mean over the steps
  double simulated = 0, wall = 0;                  // seconds per balancing step
  double application = 0, unbalanced = 0;          // seconds, the whole run
};

ReproductionResult side_by_side(const ReproductionOptions& options, bool large) {
  // A torus per size (the mesh's own network), or the hypercube of the same size for the
  // strategies that need one (hbm).
  std::vector<std::pair<std::string, std::string>> specs =
      options.tiny ? std::vector<std::pair<std::string, std::string>>{{"torus:4x4", "hypercube:4"}}
                   : std::vector<std::pair<std::string, std::string>>{{"torus:8x8", "hypercube:6"},
                                                                      {"torus:32x32", "hypercube:10"}};
  if (large && !options.tiny) specs.emplace_back("torus:256x256", "hypercube:16");
  const std::size_t phases = options.tiny ? 2 : large ? 2 : 10;
  const CostModel cost = make_cost_model("ipsc2");
  std::vector<Row> rows;
  const auto topology_for = [](const PhaseStrategyInfo& s, const std::pair<std::string, std::string>& spec) {
    if (!s.check_topology) return spec.first;
    try {
      s.check_topology(parse_topology(spec.first));
      return spec.first;
    } catch (const InputError&) {
      return spec.second;
    }
  };
  for (const auto& w : builtin_phase_workloads().all())
    for (const auto& spec : specs)
      for (const auto& s : builtin_phase_strategies().all())
        rows.push_back({.workload = w.name, .strategy = s.name, .topology = topology_for(s, spec)});
  // The largest runs first, so that the jobs end together.
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    return parse_topology(a.topology).size() > parse_topology(b.topology).size();
  });
  parallel_for(rows.size(), options.jobs, [&](std::size_t i) {
    Row& row = rows[i];
    const Topology topology = parse_topology(row.topology);
    auto workload = builtin_phase_workloads().configure(row.workload, {}).create();
    const PhaseRunResult run =
        run_phases(builtin_phase_strategies().configure(row.strategy, {}), *workload, topology,
                   {.phases = phases, .rebalance = {.cost = cost, .migration = {.per_object = cost.per_task}}});
    row.nodes = topology.size();
    row.objects = run.last.objects.size();
    const double steps = static_cast<double>(run.balancing_steps);
    for (const PhaseStep& step : run.steps) {
      const Rebalanced& r = *step.rebalanced;
      row.before += r.before.imbalance / steps;
      row.after += r.after.imbalance / steps;
      row.crossing_before += r.before.crossing_bytes / steps;
      row.crossing_after += r.after.crossing_bytes / steps;
      row.simulated += to_seconds(r.protocol_time + r.migration_time) / steps;
    }
    row.migrated = run.objects_migrated / run.balancing_steps;
    row.wall = run.wall_seconds / steps;
    row.application = run.application_seconds;
    row.unbalanced = run.unbalanced_seconds;
  });
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.workload, a.nodes) < std::tie(b.workload, b.nodes);
  });

  Table table{.name = large ? "phases-large" : "phases",
              .title = fmt::format("Every phase strategy on the synthetic workloads ({} phases, balanced after each; "
                                   "100 objects per node; cost model ipsc2), per balancing step",
                                   phases),
              .columns = {{.name = "workload", .left = true, .quoted = true},
                          {.name = "nodes"},
                          {.name = "strategy", .left = true, .quoted = true},
                          {.name = "topology", .left = true, .quoted = true},
                          {.name = "imbalance_before", .label = "I before", .format = "{:.3f}"},
                          {.name = "imbalance_after", .label = "I after", .format = "{:.3f}"},
                          {.name = "objects_migrated", .label = "migrated"},
                          {.name = "crossing_bytes_after", .label = "crossing MB", .format = "{:.1f}"},
                          {.name = "simulated_seconds", .label = "sim. s", .format = "{:.4f}"},
                          {.name = "wall_seconds", .label = "wall s", .format = "{:.3f}"},
                          {.name = "application_seconds", .label = "app. s", .format = "{:.3f}"},
                          {.name = "unbalanced_seconds", .label = "unbal. s", .format = "{:.3f}"}}};
  for (const Row& r : rows)
    table.rows.push_back({r.workload, static_cast<std::int64_t>(r.nodes), r.strategy, r.topology, r.before, r.after,
                          static_cast<std::int64_t>(r.migrated), r.crossing_after / 1e6, r.simulated, r.wall,
                          r.application, r.unbalanced});
  nlohmann::json topologies = nlohmann::json::array();
  for (const auto& [torus, cube] : specs) topologies.push_back({torus, cube});
  Results results{.inputs = {{"topologies", topologies}, {"phases", phases}, {"cost_model", "ipsc2"},
                             {"objects_per_node", 100}},
                  .tables = {std::move(table)}};
  // A figure per workload: imbalance after against N, a line per strategy, from a table of its
  // own (nodes, then a column per strategy) written for the figure alone.
  const std::string stem = large ? "phases-large" : "phases";
  for (const auto& w : builtin_phase_workloads().all()) {
    Table curves{.name = stem + "-" + w.name, .columns = {{.name = "nodes"}}, .printed = false};
    Panel panel{.title = "workload " + w.name};
    for (const auto& s : builtin_phase_strategies().all()) {
      curves.columns.push_back({.name = s.name});
      if (s.name != "none") panel.series.push_back({.y = s.name});
    }
    for (const auto& spec : specs) {
      const auto nodes = static_cast<std::int64_t>(parse_topology(spec.first).size());
      std::vector<Cell> cells{nodes};
      for (const auto& s : builtin_phase_strategies().all())
        for (const Row& r : rows)
          if (r.workload == w.name && r.strategy == s.name && static_cast<std::int64_t>(r.nodes) == nodes)
            cells.emplace_back(r.after);
      curves.rows.push_back(std::move(cells));
    }
    results.tables.push_back(std::move(curves));
    results.figures.push_back({.name = stem + "-" + w.name,
                               .table = stem + "-" + w.name,
                               .xlabel = "nodes",
                               .ylabel = "imbalance after balancing (max / mean - 1)",
                               .x = "nodes",
                               .panels = {std::move(panel)},
                               .log_x = 2,
                               .y_from_zero = true,
                               .key = "top left"});
  }
  results.notes = {
      "I: max / mean - 1 of the phase's loads before and after balancing (means over the balancing steps); migrated: "
      "objects per step; crossing MB: halo bytes between objects on different nodes after balancing; sim. s: the "
      "protocol's and migrations' simulated time per step (ipsc2, an object's migration at its per_task, 6 us); wall "
      "s: this machine's time to decide, per step; app. s: the sum of the phases' times, each its max load and its "
      "halos between nodes at ipsc2's message costs, beside the same never balanced."};
  return render(results, options);
}

}  // namespace

std::vector<ReproductionInfo> phases_reproductions() {
  const char* const kOwn = "no published figure: the phase strategies side by side are our own comparison";
  return {
      {.name = "phases",
       .description = "every phase strategy on every synthetic iterative workload at 64 and 1024 nodes",
       .source = "docs/phases.md (Charm++ GreedyLB and RefineLB, vt's TemperedLB, Cyb89, Scotch)",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return side_by_side(o, false); },
       .scoreboard_skip = kOwn},
      {.name = "phases-large",
       .description = "phases at 64, 1024 and 65 536 nodes (6.5 M objects; long)",
       .source = "docs/phases.md",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return side_by_side(o, true); },
       .scoreboard_skip = kOwn},
  };
}

}  // namespace dlbkit
