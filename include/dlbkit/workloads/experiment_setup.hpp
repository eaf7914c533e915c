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
};

/// The setup of one run: topology, strategy, workload, cost model, seed, limits and
/// execution. Throws InputError naming the first value refused, in that order.
ExperimentSetup experiment_setup(const ExperimentInputs& in);

}  // namespace dlbkit
