// hierarchical (src/phases/hierarchical.cpp): groups' totals balanced among their leaders, then
// refine or greedy inside each group.
#include <dlbkit/core/random.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

namespace dlbkit {
namespace {

Rebalanced balance(const std::string& strategy, const Phase& phase, std::map<std::string, std::string> params = {},
               double memory_bound = std::numeric_limits<double>::infinity()) {
  return rebalance(builtin_phase_strategies().configure(strategy, params), phase,
                   parse_topology(fmt::format("complete:{}", phase.nodes)), {.memory_bound = memory_bound});
}

// `nodes` x 20 objects of random loads, the first quarter of the nodes five times heavier.
Phase hot(std::size_t nodes, std::uint64_t seed) {
  Rng rng(seed, 11);
  Phase phase{.nodes = nodes, .has_memory = true, .node_working_bytes = std::vector<double>(nodes, 0.0)};
  for (std::size_t i = 0; i < nodes * 20; ++i) {
    const auto node = static_cast<NodeId>(i / 20);
    const double scale = node < nodes / 4 ? 5 : 1;
    phase.objects.push_back({.id = i, .load = scale * (0.5 + rng.uniform()), .memory = {.footprint_bytes = 10}});
    phase.node_of.push_back(node);
  }
  return phase;
}

TEST(Hierarchical, BalancesAcrossAndInsideGroupsAtEveryGroupSize) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Phase phase = hot(36, seed);
    // 1: each node its own group (the level between groups alone); 36: one group (inside alone).
    for (const char* group : {"1", "4", "auto", "36", "100"}) {
      for (const char* inner : {"refine", "greedy"}) {
        SCOPED_TRACE(fmt::format("seed {} group {} inner {}", seed, group, inner));
        const Rebalanced r = balance("hierarchical", phase, {{"group", group}, {"inner", inner}});
        EXPECT_LT(r.after.imbalance, 0.25 * r.before.imbalance);
        EXPECT_GT(r.objects_migrated, 0u);
        EXPECT_TRUE(r.unplaced.empty());
      }
    }
  }
}

TEST(Hierarchical, EndsAtTheEndsOfEveryParameter) {
  const Phase phase = hot(36, 6);
  for (const char* group : {"1", "1000000000"})
    for (const char* inner : {"refine", "greedy"}) {
      SCOPED_TRACE(fmt::format("group {} inner {}", group, inner));
      const Rebalanced eager = balance("hierarchical", phase, {{"group", group}, {"inner", inner}, {"tolerance", "0"}});
      EXPECT_LT(eager.after.imbalance, eager.before.imbalance);
      // Nothing is above (1 + 10^6) x the mean: refine moves nothing; greedy deals every group anew.
      const Rebalanced idle = balance("hierarchical", phase, {{"group", group}, {"inner", inner}, {"tolerance", "1e6"}});
      if (std::string(inner) == "refine") EXPECT_EQ(idle.objects_migrated, 0u);
      else EXPECT_LE(idle.after.imbalance, idle.before.imbalance);
    }
}

TEST(Hierarchical, OneGroupIsItsInnerStrategy) {
  const Phase phase = hot(16, 3);
  EXPECT_EQ(balance("hierarchical", phase, {{"group", "16"}, {"inner", "greedy"}}).mapping, balance("greedy", phase).mapping);
  const Rebalanced refine = balance("refine", phase), one = balance("hierarchical", phase, {{"group", "16"}});
  EXPECT_DOUBLE_EQ(one.after.max_load, refine.after.max_load);
  EXPECT_EQ(one.objects_migrated, refine.objects_migrated);
}

TEST(Hierarchical, RefineInsideMovesFewerObjectsThanGreedyInside) {
  const Phase phase = hot(36, 2);
  EXPECT_LT(balance("hierarchical", phase).objects_migrated,
            balance("hierarchical", phase, {{"inner", "greedy"}}).objects_migrated / 2);
}

TEST(Hierarchical, KeepsEveryNodeWithinTheMemoryBound) {
  const Phase phase = hot(36, 4);
  // 20 objects of 10 bytes a node: a bound of 230 lets a node take at most 3 more.
  const Rebalanced r = balance("hierarchical", phase, {{"inner", "greedy"}}, 230);
  for (NodeId v = 0; v < phase.nodes; ++v) EXPECT_LE(NodeMemory(phase, r.mapping).of(v), 230);
  EXPECT_EQ(r.nodes_over_memory_bound, 0u);
  EXPECT_LT(r.after.imbalance, r.before.imbalance);
}

TEST(Hierarchical, NoNodeHandlesMoreThanItsGroupAndTheLeaders) {
  // 1024 nodes in groups of 32: a round's busiest node handles at most 31 + 31 messages; the
  // flat gather of a central strategy handles 1023 at its root.
  const Phase phase = hot(1024, 1);
  const CostModel cost{.send_overhead = 1, .handle_cost = 1, .latency = 0};
  const auto strategy = builtin_phase_strategies().configure("hierarchical", {});
  const Rebalanced r = rebalance(strategy, phase, parse_topology("complete:1024"), {.cost = cost});
  const Rebalanced refine =
      rebalance(builtin_phase_strategies().configure("refine", {}), phase, parse_topology("complete:1024"), {.cost = cost});
  EXPECT_LE(r.protocol_time, static_cast<SimTime>(r.rounds) * 62);
  EXPECT_GE(refine.protocol_time, 2 * 1023);
}

}  // namespace
}  // namespace dlbkit
