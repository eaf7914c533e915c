// The "bnb" simulator workload: tasks from the real search, work = steps x step_time,
// conserved by the simulator.

#include "../sim/conservation.hpp"

#include <dlbkit/workloads/bnb_workload.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace dlbkit;

namespace {

struct RecordedSearch {
  NodeId node;
  SimTime work;
  std::uint32_t tag;
};

class Recorder final : public TaskSink {
public:
  void add(NodeId node, SimTime work, std::uint32_t tag) override { tasks.push_back({node, work, tag}); }
  std::vector<RecordedSearch> tasks;
};

std::vector<RecordedSearch> create_tasks(const WorkloadInfo& info, const std::map<std::string, std::string>& params,
                                   const std::string& topology = "hypercube:3", std::uint64_t seed = 1) {
  const WorkloadRegistry registry = [&] {
    WorkloadRegistry r;
    r.add(info);
    return r;
  }();
  auto workload = registry.configure("bnb", params).create();
  Recorder sink;
  Rng rng(seed);
  workload->initial_tasks(parse_topology(topology), make_cost_model("ideal"), rng, sink);
  return sink.tasks;
}

TardinessInstance instance_of_seed(int n, std::uint64_t seed) {
  Rng rng(seed);
  return generate_tardiness_instance(n, rng);
}

}  // namespace

TEST(BnbWorkload, TaskWorkIsTheRealSearchStepsTimesStepTime) {
  for (int m : {2, 4, 6}) {
    const auto tasks = create_tasks(bnb_workload_info(),
                                    {{"n", "8"}, {"m", std::to_string(m)}, {"instance_seed", "5"}, {"step_time", "150us"}});
    const TardinessInstance jobs = instance_of_seed(8, 5);
    const std::int64_t T = static_cast<std::int64_t>(std::floor(static_cast<double>(solve_tardiness(jobs).tardiness) * 1.1));
    const TardinessDecomposition d = decompose_tardiness(jobs, m, T);
    ASSERT_EQ(tasks.size(), d.tasks.size());
    SimTime total = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      EXPECT_EQ(tasks[i].tag, i);
      EXPECT_EQ(tasks[i].work, static_cast<SimTime>(count_schedules_within(jobs, T, d.tasks[i].prefix).steps) * 150 * kMicrosecond);
      total += tasks[i].work;
    }
    const TardinessCount sequential = count_schedules_within(jobs, T);
    EXPECT_EQ(total, static_cast<SimTime>(sequential.steps - d.steps_above) * 150 * kMicrosecond) << "m = " << m;
  }
}

TEST(BnbWorkload, ExplicitAndInfiniteThresholds) {
  const TardinessInstance jobs = instance_of_seed(7, 2);
  const std::int64_t optimum = solve_tardiness(jobs).tardiness;
  const auto at = [&](const std::string& T) {
    return create_tasks(bnb_workload_info(), {{"n", "7"}, {"m", "3"}, {"instance_seed", "2"}, {"threshold", T}});
  };
  EXPECT_EQ(at("inf").size(), 7u * 6 * 5 * 4);
  EXPECT_EQ(at(std::to_string(optimum + 40)).size(), decompose_tardiness(jobs, 3, optimum + 40).tasks.size());
  // auto with slack s is floor(optimum (1 + s)).
  const auto auto_tasks = create_tasks(bnb_workload_info(), {{"n", "7"}, {"m", "3"}, {"instance_seed", "2"}, {"slack", "0.5"}});
  const auto explicit_tasks = at(std::to_string(static_cast<std::int64_t>(std::floor(static_cast<double>(optimum) * 1.5))));
  ASSERT_EQ(auto_tasks.size(), explicit_tasks.size());
  for (std::size_t i = 0; i < auto_tasks.size(); ++i) EXPECT_EQ(auto_tasks[i].work, explicit_tasks[i].work);
  // Below the optimum, tasks whose prefixes are within the threshold remain (their
  // subtrees hold no schedule within it); a threshold that no prefix meets leaves no task.
  EXPECT_FALSE(at(std::to_string(optimum - 1)).empty());
  const TardinessInstance late{.processing = {10, 10}, .due = {0, 0}};
  try {
    create_tasks(bnb_workload_info(late), {{"m", "1"}, {"threshold", "9"}});
    ADD_FAILURE() << "no error for a threshold that leaves no task";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the optimum 30"), std::string::npos) << e.what();
  }
}

TEST(BnbWorkload, PlacementInBlocksOrCyclic) {
  const auto blocks = create_tasks(bnb_workload_info(), {{"n", "6"}, {"m", "3"}, {"threshold", "inf"}}, "hypercube:3");
  ASSERT_EQ(blocks.size(), 120u);
  for (std::size_t i = 0; i < blocks.size(); ++i) EXPECT_EQ(blocks[i].node, i / 15) << "task " << i;
  const auto cyclic =
      create_tasks(bnb_workload_info(), {{"n", "6"}, {"m", "3"}, {"threshold", "inf"}, {"placement", "cyclic"}}, "ring:7");
  ASSERT_EQ(cyclic.size(), 120u);
  for (std::size_t i = 0; i < cyclic.size(); ++i) EXPECT_EQ(cyclic[i].node, i % 7) << "task " << i;
}

TEST(BnbWorkload, InstanceFromTheRunStreamOrFromItsOwnSeed) {
  const auto total = [](const std::vector<RecordedSearch>& tasks) {
    SimTime sum = 0;
    for (const auto& t : tasks) sum += t.work;
    return sum;
  };
  const std::map<std::string, std::string> drawn = {{"n", "8"}, {"m", "5"}};
  EXPECT_EQ(total(create_tasks(bnb_workload_info(), drawn, "hypercube:3", 1)),
            total(create_tasks(bnb_workload_info(), drawn, "hypercube:3", 1)));
  EXPECT_NE(total(create_tasks(bnb_workload_info(), drawn, "hypercube:3", 1)),
            total(create_tasks(bnb_workload_info(), drawn, "hypercube:3", 2)));
  const std::map<std::string, std::string> fixed = {{"n", "8"}, {"m", "5"}, {"instance_seed", "3"}};
  EXPECT_EQ(total(create_tasks(bnb_workload_info(), fixed, "hypercube:3", 1)),
            total(create_tasks(bnb_workload_info(), fixed, "hypercube:3", 2)));
  // The fixed-instance variant on the same instance makes the same tasks.
  const auto from_instance = create_tasks(bnb_workload_info(instance_of_seed(8, 3)), {{"m", "5"}});
  EXPECT_EQ(total(from_instance), total(create_tasks(bnb_workload_info(), fixed)));
}

TEST(BnbWorkload, BadParametersAreInputErrors) {
  EXPECT_THROW(create_tasks(bnb_workload_info(), {{"n", "8"}, {"m", "9"}}), InputError);
  EXPECT_THROW(create_tasks(bnb_workload_info(), {{"n", "21"}}), InputError);
  EXPECT_THROW(create_tasks(bnb_workload_info(), {{"threshold", "-1"}}), InputError);
  EXPECT_THROW(create_tasks(bnb_workload_info(), {{"placement", "random"}}), InputError);
  EXPECT_THROW(create_tasks(bnb_workload_info(instance_of_seed(5, 1)), {{"m", "6"}}), InputError);
  EXPECT_THROW(create_tasks(bnb_workload_info(instance_of_seed(5, 1)), {{"n", "5"}}), InputError);
}

TEST(BnbWorkload, ConservedUnderTheSimulator) {
  const TardinessInstance jobs = instance_of_seed(8, 4);
  const std::int64_t T = static_cast<std::int64_t>(std::floor(static_cast<double>(solve_tardiness(jobs).tardiness) * 1.1));
  const TardinessDecomposition d = decompose_tardiness(jobs, 4, T);
  const SimTime expected_work = static_cast<SimTime>(count_schedules_within(jobs, T).steps - d.steps_above) * 150 * kMicrosecond;
  for (const std::string spec : {"hypercube:4", "ring:5"}) {
    for (const std::string placement : {"blocks", "cyclic"}) {
      const Topology topology = parse_topology(spec);
      WorkloadRegistry registry;
      registry.add(bnb_workload_info());
      auto workload = registry.configure("bnb", {{"n", "8"}, {"m", "4"}, {"instance_seed", "4"}, {"placement", placement}}).create();
      test::ConservationObserver check;
      const SimulationResult r = simulate(SimulationConfig{.topology = &topology,
                                                           .strategy = builtin_strategies().configure("rid", {}),
                                                           .workload = workload.get(),
                                                           .cost = make_cost_model("ideal"),
                                                           .seed = 7,
                                                           .observers = {&check}});
      SCOPED_TRACE(spec + " " + placement);
      check.expect_all_done();
      EXPECT_EQ(r.tasks_created, d.tasks.size());
      EXPECT_EQ(r.tasks_completed, d.tasks.size());
      EXPECT_EQ(r.total_work, expected_work);
    }
  }
}
