#pragma once
// The simulator's inputs that `dlbkit simulate` and `dlbkit advise` share: the same options,
// read into an ExperimentSetup by the library's experiment_setup (workloads/experiment_setup.hpp,
// which the Python module calls too), so that all accept and refuse the same values.

#include <CLI/CLI.hpp>
#include <dlbkit/workloads/experiment_setup.hpp>

#include <map>
#include <string>
#include <vector>

namespace dlbkit::cli {

struct SimulationInputs {
  ExperimentInputs values;  // topology, cost, seed, execution and limits, with the library's defaults
  std::vector<std::string> workload_params, cost_params;  // name=value, as given
  const CLI::Option* execution = nullptr;                  // --execution, to know whether it was given
};

// Adds -t, --workload-param, -c, --cost-param, --seed, --execution, --max-events and
// --max-seconds to `cmd`, read into `in`.
void add_simulation_inputs(CLI::App& cmd, SimulationInputs& in);

// The setup of one run: the topology, the strategy `strategy` with `params` (-p), the workload
// `workload` (-w; trace:PATH is the trace workload with file=PATH) with `workload_params`
// (--workload-param and any other source, e.g. -g), and the cost model: dlbkit::experiment_setup
// with the options' values. Throws InputError naming the first value refused, in that order
// (a --cost-param without '=' first). Then warn_engines_cost.
ExperimentSetup experiment_setup(const SimulationInputs& in, const std::string& strategy,
                                 const std::map<std::string, std::string>& params, const std::string& workload,
                                 std::map<std::string, std::string> workload_params);

// A cost model calibrated on an engine (checks = engines) with fcfs by default, not given,
// gets a warning on stderr: the engines run lifo.
void warn_engines_cost(const ExperimentSetup& setup, const SimulationInputs& in);

}  // namespace dlbkit::cli
