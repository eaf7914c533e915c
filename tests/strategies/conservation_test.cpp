// Every WLR93 strategy on every topology family it accepts, under each cost model: every
// task is executed exactly once, the same inputs give the same run, and a topology a
// strategy cannot use is refused with an error that says why.
#include "../support/networks.hpp"
#include "../sim/conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::ConservationObserver;

namespace {

const std::vector<std::string> kTopologies = {"hypercube:3", "hypercube:4", "hypercube:5", "hypercube:6",
                                              "torus:4x4",   "mesh:3x5",    "ring:7",      "tree:binary:4",
                                              "complete:6",  "odd:3",       "bisectional:5"};

const std::vector<std::pair<std::string, std::map<std::string, std::string>>> kCosts = {
    {"ideal", {}},
    {"ipsc2", {}},
    {"ipsc2", {{"latency", "2s"}}},  // every load, proximity and request is stale on arrival
    {"ipsc2", {{"tasks_per_message", "3"}}},
};

const std::vector<std::string> kStrategies = {"sid", "gm", "hbm", "dem"};

std::unique_ptr<Workload> workload(int which) {
  if (which == 0) return std::make_unique<test::DynamicWorkload>();
  return builtin_workloads().configure("artificial", {{"granularity", which == 1 ? "3" : "25"}}).create();
}

SimulationResult run(const Topology& t, const std::string& strategy, const CostModel& cost, int which,
                     std::uint64_t seed, std::vector<Observer*> observers = {}) {
  auto w = workload(which);
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure(strategy, {}),
                          .workload = w.get(),
                          .cost = cost,
                          .seed = seed,
                          .observers = std::move(observers)};
  return simulate(config);
}

}  // namespace

TEST(StrategyConservation, EveryTaskIsExecutedExactlyOnceAndRunsRepeat) {
  int runs = 0;
  for (const auto& spec : kTopologies) {
    const Topology t = parse_topology(spec);
    for (const auto& strategy : kStrategies) {
      if (!test::accepts(strategy, t)) continue;
      for (const auto& [preset, overrides] : kCosts) {
        const CostModel cost = make_cost_model(preset, overrides);
        for (int which = 0; which < 3; ++which) {
          const std::string changed = overrides.empty() ? "" : " " + overrides.begin()->first;
          SCOPED_TRACE(strategy + " on " + spec + ", " + preset + changed + ", workload " + std::to_string(which));
          const std::uint64_t seed = 11 + static_cast<std::uint64_t>(runs);
          ConservationObserver check;
          const SimulationResult r = run(t, strategy, cost, which, seed, {&check});
          check.expect_all_done();
          EXPECT_EQ(r.tasks_completed, r.tasks_created);
          std::uint64_t executed = 0, sent = 0, received = 0;
          for (const NodeStats& n : r.nodes) {
            executed += n.tasks_executed;
            sent += n.tasks_sent;
            received += n.tasks_received;
          }
          EXPECT_EQ(executed, r.tasks_completed);
          EXPECT_EQ(sent, r.tasks_transferred);
          EXPECT_EQ(received, r.tasks_transferred) << "tasks still in flight at the end";

          const SimulationResult again = run(t, strategy, cost, which, seed);
          EXPECT_EQ(again.makespan, r.makespan);
          EXPECT_EQ(again.tasks_transferred, r.tasks_transferred);
          EXPECT_EQ(again.messages_by_kind, r.messages_by_kind);
          EXPECT_EQ(again.events, r.events);
          ++runs;
        }
      }
    }
  }
  // sid, gm, dem on all 11; hbm on the 6 with 2^d nodes (hypercubes, torus:4x4, bisectional:5).
  EXPECT_EQ(runs, (3 * 11 + 6) * 4 * 3);
}

TEST(StrategyConservation, WhoAcceptsWhichTopology) {
  for (const auto& spec : kTopologies) {
    const Topology t = parse_topology(spec);
    EXPECT_TRUE(test::accepts("sid", t) && test::accepts("gm", t) && test::accepts("dem", t)) << spec;
    EXPECT_EQ(test::accepts("hbm", t), (t.size() & (t.size() - 1)) == 0) << spec;
  }
}

TEST(StrategyConservation, EachStrategyBeatsNobalOnTheTable4Setting) {
  // WLR93 Table IV: hypercube:5, artificial g = 100, iPSC/2; mean over three seeds.
  const Topology t = parse_topology("hypercube:5");
  const CostModel cost = make_cost_model("ipsc2");
  for (const auto& strategy : kStrategies) {
    double nobal = 0, balanced = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      auto w = builtin_workloads().configure("artificial", {{"granularity", "100"}}).create();
      auto n = builtin_workloads().configure("artificial", {{"granularity", "100"}}).create();
      SimulationConfig with{.topology = &t, .strategy = builtin_strategies().configure(strategy, {}),
                            .workload = w.get(), .cost = cost, .seed = seed};
      SimulationConfig without{.topology = &t, .strategy = builtin_strategies().configure("none", {}),
                               .workload = n.get(), .cost = cost, .seed = seed};
      balanced += static_cast<double>(simulate(with).makespan);
      nobal += static_cast<double>(simulate(without).makespan);
    }
    EXPECT_GT(nobal / balanced, 1.0) << strategy;
  }
}
