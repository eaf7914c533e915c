#pragma once
/// \file
/// One simulated experiment's inputs as a user writes them, read into an ExperimentSetup by
/// one function: `dlbkit simulate`, `dlbkit advise` and the Python module (python/) all call
/// it, so that they accept and refuse the same values with the same messages.
///
/// ```
/// dlbkit::ExperimentSetup s = dlbkit::experiment_setup({.strategy = "rid", .topology = "hypercube:5"});
/// dlbkit::ExperimentResult r = dlbkit::run_experiment(s);
/// ```

#include <dlbkit/sim/experiment.hpp>

#include <map>
#include <optional>
#include <string>

namespace dlbkit {

struct ExperimentInputs {
  std::string strategy, topology;
  std::string workload = "artificial";  ///< a workload name, or trace:PATH (trace with file=PATH)
  std::string cost = "ipsc2";           ///< a cost model preset, or file:PATH
  std::map<std::string, std::string> params, workload_params, cost_params;  ///< name -> value, as text
  /// Unsigned numbers as text, read with parse_unsigned (a negative number is refused, not wrapped);
  /// errors name them as the CLI's options (--seed, --max-events, --max-seconds).
  std::string seed = "1", execution = "fcfs";
  std::string max_events = std::to_string(SimulationConfig{}.event_limit), max_seconds = "0";
  /// Each node's speed, as --speeds takes it: "S0,S1,..." or "cycle:S0,..." (parse_node_speeds);
  /// none: every node at speed 1.
  std::optional<std::string> speeds;
  /// Threads to simulate on, 1 or more (SimulationConfig::threads); none: every core for a
  /// run of at least kThreadsFrom nodes, where windows pay, else one.
  std::optional<std::string> threads;
};

/// The size from which a run takes every core by default (ExperimentInputs::threads).
inline constexpr std::size_t kThreadsFrom = 4096;

/// The setup of one run: topology, strategy, workload, cost model, seed, limits, execution
/// and speeds. Throws InputError naming the first value refused, in that order.
ExperimentSetup experiment_setup(const ExperimentInputs& in);

}  // namespace dlbkit
