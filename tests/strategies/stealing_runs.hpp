#pragma once
// What the tests of the stealing strategies (work_stealing, lifeline) share in the simulator.

#include "../sim/conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <string>

namespace dlbkit::test {

// Runs `strategy` on t under the cost model `cost` (seed 5) with tasks that appear over time
// (which = 0) or seven per node at once (which = 1): every task is executed once and the run
// ends; with tasks over time on more than one node, some move.
inline void expect_conserved(const Topology& t, const std::string& strategy,
                             const std::map<std::string, std::string>& params, const std::string& cost, int which) {
  std::unique_ptr<Workload> w;
  if (which == 0) w = std::make_unique<DynamicWorkload>();
  else w = builtin_workloads().configure("artificial", {{"granularity", "7"}, {"total_load", "2e5"}}).create();
  ConservationObserver check;
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure(strategy, params),
                          .workload = w.get(),
                          .cost = make_cost_model(cost),
                          .seed = 5,
                          .observers = {&check}};
  const SimulationResult r = simulate(config);
  check.expect_all_done();
  EXPECT_EQ(r.tasks_completed, r.tasks_created);
  EXPECT_GT(r.tasks_completed, 0u);
  if (t.size() > 1 && which == 0) {
    EXPECT_GT(r.tasks_transferred, 0u);
  }
}

// All the work on node 0: 400 tasks of 10 ms (4 s serial).
class OnNodeZero final : public Workload {
public:
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    for (int i = 0; i < 400; ++i) sink.add(0, 10 * kMillisecond);
  }
};

}  // namespace dlbkit::test
