#pragma once
/// \file
/// One run of `dlbkit advise` from its inputs as a user writes them: which strategy to use on a
/// target machine. Every strategy that accepts the topology, with a few values of its main
/// parameters (their declared search, ParamSpec::search), is run and the runs are ranked by
/// predicted makespan: the simulator's strategies on a workload or a recorded run, as
/// `dlbkit simulate` runs them, or the phase strategies on vt's LB data, as `dlbkit phases
/// --data` balances it. The CLI and the Python module both call advise_command(), so that they
/// accept and refuse the same values with the same messages; to_json() is the document of
/// `dlbkit advise --json`.
///
/// ```
/// dlbkit::AdviceResult r = dlbkit::advise_command(
///     {.workload = "artificial", .topology = "hypercube:4", .cost = "ipsc2", .jobs = 2});
/// // r.ranking[0].strategy, r.ranking[0].predicted_makespan, dlbkit::to_json(r)["ranking"] ...
/// ```

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/experiment.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The inputs as the CLI's options hold them; an empty optional (or map) is an option not
/// given. Errors name them as the CLI's options (--trace, --every ...).
struct AdviseInputs {
  /// Exactly one of the three: a workload (builtin_workloads()), a run recorded by `dlbkit run
  /// --record` (the trace workload), or the stem of vt's LB data files STEM.0.json ...
  std::optional<std::string> workload, trace, data;
  std::string topology;  ///< required with a workload or trace; with data, default complete:RANKS
  std::string cost;      ///< required: the target machine's cost model preset, or file:PATH
  std::map<std::string, std::string> cost_params;  ///< field -> value overrides
  std::string seed = "1";                          ///< 0 to 2^64-1, as text
  /// With a workload or trace only (the simulator's): as ExperimentInputs reads them.
  std::map<std::string, std::string> workload_params;
  std::optional<std::string> execution, max_events, max_seconds;
  /// With data only. phase: predict the next phase of this phase id alone (without it, data of
  /// two or more phases is replayed). every, threshold: with a replay, balance after every
  /// k-th phase (1 to 1000000, default 1) and after any phase whose imbalance exceeds the
  /// threshold ("inf", the default: never). The rest as RebalanceInputs reads them.
  std::optional<std::int64_t> phase;
  std::optional<long long> every;
  std::optional<std::string> threshold, memory_bound, migration_cost, migration_byte_cost;
  std::optional<long long> memory_group;
  /// With data only: each strategy whose rank protocol runs for its parameters
  /// (runnable_rank_protocol) runs it and is priced as it runs (`dlbkit phases --as-protocol`),
  /// as Balancer and ObjectRuntime run it; the others as their PhaseContext form.
  bool as_protocol = false;
  unsigned jobs = 1;  ///< runs at once, 1 to 256 (the ranking does not depend on it)
};

/// Told how far the runs are; each callback may be empty. `runs_done` is called with 0 from
/// the calling thread before the runs, then after each run from the thread that ran it, one
/// call at a time, `done` counting up to `total`.
struct AdviseProgress {
  std::function<void(const std::string& stem)> reading;  ///< before vt data is read
  std::function<void(std::size_t done, std::size_t total)> runs_done;
};

/// What the phase strategies predict on vt data: over a replay of every phase, or for the
/// next phase of one phase's loads (its objects keep their loads).
struct PhasePrediction {
  double phase_seconds = 0;      ///< the predicted makespan per phase counted
  double balancing_seconds = 0;  ///< the balancing steps' protocol and migrations, in the makespan
  double communication_seconds = 0;  ///< per phase counted: the crossing messages' part of it
  std::optional<double> imbalance_after;  ///< the mean over the balancing steps; none when none ran
  /// The same mean of each step's lower bound (phases/lower_bound.hpp): no strategy's
  /// imbalance_after can be lower.
  std::optional<double> imbalance_lower_bound;
  std::size_t objects_migrated = 0;
  std::uint64_t messages = 0;
};

/// One strategy with one choice of its searched parameters, and what it predicts.
struct AdviceRow {
  std::string strategy;
  Parameters params;                            ///< all of them, the searched ones set
  std::map<std::string, std::string> searched;  ///< the searched parameters only
  double predicted_makespan = 0;                ///< seconds
  double efficiency = 0;                        ///< optimal / predicted_makespan (0 when that is 0)
  std::optional<ExperimentResult> simulation;   ///< with a workload or trace: the run beside NOBAL's
  std::optional<PhasePrediction> prediction;    ///< with data
};

/// A run that stopped (an event or time limit) or that the strategy refused (a value of this
/// machine or data): out of the ranking.
struct AdviceFailure {
  std::string strategy;
  Parameters params;
  std::map<std::string, std::string> searched;
  std::string error;
};

/// A strategy that does not accept the topology, and why.
struct StrategyNotRun {
  std::string strategy, reason;
};

struct AdviceResult {
  nlohmann::json inputs;  ///< what ran, defaults resolved: the "inputs" of `dlbkit advise --json`
  /// With a workload or trace: the setup of NOBAL's run, every row's but for the strategy.
  std::optional<ExperimentSetup> setup;
  double optimal = 0;  ///< seconds: total work (or load) / nodes, a balance that costs nothing
  std::optional<double> nobal_makespan;  ///< NOBAL's (none on data where NOBAL failed)
  std::vector<AdviceRow> ranking;        ///< best first; equal makespans in the order run
  std::vector<AdviceFailure> failed;
  std::vector<StrategyNotRun> not_run;
};

/// Runs it. Throws InputError naming the first value refused, in the CLI's order; a run that
/// fails is a row of `failed`, not an error.
AdviceResult advise_command(const AdviseInputs& in, const AdviseProgress& progress = {});

/// The document of `dlbkit advise --json`: inputs, optimal, nobal_makespan, ranking (best
/// first), failed, not_run, and search (the values tried of each strategy's parameters).
nlohmann::json to_json(const AdviceResult& result);

}  // namespace dlbkit
