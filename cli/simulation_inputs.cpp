#include "simulation_inputs.hpp"

#include <dlbkit/core/parameters.hpp>

#include <fmt/format.h>

namespace dlbkit::cli {

void add_simulation_inputs(CLI::App& cmd, SimulationInputs& in) {
  cmd.add_option("-t,--topology", in.values.topology, "topology spec, e.g. hypercube:5")->required();
  cmd.add_option("--workload-param", in.workload_params, "workload parameter name=value (repeatable)");
  cmd.add_option("-c,--cost", in.values.cost, "cost model preset (dlbkit list cost-models), or file:PATH of a JSON cost model (dlbkit calibrate)")->capture_default_str();
  cmd.add_option("--cost-param", in.cost_params, "override a cost model field, e.g. latency=500us (repeatable)");
  cmd.add_option("--seed", in.values.seed, "random seed, 0 to 2^64-1: the same seed gives the same run")->capture_default_str();
  in.execution = cmd.add_option("--execution", in.values.execution,
                 "how a node runs its tasks: fcfs (one at a time), processor_sharing (ps: time-shared) or lifo (one at "
                 "a time, newest first: a runtime worker's stack)")
      ->capture_default_str();
  cmd.add_option("--max-events", in.values.max_events,
                 "stop a run (the strategy's or NOBAL's) after this many events, with the figures so far")
      ->capture_default_str();
  cmd.add_option("--max-seconds", in.values.max_seconds,
                 "stop a run after this many seconds of host time, with the figures so far; 0: no limit")
      ->capture_default_str();
}

ExperimentSetup experiment_setup(const SimulationInputs& in, const std::string& strategy,
                                 const std::map<std::string, std::string>& params, const std::string& workload,
                                 std::map<std::string, std::string> workload_params) {
  ExperimentInputs values = in.values;
  values.strategy = strategy;
  values.params = params;
  values.workload = workload;
  values.workload_params = std::move(workload_params);
  values.cost_params = assignments(in.cost_params, "--cost-param");
  ExperimentSetup setup = dlbkit::experiment_setup(values);
  warn_engines_cost(setup, in);
  return setup;
}

void warn_engines_cost(const ExperimentSetup& setup, const SimulationInputs& in) {
  if (setup.cost.checks == Checks::engines && setup.execution == Execution::fcfs && in.execution != nullptr &&
      in.execution->count() == 0)
    fmt::print(stderr, "dlbkit: warning: cost model {} describes an engine, whose workers run their newest task first; "
                       "--execution lifo predicts them (fcfs, the default, runs tasks in order of arrival)\n",
               setup.cost.name);
}

}  // namespace dlbkit::cli
