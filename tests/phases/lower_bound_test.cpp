#include "../support/phases.hpp"

#include <dlbkit/core/random.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/lower_bound.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

namespace dlbkit {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Phase with_loads(std::size_t nodes, std::vector<double> loads) {
  Phase phase{.nodes = nodes};
  for (std::size_t i = 0; i < loads.size(); ++i) phase.objects.push_back({.id = i, .load = loads[i]});
  phase.node_of.assign(loads.size(), 0);
  return phase;
}

/// Every object 1 byte of footprint, block `block` of `block_bytes` shared by all; nodes own nothing.
Phase with_memory(Phase phase, double block_bytes) {
  phase.has_memory = true;
  phase.node_working_bytes.assign(phase.nodes, 0);
  phase.block_bytes = {block_bytes};
  phase.block_ids = {7};
  for (PhaseObject& o : phase.objects) o.memory = {.footprint_bytes = 1, .block = 0};
  return phase;
}

TEST(MaxLoadLowerBound, IsTheMeanWhenNothingElseBinds) {
  EXPECT_DOUBLE_EQ(max_load_lower_bound(with_loads(2, {1, 1, 1, 1}), kInf), 2);
}

TEST(MaxLoadLowerBound, IsTheHeaviestObject) {
  EXPECT_DOUBLE_EQ(max_load_lower_bound(with_loads(3, {10, 1, 1}), kInf), 10);
}

TEST(MaxLoadLowerBound, TwoOfThePPlusOneHeaviestShareANode) {
  // Mean 7.5, heaviest 5: three objects on two nodes put two together, 10.
  EXPECT_DOUBLE_EQ(max_load_lower_bound(with_loads(2, {5, 5, 5}), kInf), 10);
  EXPECT_DOUBLE_EQ(max_load_lower_bound(with_loads(2, {1, 5, 4, 3}), kInf), 7);  // 4 + 3; mean 6.5
}

TEST(MaxLoadLowerBound, UnmigratableObjectsStayTogether) {
  Phase phase = with_loads(4, {3, 3, 1, 1});
  phase.objects[0].migratable = phase.objects[1].migratable = false;
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf), 6);
}

TEST(MaxLoadLowerBound, AnObjectThatFitsNowhereElseStays) {
  // Nodes 1 and 2 own 10 bytes: the block (5) and a footprint (1) do not fit there under 15.
  Phase phase = with_memory(with_loads(3, {2, 2, 2}), 5);
  phase.node_working_bytes = {0, 10, 10};
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, 15), 6);
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, 16), 2);  // they fit elsewhere: the mean
  phase.node_working_bytes = {10, 0, 10};                // node 1 has room
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, 15), 2);
}

/// The least max load over every mapping within the bound, by enumeration.
double brute_force(const Phase& phase, double bound) {
  double best = kInf;
  std::vector<NodeId> mapping(phase.objects.size(), 0);
  for (;;) {
    bool allowed = NodeMemory(phase, mapping).max() <= bound;
    for (std::size_t i = 0; i < mapping.size(); ++i)
      allowed = allowed && (phase.objects[i].migratable || mapping[i] == phase.node_of[i]);
    if (allowed) {
      const std::vector<double> loads = node_loads(phase, mapping);
      best = std::min(best, *std::max_element(loads.begin(), loads.end()));
    }
    std::size_t k = 0;
    while (k < mapping.size() && ++mapping[k] == phase.nodes) mapping[k++] = 0;
    if (k == mapping.size()) return best;
  }
}

TEST(MaxLoadLowerBound, NeverAboveTheBestMappingOnRandomPhases) {
  Rng rng(5, 1);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t nodes = 2 + rng.below(2), n = 2 + rng.below(5);
    Phase phase{.nodes = nodes, .has_memory = true};
    phase.block_bytes = {4, 6};
    phase.block_ids = {1, 2};
    for (std::size_t i = 0; i < n; ++i)
      phase.objects.push_back({.id = i,
                               .load = static_cast<double>(1 + rng.below(9)),
                               .migratable = rng.below(5) != 0,
                               .memory = {.footprint_bytes = static_cast<double>(rng.below(3)),
                                          .working_bytes = static_cast<double>(rng.below(3)),
                                          .block = static_cast<std::int32_t>(rng.below(3)) - 1}});
    for (std::size_t i = 0; i < n; ++i) phase.node_of.push_back(static_cast<NodeId>(rng.below(nodes)));
    for (std::size_t v = 0; v < nodes; ++v) phase.node_working_bytes.push_back(static_cast<double>(rng.below(8)));
    const double bound = static_cast<double>(8 + rng.below(12));
    const double best = brute_force(phase, bound);
    if (best < kInf) {
      EXPECT_LE(max_load_lower_bound(phase, bound), best) << "trial " << trial;
    }
  }
}

TEST(Rebalance, ReportsTheLowerBoundAndWhetherTheResultReachesIt) {
  const auto run = [](const Phase& phase) {
    return rebalance(builtin_phase_strategies().configure("greedy", {}), phase,
                     parse_topology(fmt::format("complete:{}", phase.nodes)), {});
  };
  const Rebalanced even = run(with_loads(2, {1, 1, 1, 1}));  // greedy reaches 2 = the mean
  EXPECT_DOUBLE_EQ(even.max_load_lower_bound, 2);
  EXPECT_DOUBLE_EQ(even.imbalance_lower_bound, 0);
  EXPECT_TRUE(even.at_lower_bound);
  // Greedy (heaviest first to the least loaded) ends at 7 on {3, 3, 2, 2, 2}; the bound is the mean 6.
  const Rebalanced off = run(with_loads(2, {3, 3, 2, 2, 2}));
  EXPECT_DOUBLE_EQ(off.after.max_load, 7);
  EXPECT_DOUBLE_EQ(off.max_load_lower_bound, 6);
  EXPECT_DOUBLE_EQ(off.imbalance_lower_bound, 0);
  EXPECT_FALSE(off.at_lower_bound);
  const Rebalanced heavy = run(with_loads(3, {10, 1, 1}));
  EXPECT_NEAR(heavy.imbalance_lower_bound, 10 / 4.0 - 1, 1e-12);
  EXPECT_TRUE(heavy.at_lower_bound);
}

}  // namespace
}  // namespace dlbkit
