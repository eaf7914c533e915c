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

TEST(MaxLoadLowerBound, WholeClustersAreUnitsAndObjectsOfNoBlockStay) {
  // Node 0: block 0's objects 3 and 3, block 1's 1; node 1: nothing. Objects: the two
  // heaviest of three together, 4. Clusters: block 0's, 6.
  Phase phase = with_memory(with_loads(2, {3, 3, 1}), 1);
  phase.block_bytes = {1, 1};
  phase.block_ids = {7, 8};
  phase.objects[2].memory.block = 1;
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf), 4);
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf, true), 6);
  // The same objects on two nodes are two clusters: the mean again.
  phase.node_of = {0, 1, 1};
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf, true), 4);
  // Objects of no block stay: node 1's 3 and 1.
  phase.objects[1].memory.block = phase.objects[2].memory.block = -1;
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf, true), 4);
  phase.objects[0].memory.block = -1;
  phase.node_of = {1, 1, 1};
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf), 4);
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, kInf, true), 7);
}

TEST(MaxLoadLowerBound, AClusterWithAnObjectThatFitsNowhereElseStays) {
  // Node 0: block 0 of objects 2 and 2, one with 10 working bytes that fit on no other node
  // under 13 (node 1 owns 5); node 1 empty of objects. The objects may part, the cluster not.
  Phase phase = with_memory(with_loads(2, {2, 2}), 1);
  phase.node_working_bytes = {0, 5};
  phase.objects[0].memory.working_bytes = 10;
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, 13), 2);
  EXPECT_DOUBLE_EQ(max_load_lower_bound(phase, 13, true), 4);
}

/// Whether `mapping` keeps each node's objects of one block together and objects of no block
/// where they are, as a strategy that moves only whole clusters does.
bool keeps_clusters(const Phase& phase, const std::vector<NodeId>& mapping) {
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    if (phase.objects[i].memory.block < 0 && mapping[i] != phase.node_of[i]) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (phase.objects[i].memory.block >= 0 && phase.objects[j].memory.block == phase.objects[i].memory.block &&
          phase.node_of[j] == phase.node_of[i] && phase.objects[j].migratable && phase.objects[i].migratable &&
          mapping[j] != mapping[i])
        return false;
  }
  return true;
}

/// The least max load over every mapping within the bound, by enumeration; with
/// `whole_clusters`, over those that keep clusters whole.
double brute_force(const Phase& phase, double bound, bool whole_clusters = false) {
  double best = kInf;
  std::vector<NodeId> mapping(phase.objects.size(), 0);
  for (;;) {
    bool allowed = NodeMemory(phase, mapping).max() <= bound && (!whole_clusters || keeps_clusters(phase, mapping));
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
  int tight = 0;  // trials where counting clusters raises the bound
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
    const double best_whole = brute_force(phase, bound, true);
    if (best_whole < kInf) {
      EXPECT_LE(max_load_lower_bound(phase, bound, true), best_whole) << "trial " << trial;
      tight += max_load_lower_bound(phase, bound, true) > max_load_lower_bound(phase, bound);
    }
  }
  EXPECT_GT(tight, 0);
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

TEST(Rebalance, TemperedWithoutSubclustersIsBoundedByItsHeaviestCluster) {
  // Node 0 of 4 holds block 0 (objects 5 and 5) and block 1 (four of 1): mean 3.5, but
  // without subclusters block 0's 10 stays together. tempered moves block 1 away and is at
  // its bound for whole clusters; with subclusters the bound is the objects' and it is not.
  Phase phase{.nodes = 4, .has_memory = true, .node_working_bytes = {0, 0, 0, 0}, .block_bytes = {1, 1},
              .block_ids = {0, 1}};
  for (int i = 0; i < 6; ++i)
    phase.objects.push_back(
        {.id = static_cast<std::uint64_t>(i), .load = i < 2 ? 5.0 : 1.0, .memory = {.block = i < 2 ? 0 : 1}});
  phase.node_of.assign(6, 0);
  const auto run = [&](const char* max_subclusters) {
    return rebalance(builtin_phase_strategies().configure(
                         "tempered", {{"transfer_strategy", "Clustering"}, {"max_subclusters", max_subclusters}}),
                     phase, parse_topology("complete:4"), {});
  };
  const Rebalanced whole = run("0");
  EXPECT_TRUE(whole.lower_bound_on_clusters);
  EXPECT_DOUBLE_EQ(whole.max_load_lower_bound, 10);
  EXPECT_DOUBLE_EQ(whole.after.max_load, 10);
  EXPECT_TRUE(whole.at_lower_bound);
  const Rebalanced split = run("inf");
  EXPECT_FALSE(split.lower_bound_on_clusters);
  EXPECT_DOUBLE_EQ(split.max_load_lower_bound, 5);
}

}  // namespace
}  // namespace dlbkit
