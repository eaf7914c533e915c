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
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    ++k_;
    draw(phase);
    return {};
  }

private:
  void draw(Phase& phase) {
    for (std::size_t i = 0; i < phase.objects.size(); ++i) phase.objects[i].load = i == k_ % phase.objects.size() ? 10 : 1;
  }
  std::size_t k_ = 0;
};

PhaseRunResult run_phases(const std::string& strategy, PhaseRunOptions options) {
  MovingHotObject workload;
  return run_phases(builtin_phase_strategies().configure(strategy, {}), workload, parse_topology("complete:4"),
                    options);
}

TEST(PhaseRunResult, BalancesAfterEveryKthPhaseAndAboveTheThreshold) {
  PhaseRunResult r = run_phases("greedy", {.phases = 6, .every = 3});
  ASSERT_EQ(r.steps.size(), 6u);
  for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(r.steps[k].rebalanced.has_value(), k == 2 || k == 5) << k;
  EXPECT_EQ(r.balancing_steps, 2u);

  // Every phase has imbalance (10 + 1) / 4.5 - 1 = 1.44: above 1, every phase is followed by balancing.
  r = run_phases("greedy", {.phases = 4, .every = 100, .threshold = 1});
  EXPECT_EQ(r.balancing_steps, 4u);
  r = run_phases("greedy", {.phases = 4, .every = 100, .threshold = 2});
  EXPECT_EQ(r.balancing_steps, 0u);
}

TEST(PhaseRunResult, TheApplicationTimeIsTheSumOfThePhasesMaxLoads) {
  const PhaseRunResult none = run_phases("none", {.phases = 5});
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
    std::vector<ObjectOrigin> next_phase(Phase&) override { return {}; }  // the hot object stays
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
  const PhaseRunResult r = run_phases("greedy", {.phases = 4});
  EXPECT_DOUBLE_EQ(r.steps[0].figures.max_load, 11);
  for (std::size_t k = 0; k + 1 < 4; ++k) {
    const std::vector<NodeId>& mapping = r.steps[k].rebalanced->mapping;
    std::vector<double> loads(4, 0.0);
    for (std::size_t i = 0; i < mapping.size(); ++i) loads[mapping[i]] += i == k + 1 ? 10 : 1;
    EXPECT_DOUBLE_EQ(r.steps[k + 1].figures.max_load, *std::max_element(loads.begin(), loads.end())) << k;
  }
  EXPECT_EQ(r.last.node_of, r.steps.back().rebalanced->mapping);
}

/// Phase 0: objects 0 to 3, loads 4, 1, 1, 1, all on node 0. Phase 1: object 0 split into 10
/// and 11 (loads 2 and 2, from 0), a new object 20 (load 1) the workload puts on node 3, and the
/// objects listed in another order, every node_of 1 but 20's.
class SplittingObject : public PhaseWorkload {
public:
  Phase first_phase(std::size_t nodes, std::uint64_t) override {
    Phase phase{.nodes = nodes, .objects = {{.id = 0, .load = 4}, {.id = 1, .load = 1}, {.id = 2, .load = 1},
                                            {.id = 3, .load = 1}}};
    phase.node_of.assign(4, 0);
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    phase.objects = {{.id = 3, .load = 1}, {.id = 10, .load = 2}, {.id = 2, .load = 1}, {.id = 20, .load = 1},
                     {.id = 11, .load = 2}, {.id = 1, .load = 1}};
    phase.node_of = {1, 1, 1, 3, 1, 1};
    return {{.id = 10, .from = 0}, {.id = 11, .from = 0}};
  }
};

TEST(PhaseRunResult, ObjectsCreatedAndDestroyedAreFollowedById) {
  SplittingObject workload;
  const PhaseRunResult r = run_phases(builtin_phase_strategies().configure("greedy", {}), workload,
                                      parse_topology("complete:4"), {.phases = 2, .every = 2});
  // Phase 0 unbalanced: 7 on node 0; greedy balances after phase 1 only.
  EXPECT_EQ(r.steps[0].objects, 4u);
  EXPECT_EQ(r.steps[0].objects_created + r.steps[0].objects_destroyed, 0u);
  EXPECT_EQ(r.steps[1].objects, 6u);
  EXPECT_EQ(r.steps[1].objects_created, 3u);  // 10, 11, 20
  EXPECT_EQ(r.steps[1].objects_destroyed, 1u);  // 0
  EXPECT_EQ(r.objects_created, 3u);
  EXPECT_EQ(r.objects_destroyed, 1u);
  // Phase 1 ran with 1, 2, 3, 10 and 11 on node 0 (their own or their origin's) and 20 on node 3.
  EXPECT_DOUBLE_EQ(r.steps[1].figures.max_load, 7);
  EXPECT_DOUBLE_EQ(r.steps[1].unbalanced_max_load, 7);
  ASSERT_TRUE(r.steps[1].rebalanced.has_value());
  // Greedy's migrations are of phase 1's objects, from where they ran: the created ones are not
  // counted as moved, nor is the destroyed one.
  std::size_t moved = 0;
  const std::vector<NodeId> ran = {0, 0, 0, 3, 0, 0};
  for (std::size_t i = 0; i < ran.size(); ++i) moved += r.last.node_of[i] != ran[i];
  EXPECT_EQ(r.objects_migrated, moved);

  SplittingObject again;
  const PhaseRunResult none = run_phases(builtin_phase_strategies().configure("none", {}), again,
                                         parse_topology("complete:4"), {.phases = 2});
  EXPECT_EQ(none.last.node_of, ran);
  EXPECT_EQ(none.objects_migrated, 0u);
}

TEST(PhaseRunResult, AChildStartsOnItsParentsNodeAndNeverBalancedOnItsParentsFirstNode) {
  SplittingObject workload;
  const PhaseRunResult r = run_phases(builtin_phase_strategies().configure("greedy", {}), workload,
                                      parse_topology("complete:4"), {.phases = 2, .every = 1});
  // Greedy spread phase 0's objects, one a node; phase 1 keeps each by id, 10 and 11 with 0.
  const std::vector<NodeId>& after0 = r.steps[0].rebalanced->mapping;
  std::vector<double> loads(4, 0.0);
  // Phase 1's objects but 20, each as (the index in phase 0 of itself or its origin, its load).
  const std::vector<std::pair<std::size_t, double>> ran = {{3, 1}, {0, 2}, {2, 1}, {0, 2}, {1, 1}};
  for (const auto& [object, load] : ran) loads[after0[object]] += load;
  loads[3] += 1;  // 20, where the workload put it
  EXPECT_DOUBLE_EQ(r.steps[1].figures.max_load, *std::max_element(loads.begin(), loads.end()));
  EXPECT_DOUBLE_EQ(r.steps[1].unbalanced_max_load, 7);  // never balanced: 1, 2, 3, 10, 11 on node 0
  EXPECT_DOUBLE_EQ(r.unbalanced_seconds, 7 + 7);
}

TEST(PhaseRunResult, AWorkloadsPhaseWithTwoObjectsOfOneIdOrAnUnknownOriginIsRefused) {
  class Bad : public SplittingObject {
  public:
    explicit Bad(bool twice) : twice_(twice) {}
    std::vector<ObjectOrigin> next_phase(Phase& phase) override {
      std::vector<ObjectOrigin> origins = SplittingObject::next_phase(phase);
      if (twice_) phase.objects[1].id = 3;
      else origins[0].from = 10;
      return origins;
    }

  private:
    bool twice_;
  };
  for (const bool twice : {true, false}) {
    Bad workload(twice);
    try {
      run_phases(builtin_phase_strategies().configure("none", {}), workload, parse_topology("complete:4"),
                 {.phases = 2});
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(twice ? "two objects with id 3" : "from object 10"), std::string::npos)
          << e.what();
    }
  }
}

TEST(PhaseRunResult, BadOptionsAreRefused) {
  EXPECT_THROW(run_phases("none", {.phases = 0}), InputError);
  EXPECT_THROW(run_phases("none", {.phases = 1, .every = 0}), InputError);
  EXPECT_THROW(run_phases("none", {.phases = 1, .threshold = -1}), InputError);
}

}  // namespace
}  // namespace dlbkit
