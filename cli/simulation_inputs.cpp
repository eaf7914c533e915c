#include "simulation_inputs.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/workloads/builtin.hpp>

#include <limits>

namespace dlbkit::cli {

void add_simulation_inputs(CLI::App& cmd, SimulationInputs& in) {
  cmd.add_option("-t,--topology", in.topology, "topology spec, e.g. hypercube:5")->required();
  cmd.add_option("--workload-param", in.workload_params, "workload parameter name=value (repeatable)");
  cmd.add_option("-c,--cost", in.cost, "cost model preset (dlbkit list cost-models), or file:PATH of a JSON cost model (dlbkit calibrate)")->capture_default_str();
  cmd.add_option("--cost-param", in.cost_params, "override a cost model field, e.g. latency=500us (repeatable)");
  cmd.add_option("--seed", in.seed, "random seed, 0 to 2^64-1: the same seed gives the same run")->capture_default_str();
  cmd.add_option("--execution", in.execution,
                 "how a node runs its tasks: fcfs (one at a time), processor_sharing (ps: time-shared) or lifo (one at "
                 "a time, newest first: a runtime worker's stack)")
      ->capture_default_str();
  cmd.add_option("--max-events", in.max_events,
                 "stop a run (the strategy's or NOBAL's) after this many events, with the figures so far")
      ->capture_default_str();
  cmd.add_option("--max-seconds", in.max_seconds,
                 "stop a run after this many seconds of host time, with the figures so far; 0: no limit")
      ->capture_default_str();
}

ExperimentSetup experiment_setup(const SimulationInputs& in, const std::string& strategy,
                                 const std::map<std::string, std::string>& params, const std::string& workload,
                                 std::map<std::string, std::string> workload_params) {
  std::string name = workload;
  if (name.starts_with("trace:")) {  // -w trace:PATH is -w trace --workload-param file=PATH
    if (workload_params.count("file"))
      throw InputError("the trace file is given both by -w trace:PATH and --workload-param file");
    workload_params["file"] = name.substr(6);
    name = "trace";
  }
  return ExperimentSetup{
      .topology = parse_topology(in.topology),
      .strategy = builtin_strategies().configure(strategy, params),
      .workload = builtin_workloads().configure(name, workload_params),
      .cost = make_cost_model(in.cost, assignments(in.cost_params, "--cost-param")),
      .seed = parse_unsigned(in.seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
      .event_limit = parse_unsigned(in.max_events, "--max-events", std::numeric_limits<std::uint64_t>::max()),
      .wall_seconds_limit = static_cast<double>(parse_unsigned(in.max_seconds, "--max-seconds", 1'000'000'000)),
      .execution = parse_execution(in.execution),
  };
}

}  // namespace dlbkit::cli
