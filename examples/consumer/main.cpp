// Uses an installed dlbkit: RID on a 16-node hypercube with the artificial workload.
// Prints the makespan and the number of tasks; exits 1 unless every task completed.

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <cstdio>
#include <exception>

int main() {
  try {
    const dlbkit::Topology topology = dlbkit::parse_topology("hypercube:4");
    auto workload = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "20"}}).create();
    const dlbkit::SimulationConfig config{
        .topology = &topology,
        .strategy = dlbkit::builtin_strategies().configure("rid", {}),
        .workload = workload.get(),
        .cost = dlbkit::make_cost_model("ideal"),
        .seed = 3,
    };
    const dlbkit::SimulationResult result = dlbkit::simulate(config);

    std::printf("makespan %.6f s\n", dlbkit::to_seconds(result.makespan));
    std::printf("tasks %llu of %llu completed\n", static_cast<unsigned long long>(result.tasks_completed),
                static_cast<unsigned long long>(result.tasks_created));
    const unsigned long long expected = 20ULL * topology.size();  // granularity tasks per node
    if (result.tasks_created != expected || result.tasks_completed != result.tasks_created) {
      std::fprintf(stderr, "consumer: expected %llu tasks to complete\n", expected);
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
