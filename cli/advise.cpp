// dlbkit advise: which strategy to use on a target machine. The ranking is advise_command()'s
// (workloads/advise_command.hpp): the simulator's strategies on a workload or a recorded run,
// or the phase strategies on vt's LB data (--data); this prints it as a table or JSON.

#include "commands.hpp"
#include "progress_line.hpp"
#include "simulation_inputs.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/workloads/advise_command.hpp>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace dlbkit::cli {

namespace {

// The searched parameters as "name=value ...", or "(defaults)".
std::string searched_text(const std::map<std::string, std::string>& searched) {
  std::string s;
  for (const auto& [name, value] : searched) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s.empty() ? "(defaults)" : s;
}

// The rows that failed and the strategies not run, the table's last lines; `width` is the
// parameters' column.
void print_failed_and_not_run(const AdviceResult& r, int width) {
  for (const AdviceFailure& f : r.failed)
    fmt::print("   -  {:<18} {:<{}} failed: {}\n", f.strategy, searched_text(f.searched), width, f.error);
  if (r.not_run.empty()) return;
  fmt::print("\nnot run on {}:\n", r.inputs["topology"].get<std::string>());
  for (const StrategyNotRun& n : r.not_run) fmt::print("  {:<18} {}\n", n.strategy, n.reason);
}

void print_tasks_table(const AdviceResult& r) {
  const ExperimentSetup& base = *r.setup;
  fmt::print("advise: workload {} ({}) on {}, cost model {}, seed {}, {} execution\n", base.workload.name(),
             base.workload.params.to_string(), base.topology.spec(), base.cost.name, base.seed,
             to_string(base.execution));
  fmt::print("{} runs ranked by predicted makespan; optimal {:.6g} s (total work / N); parameters not shown are "
             "the strategy's defaults\n\n",
             r.ranking.size(), r.optimal);
  fmt::print("{:>4}  {:<18} {:<34} {:>12} {:>10} {:>11} {:>10}\n", "rank", "strategy", "parameters", "makespan s",
             "efficiency", "tasks moved", "messages");
  for (std::size_t i = 0; i < r.ranking.size(); ++i) {
    const AdviceRow& row = r.ranking[i];
    const SimulationResult& b = row.simulation->balanced;
    fmt::print("{:>4}  {:<18} {:<34} {:>#12.6g} {:>9.1f}% {:>11} {:>10}\n", i + 1, row.strategy,
               searched_text(row.searched), row.predicted_makespan, 100 * row.efficiency, b.tasks_transferred,
               b.messages());
  }
  print_failed_and_not_run(r, 34);
}

void print_data_table(const AdviceResult& r) {
  const nlohmann::json& in = r.inputs;
  const bool replay = in["replay"].get<bool>();
  const std::string what = replay ? fmt::format("its {} phases replayed", in["phases"].get<std::size_t>())
                                  : fmt::format("phase {}, the next phase predicted", in["phase"].get<std::int64_t>());
  fmt::print("advise: vt data {} ({} ranks, {} objects), {}, on {}, cost model {}, seed {}\n",
             in["data"].get<std::string>(), in["ranks"].get<std::size_t>(), in["objects"].get<std::size_t>(), what,
             in["topology"].get<std::string>(), in["cost_model"]["name"].get<std::string>(),
             in["seed"].get<std::uint64_t>());
  fmt::print("{} runs ranked by predicted {}; optimal {:.6g} s (total load / N); parameters not shown are the "
             "strategy's defaults\n\n",
             r.ranking.size(), replay ? "time of the phases" : "phase time", r.optimal);
  fmt::print("{:>4}  {:<18} {:<44} {:>12} {:>12} {:>10} {:>8} {:>9} {:>9}\n", "rank", "strategy", "parameters",
             replay ? "phases s" : "phase s", "balancing s", "efficiency", "I after", "migrated", "messages");
  for (std::size_t i = 0; i < r.ranking.size(); ++i) {
    const AdviceRow& row = r.ranking[i];
    const PhasePrediction& p = *row.prediction;
    fmt::print("{:>4}  {:<18} {:<44} {:>#12.6g} {:>#12.4g} {:>9.1f}% {:>8} {:>9} {:>9}\n", i + 1, row.strategy,
               searched_text(row.searched), row.predicted_makespan, p.balancing_seconds, 100 * row.efficiency,
               p.imbalance_after ? fmt::format("{:.3f}", *p.imbalance_after) : "-", p.objects_migrated, p.messages);
  }
  // Of one phase, the bound depends on the data and the memory bound only: the same in every row
  // (a replay's mean is over the steps each strategy balanced: in the JSON, per row).
  if (!replay && !r.ranking.empty() && r.ranking.front().prediction->imbalance_lower_bound)
    fmt::print("\nno mapping has I below {:.3f} (the lower bound, docs/phases.md: How far from the best)\n",
               *r.ranking.front().prediction->imbalance_lower_bound);
  print_failed_and_not_run(r, 44);
}

}  // namespace

Run add_advise(CLI::App& app) {
  auto* cmd = app.add_subcommand("advise",
                                 "Rank every strategy that accepts the topology, with a few values of its main "
                                 "parameters, by the makespan simulated on a workload or a recorded run, or by the "
                                 "phase time on vt's LB data");
  // The options' texts; AdviseInputs takes the options given.
  struct Options {
    SimulationInputs in;
    std::string workload, trace, data, threshold = "inf", memory_bound = "inf", migration_cost,
                                       migration_byte_cost;
    std::int64_t phase = 0;
    long long every = 1, memory_group = 1;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool json = false, as_protocol = false;
  };
  auto o = std::make_shared<Options>();
  auto* workload = cmd->add_option("-w,--workload", o->workload,
                                   "workload name (dlbkit list workloads), as for dlbkit simulate; or use --trace or "
                                   "--data");
  auto* trace = cmd->add_option("--trace", o->trace, "a run recorded by dlbkit run --record (the trace workload)");
  auto* data = cmd->add_option("--data", o->data,
                               "vt's LB data files STEM.0.json, STEM.1.json, ...: the phase strategies on its objects");
  add_simulation_inputs(*cmd, o->in);
  cmd->get_option("--cost")->required()->default_str("");  // the target machine: no default stands for it
  // --data's own options, as `dlbkit phases --data` reads them.
  auto* phase = cmd->add_option("--phase", o->phase, "with --data: predict the next phase of this phase id alone");
  auto* every = cmd->add_option("--every", o->every, "with --data, a replay: balance after every k-th phase")
                    ->check(integer_in(1, 1'000'000))
                    ->capture_default_str();
  auto* threshold =
      cmd->add_option("--threshold", o->threshold,
                      "with --data, a replay: also balance after a phase whose imbalance exceeds this; inf: never")
          ->capture_default_str();
  auto* memory_bound =
      cmd->add_option("--memory-bound", o->memory_bound, "with --data: most bytes a node may hold; inf: no bound")
          ->capture_default_str();
  auto* memory_group = cmd->add_option("--memory-group", o->memory_group,
                                       "with --data: the memory bound holds for each K consecutive nodes together "
                                       "(dlbkit phases --memory-group)");
  auto* migration_cost =
      cmd->add_option("--migration-cost", o->migration_cost,
                      "with --data: time to migrate one object (default: the cost model's per_task)");
  auto* migration_byte_cost =
      cmd->add_option("--migration-byte-cost", o->migration_byte_cost,
                      "with --data: time per byte migrated (default: the cost model's per_byte)");
  cmd->add_flag("--as-protocol", o->as_protocol,
                "with --data: each strategy with a rank protocol for its parameters runs it and is priced as it runs, "
                "as Balancer and ObjectRuntime run it (dlbkit phases --as-protocol)");
  cmd->add_option("--jobs", o->jobs, "simulations at once (the ranking does not depend on it)")
      ->check(integer_in(1, 256))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document: inputs, ranking (best first), failed, not_run, search");
  return [=] {
    const ExperimentInputs& values = o->in.values;
    AdviseInputs in{.topology = values.topology, .cost = values.cost, .seed = values.seed, .jobs = o->jobs};
    in.workload_params = assignments(o->in.workload_params, "--workload-param");
    in.cost_params = assignments(o->in.cost_params, "--cost-param");
    const auto given = [](const CLI::Option* option) { return option->count() > 0; };
    if (given(workload)) in.workload = o->workload;
    if (given(trace)) in.trace = o->trace;
    if (given(data)) in.data = o->data;
    if (given(o->in.execution)) in.execution = values.execution;
    if (given(cmd->get_option("--max-events"))) in.max_events = values.max_events;
    if (given(cmd->get_option("--max-seconds"))) in.max_seconds = values.max_seconds;
    if (given(phase)) in.phase = o->phase;
    if (given(every)) in.every = o->every;
    if (given(threshold)) in.threshold = o->threshold;
    if (given(memory_bound)) in.memory_bound = o->memory_bound;
    if (given(memory_group)) in.memory_group = o->memory_group;
    if (given(migration_cost)) in.migration_cost = o->migration_cost;
    if (given(migration_byte_cost)) in.migration_byte_cost = o->migration_byte_cost;
    in.as_protocol = o->as_protocol;

    AdviceResult result;
    {
      std::atomic<std::size_t> done{0};
      ProgressLine progress(true, "dlbkit advise");
      result = advise_command(
          in, {.reading = [&progress](const std::string& stem) { progress.phase("reading " + stem); },
               .runs_done =
                   [&progress, &done](std::size_t count, std::size_t total) {
                     done = count;
                     if (count == 0)  // before the runs, on this thread
                       progress.phase("runs",
                                      [&done, total] { return fmt::format(" {} of {} done", done.load(), total); });
                   }});
    }
    if (result.setup) warn_engines_cost(*result.setup, o->in);
    if (o->json) fmt::print("{}\n", json_text(to_json(result)));
    else if (result.setup) print_tasks_table(result);
    else print_data_table(result);
    return 0;
  };
}

}  // namespace dlbkit::cli
