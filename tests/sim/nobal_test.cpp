// NOBAL per node (sim/nobal.hpp) against NOBAL simulated event by event: the same result,
// field for field, on closed workloads; a simulation wherever the per-node sum would not be
// exact.

#include "../support/same_run.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

SimulationResult simulated(const SimulationConfig& config, const WorkloadChoice& workload) {
  auto w = workload.create();
  SimulationConfig c = config;
  c.workload = w.get();
  return simulate(c);
}

}  // namespace

TEST(Nobal, PerNodeEqualsTheSimulationOnClosedWorkloads) {
  const StrategyChoice none = builtin_strategies().configure("none", {});
  const std::vector<WorkloadChoice> workloads{
      builtin_workloads().configure("artificial", {{"granularity", "10"}}),
      builtin_workloads().configure("artificial", {{"granularity", "100"}, {"omega_per_g", "20"}}),
      builtin_workloads().configure("bnb", {{"n", "8"}, {"m", "5"}}),
      builtin_workloads().configure("bnb", {{"n", "9"}, {"m", "6"}, {"placement", "cyclic"}}),
  };
  int compared = 0;
  for (const char* spec : {"hypercube:4", "mesh:3x5", "ring:7", "complete:1"}) {
    const Topology topology = parse_topology(spec);
    for (const char* cost : {"ipsc2", "ideal", "ahmad91"}) {
      for (const WorkloadChoice& workload : workloads) {
        for (std::uint64_t seed : {1, 2, 77}) {
          SCOPED_TRACE(fmt::format("{} {} {} seed {}", spec, cost, workload.name(), seed));
          const SimulationConfig config{.topology = &topology, .strategy = none, .cost = make_cost_model(cost),
                                        .seed = seed};
          auto w = workload.create();
          SimulationConfig c = config;
          c.workload = w.get();
          const std::optional<SimulationResult> by_node = nobal_by_node(c);
          ASSERT_TRUE(by_node.has_value());
          const SimulationResult sim = simulated(config, workload);
          EXPECT_GT(sim.tasks_completed, 0u);
          test::expect_same_run(*by_node, sim);
          test::expect_same_run(simulate_nobal(config, workload), sim);
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 4 * 3 * 4 * 3);
}

TEST(Nobal, ExperimentAndCostOverridesKeepTheSimulatedNobal) {
  // A cost model that charges polling, handling and sending: NOBAL pays none of it.
  const CostModel cost =
      make_cost_model("ipsc2", {{"poll_interval", "100us"}, {"poll_cost", "30us"}, {"handle_cost", "1ms"}});
  const ExperimentSetup setup{.topology = parse_topology("hypercube:3"),
                              .strategy = builtin_strategies().configure("rid", {}),
                              .workload = builtin_workloads().configure("artificial", {{"granularity", "20"}}),
                              .cost = cost,
                              .seed = 5};
  const ExperimentResult r = run_experiment(setup);
  const SimulationResult sim = simulated(
      {.topology = &setup.topology, .strategy = builtin_strategies().configure("none", {}), .cost = cost, .seed = 5},
      setup.workload);
  test::expect_same_run(r.nobal, sim);
}

TEST(Nobal, StillSimulatedWhereThePerNodeSumIsNotExact) {
  const Topology topology = parse_topology("hypercube:3");
  const StrategyChoice none = builtin_strategies().configure("none", {});
  const CostModel cost = make_cost_model("ipsc2");
  struct Case {
    WorkloadChoice workload;
    Execution execution;
  };
  const std::vector<Case> cases{
      {builtin_workloads().configure("dynamic_load", {{"duration", "1s"}}), Execution::fcfs},  // tasks replace tasks
      {builtin_workloads().configure("poisson", {{"tasks", "300"}}), Execution::fcfs},        // arrivals
      {builtin_workloads().configure("artificial", {{"granularity", "5"}}), Execution::processor_sharing},
      {builtin_workloads().configure("bnb", {{"n", "8"}, {"m", "3"}, {"placement", "tree"}}), Execution::fcfs},  // children
      {builtin_workloads().configure("artificial", {{"granularity", "5"}}), Execution::lifo},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.workload.name());
    const SimulationConfig config{.topology = &topology, .strategy = none, .cost = cost, .seed = 3,
                                  .execution = c.execution};
    auto w = c.workload.create();
    SimulationConfig with = config;
    with.workload = w.get();
    bool consumed = true;
    EXPECT_FALSE(nobal_by_node(with, &consumed).has_value());
    EXPECT_FALSE(consumed);
    test::expect_same_run(simulate_nobal(config, c.workload), simulated(config, c.workload));
  }
  // Another strategy is never computed per node.
  auto w = builtin_workloads().configure("artificial", {{"granularity", "5"}}).create();
  EXPECT_FALSE(nobal_by_node({.topology = &topology, .strategy = builtin_strategies().configure("rid", {}),
                              .workload = w.get(), .cost = cost})
                   .has_value());
}

TEST(Nobal, ALimitTheSimulationWouldHitIsLeftToIt) {
  // 200 tasks of no work complete at one instant: a legitimate burst within the instant
  // limit's allowance per task, computed per node; past the event limit the simulation
  // stops with its error, and so does simulate_nobal.
  struct NoWork final : Workload {
    bool closed() const override { return true; }
    void initial_tasks(const Topology& t, const CostModel&, Rng&, TaskSink& sink) override {
      for (int i = 0; i < 200; ++i) sink.add(static_cast<NodeId>(i) % t.size(), 0);
    }
  };
  const WorkloadInfo info{.name = "no_work", .description = "", .source = "", .params = {},
                          .create = [](const Parameters&) { return std::make_unique<NoWork>(); }};
  const WorkloadChoice workload{&info, {}};
  const Topology topology = parse_topology("ring:4");
  const SimulationConfig config{.topology = &topology, .strategy = builtin_strategies().configure("none", {}),
                                .cost = make_cost_model("ipsc2"), .seed = 1, .instant_event_limit = 100};
  auto w = workload.create();
  SimulationConfig with = config;
  with.workload = w.get();
  ASSERT_TRUE(nobal_by_node(with).has_value());
  test::expect_same_run(simulate_nobal(config, workload), simulated(config, workload));
  SimulationConfig few_events = config;
  few_events.instant_event_limit = 0;
  few_events.event_limit = 150;
  EXPECT_THROW(simulated(few_events, workload), std::runtime_error);
  EXPECT_THROW(simulate_nobal(few_events, workload), std::runtime_error);
  few_events.event_limit = 200;  // exactly the 200 tasks: no error, and per node
  w = workload.create();
  with = few_events;
  with.workload = w.get();
  ASSERT_TRUE(nobal_by_node(with).has_value());
  test::expect_same_run(simulate_nobal(few_events, workload), simulated(few_events, workload));
}
