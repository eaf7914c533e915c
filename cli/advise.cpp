// dlbkit advise: which strategy to use on a target machine. Every strategy that accepts the
// topology, with a few values of its main parameters, is simulated on one workload (or a
// recorded run) and cost model through run_experiment, as `dlbkit simulate` runs it, and the
// runs are ranked by predicted makespan.

#include "advise.hpp"
#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/core/parallel_for.hpp>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace dlbkit::cli {

namespace {

struct Outcome {
  Candidate<StrategyInfo> candidate;
  ExperimentSetup setup;
  std::optional<ExperimentResult> result;
  std::string failure;  // why the run stopped (an event or time limit), when it has no result
};

double efficiency(const ExperimentResult& r) {
  return r.balanced.makespan > 0 ? r.optimal / to_seconds(r.balanced.makespan) : 0.0;
}

void print_table(const ExperimentSetup& base, const std::vector<const Outcome*>& ranked,
                 const std::vector<const Outcome*>& failed, const NotRun& not_run, double optimal) {
  fmt::print("advise: workload {} ({}) on {}, cost model {}, seed {}, {} execution\n", base.workload.name(),
             base.workload.params.to_string(), base.topology.spec(), base.cost.name, base.seed,
             to_string(base.execution));
  fmt::print("{} runs ranked by predicted makespan; optimal {:.6g} s (total work / N); parameters not shown are "
             "the strategy's defaults\n\n",
             ranked.size(), optimal);
  fmt::print("{:>4}  {:<18} {:<34} {:>12} {:>10} {:>11} {:>10}\n", "rank", "strategy", "parameters", "makespan s",
             "efficiency", "tasks moved", "messages");
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Outcome& o = *ranked[i];
    const SimulationResult& b = o.result->balanced;
    fmt::print("{:>4}  {:<18} {:<34} {:>#12.6g} {:>9.1f}% {:>11} {:>10}\n", i + 1, o.candidate.info->name,
               searched_text(o.candidate.searched), to_seconds(b.makespan), 100 * efficiency(*o.result),
               b.tasks_transferred, b.messages());
  }
  for (const Outcome* o : failed)
    fmt::print("   -  {:<18} {:<34} failed: {}\n", o->candidate.info->name, searched_text(o->candidate.searched),
               o->failure);
  print_not_run(base.topology.spec(), not_run);
}

nlohmann::json to_json(const ExperimentSetup& base, const std::vector<const Outcome*>& ranked,
                       const std::vector<const Outcome*>& failed,
                       const NotRun& not_run, double optimal,
                       double nobal) {
  using nlohmann::json;
  json j;
  j["inputs"] = {
      {"topology", base.topology.spec()},
      {"workload", {{"name", base.workload.name()}, {"params", base.workload.params.to_json()}}},
      {"cost_model", base.cost.to_json()},
      {"seed", base.seed},
      {"execution", to_string(base.execution)},
  };
  j["optimal"] = optimal;
  j["nobal_makespan"] = nobal;
  j["ranking"] = json::array();
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Outcome& o = *ranked[i];
    const ExperimentResult& r = *o.result;
    j["ranking"].push_back({{"rank", i + 1},
                            {"strategy", o.candidate.info->name},
                            {"params", o.setup.strategy.params.to_json()},
                            {"predicted_makespan", to_seconds(r.balanced.makespan)},
                            {"efficiency", efficiency(r)},
                            {"speedup", r.speedup_undefined.empty() ? json(r.speedup) : json(nullptr)},
                            {"tasks_transferred", r.balanced.tasks_transferred},
                            {"messages", r.balanced.messages()},
                            {"events", r.balanced.events}});
  }
  j["failed"] = json::array();
  for (const Outcome* o : failed)
    j["failed"].push_back(
        {{"strategy", o->candidate.info->name}, {"params", o->setup.strategy.params.to_json()}, {"error", o->failure}});
  j["not_run"] = not_run_json(not_run);
  j["search"] = search_json(builtin_strategies().all());
  return j;
}

}  // namespace

std::vector<SearchAxis> search_axes(const std::vector<ParamSpec>& params) {
  std::vector<SearchAxis> axes;
  for (const ParamSpec& spec : params)
    if (!spec.search.empty()) {
      axes.push_back({spec.name, {spec.default_value}});
      axes.back().values.insert(axes.back().values.end(), spec.search.begin(), spec.search.end());
    }
  return axes;
}

std::vector<std::map<std::string, std::string>> combinations(const std::vector<SearchAxis>& axes) {
  std::vector<std::map<std::string, std::string>> out = {{}};
  for (const SearchAxis& axis : axes) {
    std::vector<std::map<std::string, std::string>> next;
    for (const auto& partial : out)
      for (const std::string& value : axis.values) {
        auto m = partial;
        m[axis.param] = value;
        next.push_back(std::move(m));
      }
    out = std::move(next);
  }
  return out;
}

std::string searched_text(const std::map<std::string, std::string>& searched) {
  std::string s;
  for (const auto& [name, value] : searched) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s.empty() ? "(defaults)" : s;
}

nlohmann::json not_run_json(const NotRun& not_run) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& [name, reason] : not_run) j.push_back({{"strategy", name}, {"reason", reason}});
  return j;
}

void print_not_run(const std::string& topology, const NotRun& not_run) {
  if (not_run.empty()) return;
  fmt::print("\nnot run on {}:\n", topology);
  for (const auto& [name, reason] : not_run) fmt::print("  {:<18} {}\n", name, reason);
}

Run add_advise(CLI::App& app) {
  auto* cmd = app.add_subcommand("advise",
                                 "Rank every strategy that accepts the topology, with a few values of its main "
                                 "parameters, by the makespan simulated on a workload or a recorded run, or by the "
                                 "phase time on vt's LB data");
  struct Options {
    SimulationInputs in;
    std::string workload, trace;
    DataAdvice data;
    std::int64_t phase = 0;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  auto* workload = cmd->add_option("-w,--workload", o->workload,
                                   "workload name (dlbkit list workloads), as for dlbkit simulate; or use --trace or "
                                   "--data");
  auto* trace = cmd->add_option("--trace", o->trace, "a run recorded by dlbkit run --record (the trace workload)");
  auto* data = cmd->add_option("--data", o->data.stem,
                               "vt's LB data files STEM.0.json, STEM.1.json, ...: the phase strategies on its objects");
  add_simulation_inputs(*cmd, o->in);
  cmd->get_option("--cost")->required()->default_str("");  // the target machine: no default stands for it
  // --data's own options, as `dlbkit phases --data` reads them.
  const std::vector<CLI::Option*> data_options{
      cmd->add_option("--phase", o->phase, "with --data: predict the next phase of this phase id alone"),
      cmd->add_option("--every", o->data.every, "with --data, a replay: balance after every k-th phase")
          ->check(integer_in(1, 1'000'000))
          ->capture_default_str(),
      cmd->add_option("--threshold", o->data.threshold,
                      "with --data, a replay: also balance after a phase whose imbalance exceeds this; inf: never")
          ->capture_default_str(),
      cmd->add_option("--memory-bound", o->data.memory_bound, "with --data: most bytes a node may hold; inf: no bound")
          ->capture_default_str(),
      cmd->add_option("--migration-cost", o->data.migration_cost,
                      "with --data: time to migrate one object (default: the cost model's per_task)"),
      cmd->add_option("--migration-byte-cost", o->data.migration_byte_cost, "with --data: time per byte migrated")
          ->capture_default_str()};
  // The simulator's options, which --data does not read.
  const std::vector<const CLI::Option*> task_options{
      cmd->get_option("--workload-param"), cmd->get_option("--execution"), cmd->get_option("--max-events"),
      cmd->get_option("--max-seconds")};
  cmd->add_option("--jobs", o->jobs, "simulations at once (the ranking does not depend on it)")
      ->check(integer_in(1, 256))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document: inputs, ranking (best first), failed, not_run, search");
  return [o, workload, trace, data, data_options, task_options] {
    const int inputs = (workload->count() > 0) + (trace->count() > 0) + (data->count() > 0);
    if (inputs != 1)
      throw InputError(fmt::format("{}; accepted: exactly one of -w/--workload NAME, --trace PATH and --data STEM",
                                   inputs == 0 ? "no workload: none of -w/--workload, --trace and --data is given"
                                               : "more than one of -w/--workload, --trace and --data is given"));
    if (data->count() > 0) {
      for (const CLI::Option* option : task_options)
        if (option->count() > 0)
          throw InputError(fmt::format("{} is given with --data; accepted: {} with -w/--workload or --trace (the "
                                       "simulator's runs)",
                                       option->get_name(), option->get_name()));
      if (data_options[0]->count() > 0) o->data.phase = o->phase;
      for (const CLI::Option* option : {data_options[1], data_options[2]})
        if (option->count() > 0) o->data.replay_options.push_back(option->get_name());
      return advise_on_data(o->data, o->in, o->jobs, o->json);
    }
    for (const CLI::Option* option : data_options)
      if (option->count() > 0)
        throw InputError(fmt::format("{} is given without --data; accepted: {} with --data STEM only",
                                     option->get_name(), option->get_name()));
    // The same reading as `dlbkit simulate`, with NOBAL as the strategy; every candidate
    // below replaces only the strategy.
    const ExperimentSetup base =
        experiment_setup(o->in, "none", {}, trace->count() > 0 ? "trace:" + o->trace : o->workload,
                         assignments(o->in.workload_params, "--workload-param"));

    NotRun not_run;
    std::vector<Outcome> outcomes;
    for (auto& candidate : candidates(builtin_strategies().all(), base.topology, not_run)) {
      ExperimentSetup setup = base;
      setup.strategy = builtin_strategies().configure(candidate.info->name, candidate.searched);
      outcomes.push_back({std::move(candidate), std::move(setup), std::nullopt, ""});
    }

    std::atomic<std::size_t> done{0};
    ExperimentResult reference;  // NOBAL's run
    {
      ProgressLine progress(true, "dlbkit advise");
      const std::size_t total = outcomes.size();
      progress.phase("runs", [&done, total] { return fmt::format(" {} of {} done", done.load(), total); });
      // NOBAL first, once: the other runs take its figures (speedup, pi) from it. When it
      // stops at a limit, so would every run beside it: the command fails.
      reference = run_experiment(base);
      parallel_for(outcomes.size(), o->jobs, [&](std::size_t i) {
        Outcome& outcome = outcomes[i];
        outcome.setup.nobal = &reference.nobal;
        try {
          outcome.result = is_nobal(outcome.setup.strategy) ? reference : run_experiment(outcome.setup);
        } catch (const std::runtime_error& e) {
          outcome.failure = e.what();  // a limit reached: this run is out of the ranking
        } catch (const InputError& e) {
          // Bad input shared by every run (a trace that cannot be read) ended the command
          // at NOBAL's run; this is the strategy refusing something of this machine.
          outcome.failure = e.what();
        }
        ++done;
      });
    }

    // Best first; equal makespans (whole nanoseconds) keep the order above, so the output
    // depends on the inputs alone.
    std::vector<const Outcome*> ranked, failed;
    for (const Outcome& outcome : outcomes) (outcome.result ? ranked : failed).push_back(&outcome);
    std::stable_sort(ranked.begin(), ranked.end(), [](const Outcome* a, const Outcome* b) {
      return a->result->balanced.makespan < b->result->balanced.makespan;
    });
    const double optimal = reference.optimal, nobal = to_seconds(reference.nobal.makespan);
    if (o->json) fmt::print("{}\n", json_text(to_json(base, ranked, failed, not_run, optimal, nobal)));
    else print_table(base, ranked, failed, not_run, optimal);
    return 0;
  };
}

}  // namespace dlbkit::cli
