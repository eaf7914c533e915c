// `dlbkit advise` between reading its options and printing (moved from the CLI, which prints
// this result as a table or JSON; the Python module returns it).

#include "advise_search.hpp"

#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/communication_cost.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/phases/vt_workloads.hpp>
#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/advise_command.hpp>
#include <dlbkit/workloads/experiment_setup.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace dlbkit {

namespace detail {

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

}  // namespace detail

namespace {

using detail::candidates;

// Which options go with which input, and the values that need no reading, checked before
// anything is read.
void check_options(const AdviseInputs& in) {
  const int inputs = in.workload.has_value() + in.trace.has_value() + in.data.has_value();
  if (inputs != 1)
    throw InputError(fmt::format("{}; accepted: exactly one of -w/--workload NAME, --trace PATH and --data STEM",
                                 inputs == 0 ? "no workload: none of -w/--workload, --trace and --data is given"
                                             : "more than one of -w/--workload, --trace and --data is given"));
  const std::pair<const char*, bool> task_options[] = {{"--workload-param", !in.workload_params.empty()},
                                                       {"--execution", in.execution.has_value()},
                                                       {"--max-events", in.max_events.has_value()},
                                                       {"--max-seconds", in.max_seconds.has_value()}};
  const std::pair<const char*, bool> data_options[] = {{"--phase", in.phase.has_value()},
                                                       {"--every", in.every.has_value()},
                                                       {"--threshold", in.threshold.has_value()},
                                                       {"--memory-bound", in.memory_bound.has_value()},
                                                       {"--memory-group", in.memory_group.has_value()},
                                                       {"--migration-cost", in.migration_cost.has_value()},
                                                       {"--migration-byte-cost", in.migration_byte_cost.has_value()},
                                                       {"--as-protocol", in.as_protocol}};
  if (in.data) {
    for (const auto& [option, given] : task_options)
      if (given)
        throw InputError(fmt::format("{} is given with --data; accepted: {} with -w/--workload or --trace (the "
                                     "simulator's runs)",
                                     option, option));
  } else {
    for (const auto& [option, given] : data_options)
      if (given)
        throw InputError(fmt::format("{} is given without --data; accepted: {} with --data STEM only", option, option));
  }
  if (in.cost.empty())
    throw InputError("no cost model: -c/--cost is not given; accepted: -c NAME (dlbkit list cost-models) or "
                     "file:PATH, the target machine's");
  constexpr unsigned kMaxJobs = 256;
  if (in.jobs < 1 || in.jobs > kMaxJobs)
    throw InputError(fmt::format("--jobs: '{}' is not accepted; accepted: an integer from 1 to {}", in.jobs, kMaxJobs));
  constexpr long long kMaxEvery = 1'000'000;
  if (in.every && (*in.every < 1 || *in.every > kMaxEvery))
    throw InputError(
        fmt::format("--every: '{}' is not accepted; accepted: an integer from 1 to {}", *in.every, kMaxEvery));
}

// One candidate configured, and how its run went.
template <class Configured>
struct Outcome {
  Configured choice;
  std::map<std::string, std::string> searched;
  std::optional<AdviceRow> row;
  std::string failure;  // why the run stopped or was refused, when it has no row
};

// Every strategy of `registry` that accepts the topology, configured with each combination of
// its searched values; the others go to `not_run`.
template <class Info>
std::vector<Outcome<Choice<Info>>> configured(const Registry<Info>& registry, const Topology& topology,
                                              std::vector<StrategyNotRun>& not_run) {
  std::vector<Outcome<Choice<Info>>> out;
  for (auto& candidate : candidates(registry.all(), topology, not_run))
    out.push_back({registry.configure(candidate.info->name, candidate.searched), std::move(candidate.searched),
                   std::nullopt, ""});
  return out;
}

// Runs every outcome's candidate, `jobs` at a time: `run` gives its row (the figures) or throws
// when it stops at a limit or the strategy refuses a value of this machine or data. Then the
// rows go to result.ranking, best first (equal makespans keep the order above, so the result
// depends on the inputs alone), and the others to result.failed.
template <class Configured, class Run>
void run_all(std::vector<Outcome<Configured>>& outcomes, unsigned jobs, const AdviseProgress& progress, const Run& run,
             AdviceResult& result) {
  std::mutex progress_mutex;
  std::size_t done = 0;
  parallel_for(outcomes.size(), jobs, [&](std::size_t i) {
    Outcome<Configured>& outcome = outcomes[i];
    try {
      outcome.row = run(outcome.choice);
    } catch (const InputError& e) {
      outcome.failure = e.what();
    } catch (const std::runtime_error& e) {
      outcome.failure = e.what();
    }
    if (progress.runs_done) {
      const std::lock_guard lock(progress_mutex);
      progress.runs_done(++done, outcomes.size());
    }
  });
  for (Outcome<Configured>& outcome : outcomes) {
    if (outcome.row) {
      AdviceRow& row = result.ranking.emplace_back(std::move(*outcome.row));
      row.strategy = outcome.choice.name();
      row.params = outcome.choice.params;
      row.searched = std::move(outcome.searched);
    } else {
      result.failed.push_back(
          {outcome.choice.name(), outcome.choice.params, std::move(outcome.searched), std::move(outcome.failure)});
    }
  }
  // A simulated makespan compares in whole nanoseconds, as the simulator counts it.
  std::stable_sort(result.ranking.begin(), result.ranking.end(), [](const AdviceRow& a, const AdviceRow& b) {
    return a.simulation ? a.simulation->balanced.makespan < b.simulation->balanced.makespan
                        : a.predicted_makespan < b.predicted_makespan;
  });
}

double efficiency(double optimal, double makespan) { return makespan > 0 ? optimal / makespan : 0.0; }

// The simulator's strategies on a workload or a recorded run, each simulated as `dlbkit
// simulate` runs it beside NOBAL.
AdviceResult advise_on_tasks(const AdviseInputs& in, const AdviseProgress& progress) {
  ExperimentInputs values{.strategy = "none",
                          .topology = in.topology,
                          .workload = in.trace ? "trace:" + *in.trace : *in.workload,
                          .cost = in.cost,
                          .workload_params = in.workload_params,
                          .cost_params = in.cost_params,
                          .seed = in.seed};
  if (in.execution) values.execution = *in.execution;
  if (in.max_events) values.max_events = *in.max_events;
  if (in.max_seconds) values.max_seconds = *in.max_seconds;
  values.threads = "1";  // the candidates run `jobs` at a time, each on one thread
  AdviceResult result;
  // Every candidate below replaces only the strategy of NOBAL's setup.
  const ExperimentSetup& base = result.setup.emplace(experiment_setup(values));
  result.inputs = {
      {"topology", base.topology.spec()},
      {"workload", {{"name", base.workload.name()}, {"params", base.workload.params.to_json()}}},
      {"cost_model", base.cost.to_json()},
      {"seed", base.seed},
      {"execution", to_string(base.execution)},
  };
  auto outcomes = configured(builtin_strategies(), base.topology, result.not_run);
  if (progress.runs_done) progress.runs_done(0, outcomes.size());

  // NOBAL first, once: the other runs take its figures (speedup, pi) from it. When it stops at
  // a limit, so would every run beside it, and bad input shared by every run (a trace that
  // cannot be read) ends the command here: both are errors of the command.
  const ExperimentResult reference = run_experiment(base);
  run_all(outcomes, in.jobs, progress, [&](const StrategyChoice& strategy) {
    ExperimentSetup setup = base;
    setup.strategy = strategy;
    setup.nobal = &reference.nobal;
    AdviceRow row{.simulation = is_nobal(strategy) ? reference : run_experiment(setup)};
    row.predicted_makespan = to_seconds(row.simulation->balanced.makespan);
    row.efficiency = efficiency(row.simulation->optimal, row.predicted_makespan);
    return row;
  }, result);
  result.optimal = reference.optimal;
  result.nobal_makespan = to_seconds(reference.nobal.makespan);
  return result;
}

PhasePrediction replayed(const PhaseRunResult& run) {
  PhasePrediction p{.phase_seconds = (run.application_seconds + run.balancing_seconds) /
                                     static_cast<double>(run.steps.size()),
                    .balancing_seconds = run.balancing_seconds,
                    .communication_seconds = run.communication_seconds / static_cast<double>(run.steps.size()),
                    .objects_migrated = run.objects_migrated};
  double after = 0, bound = 0;
  for (const PhaseStep& s : run.steps)
    if (s.rebalanced) {
      after += s.rebalanced->after.imbalance;
      bound += s.rebalanced->imbalance_lower_bound;
      p.messages += s.rebalanced->messages;
    }
  if (run.balancing_steps > 0) {
    p.imbalance_after = after / static_cast<double>(run.balancing_steps);
    p.imbalance_lower_bound = bound / static_cast<double>(run.balancing_steps);
  }
  return p;
}

// The phase after `phase`, its objects at the same loads and messages under the new mapping.
PhasePrediction next_phase(const Phase& phase, const Rebalanced& r, const CostModel& cost) {
  const double balancing = to_seconds(r.protocol_time + r.migration_time);
  const double communication = communication_seconds(phase, r.mapping, cost);
  return {.phase_seconds = r.after.max_load + communication + balancing,
          .balancing_seconds = balancing,
          .communication_seconds = communication,
          .imbalance_after = r.after.imbalance,
          .imbalance_lower_bound = r.imbalance_lower_bound,
          .objects_migrated = r.objects_migrated,
          .messages = r.messages};
}

// The total load over the nodes, summed over the phases counted: the time of a perfect balance
// that costs nothing.
double total_load_per_node(const VtDataSet& data, const VtPhase* one, std::size_t nodes) {
  double sum = 0;
  for (const VtPhase& p : data.phases)
    if (!one || &p == one)
      for (const PhaseObject& o : p.phase.objects) sum += o.load;
  return sum / static_cast<double>(nodes);
}

// The phase strategies on vt's LB data, each balancing it as `dlbkit phases --data` does: over
// a replay of every phase (two or more), or for the next phase of one phase's loads (the
// principle of persistence: its objects keep their loads).
AdviceResult advise_on_data(const AdviseInputs& in, const AdviseProgress& progress) {
  if (progress.reading) progress.reading(*in.data);
  const VtDataSet data = read_vt_data(*in.data);
  const VtPhase& first = vt_phase_or_first(data, in.phase);
  const bool replay = !in.phase && data.phases.size() >= 2;
  if (!replay && (in.every || in.threshold)) {
    const char* option = in.every ? "--every" : "--threshold";
    throw InputError(fmt::format("{} is given, but {}; accepted: {} when the data has two or more phases and "
                                 "--phase is not given (a replay)",
                                 option,
                                 in.phase ? "--phase balances one phase" : "vt data " + data.stem + " has one phase",
                                 option));
  }
  const Topology topology = vt_topology(in.topology, data);
  const std::uint64_t seed = parse_unsigned(in.seed, "--seed", std::numeric_limits<std::uint64_t>::max());
  const long long every = in.every.value_or(1);
  const std::string threshold = in.threshold.value_or("inf"), memory_bound = in.memory_bound.value_or("inf"),
                    migration_byte_cost = in.migration_byte_cost.value_or("");
  PhaseRunOptions options{.phases = data.phases.size(),
                          .every = static_cast<std::size_t>(every),
                          .threshold = non_negative_or_inf(threshold, "--threshold")};
  options.rebalance = rebalance_options({.cost = in.cost,
                                         .cost_params = in.cost_params,
                                         .migration_cost = in.migration_cost.value_or(""),
                                         .migration_byte_cost = migration_byte_cost,
                                         .memory_bound = memory_bound,
                                         .memory_group = in.memory_group},
                                        seed);
  if (in.as_protocol && options.rebalance.memory_group > 1)
    throw InputError(fmt::format("--as-protocol is given with --memory-group {}; accepted: one of the two (each rank "
                                 "agent bounds its own memory)",
                                 options.rebalance.memory_group));
  const std::optional<VtReplay> replay_input = replay ? std::optional<VtReplay>(VtReplay(data)) : std::nullopt;

  AdviceResult result;
  result.inputs = {{"data", data.stem},
                   {"ranks", data.ranks},
                   {"objects", first.phase.objects.size()},
                   {"phases", replay ? data.phases.size() : 1},
                   {"replay", replay},
                   {"phase", replay ? nlohmann::json(nullptr) : nlohmann::json(first.id)},
                   {"every", every},
                   {"threshold", threshold},
                   {"topology", topology.spec()},
                   {"cost_model", options.rebalance.cost.to_json()},
                   {"migration_cost", exact_duration(options.rebalance.migration.per_object)},
                   {"migration_byte_cost", fmt::format("{}ns", options.rebalance.migration.per_byte)},
                   {"memory_bound", memory_bound},
                   {"memory_group", options.rebalance.memory_group},
                   {"as_protocol", in.as_protocol},
                   {"seed", seed}};
  result.optimal = total_load_per_node(data, replay ? nullptr : &first, topology.size());
  auto outcomes = configured(builtin_phase_strategies(), topology, result.not_run);
  if (progress.runs_done) progress.runs_done(0, outcomes.size());
  run_all(outcomes, in.jobs, progress, [&](const PhaseStrategyChoice& strategy) {
    AdviceRow row;
    PhaseRunOptions own = options;
    own.rebalance.as_protocol = in.as_protocol && runnable_rank_protocol(strategy, own.rebalance.work_model);
    if (replay) {
      VtReplay input = *replay_input;  // each run from the first phase
      const PhaseRunResult run = run_phases(strategy, input, topology, own);
      row.prediction = replayed(run);
      row.predicted_makespan = run.application_seconds + run.balancing_seconds;
    } else {
      row.prediction =
          next_phase(first.phase, rebalance(strategy, first.phase, topology, own.rebalance), options.rebalance.cost);
      row.predicted_makespan = row.prediction->phase_seconds;
    }
    row.efficiency = efficiency(result.optimal, row.predicted_makespan);
    return row;
  }, result);
  const auto nobal = std::find_if(result.ranking.begin(), result.ranking.end(),
                                  [](const AdviceRow& row) { return row.strategy == "none"; });
  if (nobal != result.ranking.end()) result.nobal_makespan = nobal->predicted_makespan;
  return result;
}

nlohmann::json optional_json(const std::optional<double>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

}  // namespace

AdviceResult advise_command(const AdviseInputs& in, const AdviseProgress& progress) {
  check_options(in);
  return in.data ? advise_on_data(in, progress) : advise_on_tasks(in, progress);
}

nlohmann::json to_json(const AdviceResult& result) {
  using nlohmann::json;
  json j{{"inputs", result.inputs},
         {"optimal", result.optimal},
         {"nobal_makespan", optional_json(result.nobal_makespan)}};
  j["ranking"] = json::array();
  for (std::size_t i = 0; i < result.ranking.size(); ++i) {
    const AdviceRow& row = result.ranking[i];
    json r{{"rank", i + 1},
           {"strategy", row.strategy},
           {"params", row.params.to_json()},
           {"predicted_makespan", row.predicted_makespan},
           {"efficiency", row.efficiency}};
    if (const auto& s = row.simulation) {
      r.update({{"speedup", s->speedup_undefined.empty() ? json(s->speedup) : json(nullptr)},
                {"tasks_transferred", s->balanced.tasks_transferred},
                {"messages", s->balanced.messages()},
                {"events", s->balanced.events}});
    } else {
      const PhasePrediction& p = *row.prediction;
      r.update({{"predicted_phase_seconds", p.phase_seconds},
                {"imbalance_after", optional_json(p.imbalance_after)},
                {"imbalance_lower_bound", optional_json(p.imbalance_lower_bound)},
                {"objects_migrated", p.objects_migrated},
                {"messages", p.messages},
                {"balancing_seconds", p.balancing_seconds},
                {"communication_seconds", p.communication_seconds}});
    }
    j["ranking"].push_back(std::move(r));
  }
  j["failed"] = json::array();
  for (const AdviceFailure& f : result.failed)
    j["failed"].push_back({{"strategy", f.strategy}, {"params", f.params.to_json()}, {"error", f.error}});
  j["not_run"] = json::array();
  for (const StrategyNotRun& n : result.not_run)
    j["not_run"].push_back({{"strategy", n.strategy}, {"reason", n.reason}});
  j["search"] = result.setup ? detail::search_json(builtin_strategies().all())
                             : detail::search_json(builtin_phase_strategies().all());
  return j;
}

}  // namespace dlbkit
