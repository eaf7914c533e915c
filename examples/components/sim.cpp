// dlbkit::sim alone: RID on a ring with a workload of the program's own (every task on node 0).

#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/generators.hpp>

#include <cstdio>

class OnNodeZero final : public dlbkit::Workload {
public:
  bool closed() const override { return true; }
  void initial_tasks(const dlbkit::Topology&, const dlbkit::CostModel&, dlbkit::Rng&, dlbkit::TaskSink& sink) override {
    for (int i = 0; i < 400; ++i) sink.add(0, dlbkit::kMillisecond);
  }
};

int main() {
  const dlbkit::Topology ring = dlbkit::parse_topology("ring:8");
  OnNodeZero workload;
  const dlbkit::SimulationResult r = dlbkit::simulate({.topology = &ring,
                                                      .strategy = dlbkit::builtin_strategies().configure("rid", {}),
                                                      .workload = &workload,
                                                      .cost = dlbkit::make_cost_model("ideal")});
  std::printf("400 tasks of 1 ms from one node of ring:8: makespan %.3f s, %llu completed\n",
              dlbkit::to_seconds(r.makespan), static_cast<unsigned long long>(r.tasks_completed));
  return r.tasks_completed == 400 && r.makespan < 400 * dlbkit::kMillisecond ? 0 : 1;
}
