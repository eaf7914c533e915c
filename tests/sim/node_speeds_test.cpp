// Nodes that differ in speed (SimulationConfig::speeds): a node of speed s spends 1 / s of the
// time on all its processor time; the experiment's optimum is the total work over the total
// speed; NOBAL per node agrees with the simulation; speeds that cannot be are refused.

#include "node_speed.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace dlbkit;

namespace {

// Ten tasks of `work` on every node, given at the start.
struct EqualShares final : Workload {
  explicit EqualShares(SimTime w) : work(w) {}
  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink& sink) override {
    for (NodeId v = 0; v < topology.size(); ++v)
      for (int k = 0; k < 10; ++k) sink.add(v, work);
  }
  bool closed() const override { return true; }
  SimTime work;
};

}  // namespace

TEST(NodeSpeeds, TimeAndProcessorTimeAgree) {
  for (const double speed : {0.1, 1.0 / 3, 0.7, 1.0, 1.5, 2.0, 3.0, 7.3, 1e3}) {
    for (SimTime p = 0; p < 2000; ++p) {
      const SimTime t = time_at_speed(p, speed);
      ASSERT_GE(processor_at_speed(t, speed), p) << speed << " " << p;  // what is due at t is done at t
      ASSERT_LE(time_at_speed(processor_at_speed(p, speed), speed), p) << speed << " " << p;
    }
  }
  EXPECT_EQ(time_at_speed(10, 2), 5);
  EXPECT_EQ(time_at_speed(11, 2), 6);
  EXPECT_EQ(time_at_speed(std::int64_t{1} << 62, 0.25), -1);  // beyond 64-bit nanoseconds
}

TEST(NodeSpeeds, ANodeTwiceAsFastFinishesItsEqualShareInHalfTheTime) {
  const Topology pair = parse_topology("complete:2");
  EqualShares workload(kMillisecond);
  const SimulationConfig config{.topology = &pair, .strategy = builtin_strategies().configure("none", {}),
                                .workload = &workload, .cost = make_cost_model("ipsc2"), .speeds = {1, 2}};
  const SimulationResult r = simulate(config);
  EXPECT_EQ(r.nodes[0].finish, 10 * kMillisecond);
  EXPECT_EQ(r.nodes[1].finish, 5 * kMillisecond);
  EXPECT_EQ(r.nodes[0].busy, 10 * kMillisecond);
  EXPECT_EQ(r.nodes[1].busy, 5 * kMillisecond);
  EXPECT_EQ(r.makespan, 10 * kMillisecond);
  EXPECT_EQ(r.total_work, 20 * kMillisecond);  // work at speed 1

  // NOBAL per node gives the same, also where a task's time is rounded up.
  for (const SimTime work : {kMillisecond, kMillisecond + 1}) {
    EqualShares w(work);
    SimulationConfig c = config;
    c.workload = &w;
    c.speeds = {3, 0.7};
    const std::optional<SimulationResult> by_node = nobal_by_node(c);
    const SimulationResult sim = simulate(c);  // EqualShares keeps no state: it can serve again
    ASSERT_TRUE(by_node.has_value());
    EXPECT_EQ(by_node->makespan, sim.makespan);
    EXPECT_EQ(by_node->total_work, sim.total_work);
    for (std::size_t v = 0; v < 2; ++v) {
      EXPECT_EQ(by_node->nodes[v].finish, sim.nodes[v].finish) << v;
      EXPECT_EQ(by_node->nodes[v].busy, sim.nodes[v].busy) << v;
    }
    EXPECT_EQ(sim.nodes[0].finish, 10 * time_at_speed(work, 3));
  }
}

TEST(NodeSpeeds, EveryNodeAtSpeedTwoIsTheMachineWithHalfTheProcessorTimes) {
  // Every node at speed 2 runs as a machine of speed 1 whose processor times (work, checks,
  // sending, handling) are halved, over the same network: the same events at the same times.
  // (RID sets no timers, whose delays are not processor time.)
  const Topology topology = parse_topology("hypercube:3");
  const std::map<std::string, std::string> network{{"latency", "50us"}, {"per_hop", "5us"}, {"per_task", "3us"}};
  auto halved = network;
  halved.insert({{"loop_time", "650ns"}, {"poll_interval", "65us"}, {"poll_cost", "19650ns"},
                 {"send_overhead", "75us"}, {"handle_cost", "50us"}});
  const auto run = [&](const std::map<std::string, std::string>& cost, std::vector<double> speeds) {
    auto workload = builtin_workloads().configure("artificial", {{"granularity", "20"}}).create();
    return simulate({.topology = &topology, .strategy = builtin_strategies().configure("rid", {}),
                     .workload = workload.get(), .cost = make_cost_model("ipsc2", cost), .seed = 3,
                     .speeds = std::move(speeds)});
  };
  const SimulationResult fast = run(network, std::vector<double>(8, 2.0));
  const SimulationResult half = run(halved, {});
  EXPECT_GT(fast.tasks_transferred, 0u);
  EXPECT_EQ(fast.makespan, half.makespan);
  EXPECT_EQ(fast.events, half.events);
  EXPECT_EQ(fast.messages_by_kind, half.messages_by_kind);
  EXPECT_EQ(fast.total_work, 2 * half.total_work);
  for (std::size_t v = 0; v < 8; ++v) {
    EXPECT_EQ(fast.nodes[v].busy, half.nodes[v].busy) << v;
    EXPECT_EQ(fast.nodes[v].overhead, half.nodes[v].overhead) << v;
  }
}

TEST(NodeSpeeds, NodesSlowerThanOneCheckTheirMessagesNeverInThePast) {
  // At speed 0.3 a nanosecond of work takes 3.3: a message arriving between two whole
  // nanoseconds of work, to be handled at once (poll_interval 0) or at a poll point just
  // passed, is handled when it arrives.
  const Topology topology = parse_topology("torus:4x4");
  std::vector<double> speeds;
  for (int k = 0; k < 16; ++k) speeds.push_back(std::vector<double>{1, 2.5, 0.3}[k % 3]);
  for (const char* cost : {"ahmad91", "ideal", "ipsc2"}) {
    for (const char* strategy : {"sid", "rid"}) {
      SCOPED_TRACE(::testing::Message() << strategy << " " << cost);
      auto workload = builtin_workloads().configure("artificial", {{"granularity", "20"}}).create();
      SimulationResult r;
      ASSERT_NO_THROW(r = simulate({.topology = &topology, .strategy = builtin_strategies().configure(strategy, {}),
                                    .workload = workload.get(), .cost = make_cost_model(cost), .speeds = speeds}));
      EXPECT_EQ(r.tasks_completed, r.tasks_created);
      for (const NodeStats& n : r.nodes) EXPECT_LE(n.busy + n.overhead, r.makespan);
    }
  }
}

TEST(NodeSpeeds, SpeedsOfOneChangeNothing) {
  const Topology topology = parse_topology("hypercube:3");
  const auto run = [&](std::vector<double> speeds) {
    auto workload = builtin_workloads().configure("artificial", {{"granularity", "20"}}).create();
    return simulate({.topology = &topology, .strategy = builtin_strategies().configure("rid", {}),
                     .workload = workload.get(), .cost = make_cost_model("ipsc2"), .speeds = std::move(speeds)});
  };
  const SimulationResult ones = run(std::vector<double>(8, 1.0)), none = run({});
  EXPECT_EQ(ones.makespan, none.makespan);
  EXPECT_EQ(ones.events, none.events);
  EXPECT_EQ(ones.messages_by_kind, none.messages_by_kind);
}

TEST(NodeSpeeds, BalancedTwoNodesAtSpeedsOneAndTwoEndNearTotalWorkOverTotalSpeed) {
  // The artificial tasks of seed 1 give node 1 about twice node 0's work: NOBAL on speeds 2
  // and 1 ends near twice the optimum. The cost model checks messages for free (ipsc2's
  // checks take 30% of a node's processor time, which the optimum leaves out).
  for (const char* strategy : {"rid", "work_stealing"}) {
    for (const std::vector<double>& speeds : {std::vector<double>{1, 2}, std::vector<double>{2, 1}}) {
      SCOPED_TRACE(::testing::Message() << strategy << " " << speeds[0] << "," << speeds[1]);
      ExperimentSetup setup{.topology = parse_topology("complete:2"),
                            .strategy = builtin_strategies().configure(strategy, {}),
                            .workload = builtin_workloads().configure("artificial", {{"granularity", "100"}}),
                            .cost = make_cost_model("ipsc2-network"),
                            .speeds = speeds};
      const ExperimentResult r = run_experiment(setup);
      EXPECT_DOUBLE_EQ(r.optimal, to_seconds(r.balanced.total_work) / 3);
      EXPECT_LE(to_seconds(r.balanced.makespan), 1.1 * r.optimal);
      if (speeds[0] == 2) {
        EXPECT_GT(to_seconds(r.nobal.makespan), 1.5 * r.optimal);
      }
      EXPECT_EQ(to_json(setup, r)["inputs"]["speeds"], nlohmann::json(speeds));
    }
  }
}

TEST(NodeSpeeds, SpeedsThatCannotBeAreRefused) {
  const Topology pair = parse_topology("complete:2");
  const auto error = [&](std::vector<double> speeds) -> std::string {
    EqualShares workload(kMillisecond);
    try {
      simulate({.topology = &pair, .strategy = builtin_strategies().configure("none", {}), .workload = &workload,
                .cost = make_cost_model("ipsc2"), .speeds = std::move(speeds)});
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({1}), "simulate: 1 speeds for 2 nodes; accepted: one per node, or none (every node at speed 1)");
  EXPECT_EQ(error({1, 0}), "simulate: node 1's speed is 0; accepted: a finite number > 0");
  EXPECT_EQ(error({-1, 1}), "simulate: node 0's speed is -1; accepted: a finite number > 0");
  EXPECT_EQ(error({1, std::nan("")}), "simulate: node 1's speed is nan; accepted: a finite number > 0");
  EXPECT_EQ(error({1, std::numeric_limits<double>::infinity()}),
            "simulate: node 1's speed is inf; accepted: a finite number > 0");
  EqualShares workload(0);
  EXPECT_FALSE(nobal_by_node({.topology = &pair, .strategy = builtin_strategies().configure("none", {}),
                              .workload = &workload, .speeds = {-1, 1}})
                   .has_value());
}
