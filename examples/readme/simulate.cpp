#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <cstdio>

int main() {
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:5");  // WLR93's 32-node iPSC/2
  auto tasks = dlbkit::builtin_workloads().configure("artificial", {}).create();  // its Table III
  const dlbkit::SimulationResult r = dlbkit::simulate({.topology = &cube,
      .strategy = dlbkit::builtin_strategies().configure("rid", {}), .workload = tasks.get(),
      .cost = dlbkit::make_cost_model("ipsc2")});
  std::printf("rid: %.2f s, %llu tasks moved\n", dlbkit::to_seconds(r.makespan), (unsigned long long)r.tasks_transferred);
}
