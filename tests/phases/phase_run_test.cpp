// Several phases in a row: when the balancer runs and what the run adds up.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/topology/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>

namespace dlbkit {
namespace {

/// Object i's load in phase k is 1 + (i == k mod objects ? 9 : 0): a hot object moving along.
class MovingHotObject : public PhaseWorkload {
public:
  Phase first_phase(std::size_t nodes, std::uint64_t) override {
    Phase phase{.nodes = nodes};
    for (std::size_t i = 0; i < 2 * nodes; ++i) {
      phase.objects.push_back({.id = i, .load = 1});
      phase.node_of.push_back(static_cast<NodeId>(i % nodes));
    }
    draw(phase);
    return phase;
  }
  void next_phase(Phase& phase) override {
    ++k_;
    draw(phase);
  }

private:
  void draw(Phase& phase) {
    for (std::size_t i = 0; i < phase.objects.size(); ++i) phase.objects[i].load = i == k_ % phase.objects.size() ? 10 : 1;
  }
  std::size_t k_ = 0;
};

PhaseRunResult run(const std::string& strategy, PhaseRunOptions options) {
  MovingHotObject workload;
  return run_phases(builtin_phase_strategies().configure(strategy, {}), workload, parse_topology("complete:4"),
                    options);
}

TEST(PhaseRunResult, BalancesAfterEveryKthPhaseAndAboveTheThreshold) {
  PhaseRunResult r = run("greedy", {.phases = 6, .every = 3});
  ASSERT_EQ(r.steps.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(r.steps[k].rebalanced.has_value(), k == 2 || k == 5) << k;
  EXPECT_EQ(r.balancing_steps, 2u);

  // Every phase has imbalance (10 + 1) / 4.5 - 1 = 1.44: above 1, every phase is followed by balancing.
  r = run("greedy", {.phases = 4, .every = 100, .threshold = 1});
  EXPECT_EQ(r.balancing_steps, 4u);
  r = run("greedy", {.phases = 4, .every = 100, .threshold = 2});
  EXPECT_EQ(r.balancing_steps, 0u);
}

TEST(PhaseRunResult, TheApplicationTimeIsTheSumOfThePhasesMaxLoads) {
  const PhaseRunResult none = run("none", {.phases = 5});
  EXPECT_DOUBLE_EQ(none.application_seconds, 5 * 11.0);  // the hot object beside one other, every phase
  EXPECT_DOUBLE_EQ(none.unbalanced_seconds, none.application_seconds);
  EXPECT_EQ(none.objects_migrated, 0u);
  double sum = 0;
  for (const auto& s : none.steps) sum += s.figures.max_load;
  EXPECT_DOUBLE_EQ(none.application_seconds, sum);
}

TEST(PhaseRunResult, EachPhasePaysItsCrossingMessages) {
  // The hot object 0 talks to object 1, which greedy keeps apart from it (0 alone on a node).
  class Talking : public MovingHotObject {
    Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
      Phase phase = MovingHotObject::first_phase(nodes, seed);
      phase.node_of[1] = phase.node_of[0];
      phase.communications = {{.from = 0, .to = 1, .messages = 2, .bytes = 1e6}};
      return phase;
    }
    void next_phase(Phase&) override {}  // the hot object stays
  } workload;
  CostModel cost;
  cost.send_overhead = 1000;
  cost.latency = 5000;
  cost.per_byte = 1;
  const PhaseRunResult r = run_phases(builtin_phase_strategies().configure("greedy", {}), workload,
                                      parse_topology("complete:4"), {.phases = 2, .rebalance = {.cost = cost}});
  EXPECT_EQ(r.steps[0].communication_seconds, 0.0);  // both on one node
  const double apart = (2 * 1000 + 1e6 + 5000) * 1e-9;
  EXPECT_NE(r.steps[0].rebalanced->mapping[0], r.steps[0].rebalanced->mapping[1]);
  EXPECT_NEAR(r.steps[0].communication_seconds_after, apart, 1e-15);
  EXPECT_NEAR(r.steps[1].communication_seconds, apart, 1e-15);
  EXPECT_NEAR(r.communication_seconds, apart, 1e-15);
  EXPECT_NEAR(r.application_seconds, r.steps[0].figures.max_load + r.steps[1].figures.max_load + apart, 1e-12);
  EXPECT_DOUBLE_EQ(r.unbalanced_seconds, 2 * 12.0);  // never balanced: 0 and 1 together, no message crosses
}

TEST(PhaseRunResult, TheMappingCarriesOverFromOnePhaseToTheNext) {
  // Greedy balanced phase k's loads; phase k + 1 runs that mapping with its own loads (the hot
  // object moved on to object k + 1).
  const PhaseRunResult r = run("greedy", {.phases = 4});
  EXPECT_DOUBLE_EQ(r.steps[0].figures.max_load, 11);
  for (std::size_t k = 0; k + 1 < 4; ++k) {
    const std::vector<NodeId>& mapping = r.steps[k].rebalanced->mapping;
    std::vector<double> loads(4, 0.0);
    for (std::size_t i = 0; i < mapping.size(); ++i) loads[mapping[i]] += i == k + 1 ? 10 : 1;
    EXPECT_DOUBLE_EQ(r.steps[k + 1].figures.max_load, *std::max_element(loads.begin(), loads.end())) << k;
  }
  EXPECT_EQ(r.last.node_of, r.steps.back().rebalanced->mapping);
}

TEST(PhaseRunResult, BadOptionsAreRefused) {
  EXPECT_THROW(run("none", {.phases = 0}), InputError);
  EXPECT_THROW(run("none", {.phases = 1, .every = 0}), InputError);
  EXPECT_THROW(run("none", {.phases = 1, .threshold = -1}), InputError);
}

}  // namespace
}  // namespace dlbkit
