#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/workloads/experiment_setup.hpp>

#include <fmt/format.h>

#include <limits>
#include <thread>

namespace {
constexpr std::uint64_t kMaxThreads = 1024;
}

namespace dlbkit {

ExperimentSetup experiment_setup(const ExperimentInputs& in) {
  std::string name = in.workload;
  std::map<std::string, std::string> workload_params = in.workload_params;
  if (name.starts_with("trace:")) {  // -w trace:PATH is -w trace --workload-param file=PATH
    if (workload_params.count("file"))
      throw InputError("the trace file is given both by -w trace:PATH and --workload-param file");
    workload_params["file"] = name.substr(6);
    name = "trace";
  }
  ExperimentSetup setup{
      .topology = parse_topology(in.topology),
      .strategy = builtin_strategies().configure(in.strategy, in.params),
      .workload = builtin_workloads().configure(name, workload_params),
      .cost = make_cost_model(in.cost, in.cost_params),
      .seed = parse_unsigned(in.seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
      .event_limit = parse_unsigned(in.max_events, "--max-events", std::numeric_limits<std::uint64_t>::max()),
      .wall_seconds_limit = static_cast<double>(parse_unsigned(in.max_seconds, "--max-seconds", 1'000'000'000)),
      .execution = parse_execution(in.execution),
  };
  if (in.speeds) setup.speeds = parse_node_speeds(*in.speeds, setup.topology.size(), "--speeds");
  if (in.threads) {
    setup.threads = static_cast<unsigned>(parse_unsigned(*in.threads, "--threads", kMaxThreads));
    if (setup.threads == 0)
      throw InputError(fmt::format("--threads: '0' is not accepted; accepted: an integer from 1 to {}", kMaxThreads));
  } else if (setup.topology.size() >= kThreadsFrom) {
    setup.threads = std::max(1u, std::thread::hardware_concurrency());
  }
  // The cost model's measured parameters of this workload (a calibrated time per unit), where
  // the inputs do not give them; read after every input is checked, so errors keep their order.
  const auto measured = setup.cost.workload_params.find(name);
  if (measured != setup.cost.workload_params.end()) {
    for (const auto& [param, value] : measured->second) workload_params.try_emplace(param, value);
    try {
      setup.workload = builtin_workloads().configure(name, workload_params);
    } catch (const InputError& e) {
      throw InputError(fmt::format("cost model {}: workload_params of {}: {}", in.cost, name, e.what()));
    }
  }
  return setup;
}

}  // namespace dlbkit
