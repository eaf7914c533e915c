// dlbkit simulate, dlbkit demo.

#include "commands.hpp"

#include <dlbkit/apps/workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <charconv>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

std::map<std::string, std::string> assignments(const std::vector<std::string>& items, const std::string& what) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    auto [name, value] = split_assignment(item, what);
    if (!out.emplace(name, value).second) throw InputError(fmt::format("{}: '{}' is given twice", what, name));
  }
  return out;
}

std::uint64_t parse_seed(const std::string& text) {
  std::uint64_t seed = 0;
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(text.data(), last, seed);
  if (ec != std::errc() || end != last || text.empty())
    throw InputError(fmt::format("--seed: '{}' is not accepted; accepted: an integer from 0 to {}", text,
                                 std::numeric_limits<std::uint64_t>::max()));
  return seed;
}

void print_report(const ExperimentSetup& s, const ExperimentResult& r) {
  const SimulationResult& b = r.balanced;
  fmt::print("{} on {}, workload {} ({}), cost model {}, seed {}\n\n", s.strategy.name(), s.topology.spec(),
             s.workload.name(), s.workload.params.to_string(), s.cost.name, s.seed);
  if (!s.strategy.params.to_string().empty()) fmt::print("  strategy parameters  {}\n", s.strategy.params.to_string());
  fmt::print("  makespan             {:.4f} s\n", to_seconds(b.makespan));
  fmt::print("  optimal              {:.4f} s   (total work / N)\n", r.optimal);
  fmt::print("  NOBAL makespan       {:.4f} s\n", to_seconds(r.nobal.makespan));
  fmt::print("  speedup over NOBAL   {:.3f}\n", r.speedup);
  fmt::print("  Pi (eq. 36)          {:.3f}\n", r.pi);
  fmt::print("  tasks                {}\n", b.tasks_completed);
  fmt::print("  tasks transferred    {}\n", b.tasks_transferred);
  std::string kinds;
  for (std::size_t k = 0; k < b.message_kinds.size(); ++k)
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", b.message_kinds[k], b.messages_by_kind[k]);
  fmt::print("  messages             {}   ({})\n", b.messages(), kinds);
  const nlohmann::json nodes = to_json(s, r)["nodes"];
  fmt::print("  node time (mean)     busy {:.3f} s, overhead {:.3f} s, idle {:.3f} s\n", nodes["busy_mean"].get<double>(),
             nodes["overhead_mean"].get<double>(), nodes["idle_mean"].get<double>());
  fmt::print("  events               {} ({:.2f} M/s)\n", b.events,
             b.wall_seconds > 0 ? static_cast<double>(b.events) / b.wall_seconds / 1e6 : 0.0);
}

}  // namespace

Run add_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "Simulate one strategy on a workload, beside NOBAL on the same tasks");
  struct Options {
    std::string strategy, topology, workload = "artificial", cost = "ipsc2";
    std::vector<std::string> params, workload_params, cost_params;
    long long granularity = 0;
    std::string seed = "1";
    bool json = false, per_node = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("-s,--strategy", o->strategy, "strategy name (dlbkit list strategies)")->required();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-t,--topology", o->topology, "topology spec, e.g. hypercube:5")->required();
  cmd->add_option("-w,--workload", o->workload, "workload name (dlbkit list workloads)")->capture_default_str();
  cmd->add_option("--workload-param", o->workload_params, "workload parameter name=value (repeatable)");
  auto* granularity =
      cmd->add_option("-g,--granularity", o->granularity, "tasks per node: the workload's granularity parameter");
  cmd->add_option("-c,--cost", o->cost, "cost model preset (dlbkit list cost-models)")->capture_default_str();
  cmd->add_option("--cost-param", o->cost_params, "override a cost model field, e.g. latency=500us (repeatable)");
  cmd->add_option("--seed", o->seed, "random seed, 0 to 2^64-1: the same seed gives the same run")->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  cmd->add_flag("--per-node", o->per_node, "with --json: list each node's busy, overhead and idle time");
  return [o, granularity] {
    auto wparams = assignments(o->workload_params, "--workload-param");
    if (granularity->count() > 0) {
      if (wparams.count("granularity")) throw InputError("granularity is given both by --granularity and --workload-param");
      wparams["granularity"] = std::to_string(o->granularity);
    }
    const ExperimentSetup setup{
        .topology = parse_topology(o->topology),
        .strategy = builtin_strategies().configure(o->strategy, assignments(o->params, "--param")),
        .workload = builtin_workloads().configure(o->workload, wparams),
        .cost = make_cost_model(o->cost, assignments(o->cost_params, "--cost-param")),
        .seed = parse_seed(o->seed),
    };
    const ExperimentResult result = run_experiment(setup);
    if (o->json) fmt::print("{}\n", to_json(setup, result, o->per_node).dump(2));
    else print_report(setup, result);
    return 0;
  };
}

Run add_demo(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "demo", "WLR93 artificial workload on a 32-node iPSC/2 hypercube, with and without RID (as in Table IV)");
  auto runs = std::make_shared<int>(10);
  cmd->add_option("--runs", *runs, "random load distributions (seeds 1..runs)")->check(CLI::Range(1, 1000))->capture_default_str();
  return [runs] {
    const auto& strategies = builtin_strategies();
    struct Column {
      const char* title;
      StrategyChoice strategy;
      double paper_T, paper_pi, paper_transfers, paper_speedup;
    };
    const std::vector<Column> columns = {
        {"RID L_LOW=a", strategies.configure("rid", {}), 44.1, 0.65, 2862, 1.50},
        {"RID L_LOW=inf", strategies.configure("rid", {{"l_low", "inf"}}), 44.2, 0.65, 2820, 1.50},
    };
    fmt::print("WLR93 Table IV setting: hypercube:5, artificial workload g = 100, L = 8e8 loops, cost model ipsc2\n\n");
    fmt::print("{:>5} {:>9} {:>9}", "run", "optimal", "NOBAL");
    for (const auto& c : columns) fmt::print(" {:>14}", c.title);
    fmt::print("\n");
    std::vector<double> sum_T(columns.size()), sum_pi(columns.size()), sum_transfers(columns.size()), sum_speedup(columns.size());
    double sum_opt = 0, sum_nobal = 0;
    for (int run = 1; run <= *runs; ++run) {
      double optimal = 0, nobal = 0;
      std::vector<double> T;
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const ExperimentSetup setup{.topology = parse_topology("hypercube:5"),
                                    .strategy = columns[c].strategy,
                                    .workload = builtin_workloads().configure("artificial", {{"granularity", "100"}}),
                                    .cost = make_cost_model("ipsc2"),
                                    .seed = static_cast<std::uint64_t>(run)};
        const ExperimentResult r = run_experiment(setup);
        optimal = r.optimal;
        nobal = to_seconds(r.nobal.makespan);
        T.push_back(to_seconds(r.balanced.makespan));
        sum_T[c] += T.back();
        sum_pi[c] += r.pi;
        sum_transfers[c] += static_cast<double>(r.balanced.tasks_transferred);
        sum_speedup[c] += r.speedup;
      }
      sum_opt += optimal;
      sum_nobal += nobal;
      fmt::print("{:>5} {:>9.1f} {:>9.1f}", run, optimal, nobal);
      for (double t : T) fmt::print(" {:>14.1f}", t);
      fmt::print("\n");
    }
    const double n = *runs;
    fmt::print("\n{:<24} {:>9} {:>9}", "mean over runs", "optimal", "NOBAL");
    for (const auto& c : columns) fmt::print(" {:>14}", c.title);
    fmt::print("\n{:<24} {:>9.1f} {:>9.1f}", "T (s), dlbkit", sum_opt / n, sum_nobal / n);
    for (std::size_t c = 0; c < columns.size(); ++c) fmt::print(" {:>14.1f}", sum_T[c] / n);
    fmt::print("\n{:<24} {:>9.1f} {:>9.1f}", "T (s), paper", 32.8, 66.3);
    for (const auto& c : columns) fmt::print(" {:>14.1f}", c.paper_T);
    fmt::print("\n{:<24} {:>9.2f} {:>9.2f}", "Pi, dlbkit", 1.0, 0.0);
    for (std::size_t c = 0; c < columns.size(); ++c) fmt::print(" {:>14.2f}", sum_pi[c] / n);
    fmt::print("\n{:<24} {:>9.2f} {:>9.2f}", "Pi, paper", 1.0, 0.0);
    for (const auto& c : columns) fmt::print(" {:>14.2f}", c.paper_pi);
    fmt::print("\n{:<24} {:>9} {:>9}", "tasks transferred, dlbkit", "", 0);
    for (std::size_t c = 0; c < columns.size(); ++c) fmt::print(" {:>14.0f}", sum_transfers[c] / n);
    fmt::print("\n{:<24} {:>9} {:>9}", "tasks transferred, paper", "", 0);
    for (const auto& c : columns) fmt::print(" {:>14.0f}", c.paper_transfers);
    fmt::print("\n{:<24} {:>9.2f} {:>9.2f}", "speedup, dlbkit", sum_nobal / sum_opt, 1.0);
    for (std::size_t c = 0; c < columns.size(); ++c) fmt::print(" {:>14.2f}", sum_speedup[c] / n);
    fmt::print("\n{:<24} {:>9.2f} {:>9.2f}", "speedup, paper", 2.02, 1.0);
    for (const auto& c : columns) fmt::print(" {:>14.2f}", c.paper_speedup);
    fmt::print("\n\nspeedup is over NOBAL; Pi = (T_nobal - T_bal) / (T_nobal - T_op), WLR93 eq. (36).\n");
    return 0;
  };
}

}  // namespace dlbkit::cli
