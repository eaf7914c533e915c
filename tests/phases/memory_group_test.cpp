// The memory bound on groups of consecutive nodes (LBAF's ranks_per_node): NodeMemory::without,
// PhaseContext's checks, and every phase strategy that takes a group keeping within the bound
// each group it fills.

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/milp.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/topology/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

// `nodes` nodes with own bytes, `per_node` objects each of random load, footprint and working
// bytes, most of them in one of `blocks` shared blocks (blocks repeat across nodes).
Phase random_memory_phase(std::uint64_t seed, std::size_t nodes, std::size_t per_node, std::size_t blocks) {
  Rng rng(seed);
  Phase phase{.nodes = nodes, .has_memory = true};
  for (std::size_t v = 0; v < nodes; ++v) phase.node_working_bytes.push_back(std::floor(rng.uniform(0, 20)));
  for (std::size_t b = 0; b < blocks; ++b) {
    phase.block_bytes.push_back(std::floor(rng.uniform(5, 40)));
    phase.block_ids.push_back(static_cast<std::int64_t>(b));
  }
  for (std::size_t v = 0; v < nodes; ++v)
    for (std::size_t k = 0; k < per_node; ++k) {
      const auto block = rng.below(blocks + 1);  // blocks: no block
      phase.objects.push_back({.id = phase.objects.size(),
                               .load = rng.uniform(0.1, 2) * (v % 3 == 0 ? 4 : 1),
                               .memory = {.footprint_bytes = std::floor(rng.uniform(1, 10)),
                                          .working_bytes = std::floor(rng.uniform(0, 4)) * 5,
                                          .block = block == blocks ? -1 : static_cast<std::int32_t>(block)}});
      phase.node_of.push_back(static_cast<NodeId>(v));
    }
  return phase;
}

double group_memory(const NodeMemory& memory, NodeId v, std::size_t group, std::size_t nodes) {
  double sum = 0;
  for (std::size_t u = v / group * group; u < std::min(v / group * group + group, nodes); ++u)
    sum += memory.of(static_cast<NodeId>(u));
  return sum;
}

TEST(NodeMemory, WithoutIsTheMemoryCountedAfreshWithoutTheObjects) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    const Phase phase = random_memory_phase(seed, 3, 8, 3);
    Rng rng(seed + 100);
    const NodeMemory memory(phase, phase.node_of);
    const NodeId v = static_cast<NodeId>(rng.below(phase.nodes));
    std::vector<ObjectIndex> leaving;
    std::vector<NodeId> after = phase.node_of;
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (phase.node_of[i] == v && rng.below(2) == 0) {
        leaving.push_back(i);
        after[i] = NodeMemory::kNowhere;
      }
    EXPECT_DOUBLE_EQ(memory.without(leaving, v), NodeMemory(phase, after).of(v));
  }
}

TEST(PhaseContext, AMemoryGroupFitsWhatKeepsTheTargetsGroupWithinTheBound) {
  std::size_t fit = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    SCOPED_TRACE(seed);
    const Phase phase = random_memory_phase(seed, 6, 5, 4);
    const std::size_t group = 1 + seed % 3;  // 1, 2 and 3 nodes
    Rng rng(seed + 200);
    const double bound = group_memory(NodeMemory(phase, phase.node_of), 0, group, phase.nodes) * rng.uniform(0.9, 1.3);
    const PhaseContext ctx(phase, parse_topology("complete:6"), CostModel{}, bound, 1, {}, group);
    // Some of one node's objects to another node, within its group or not.
    const NodeId from = static_cast<NodeId>(rng.below(6)), to = static_cast<NodeId>((from + 1 + rng.below(5)) % 6);
    std::vector<ObjectIndex> objects;
    std::vector<NodeId> after = phase.node_of;
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (phase.node_of[i] == from && (objects.empty() || rng.below(2) == 0)) {
        objects.push_back(i);
        after[i] = to;
      }
    const bool expected = group_memory(NodeMemory(phase, after), to, group, phase.nodes) <= bound;
    EXPECT_EQ(ctx.fits(objects, to), expected) << "from " << from << " to " << to << ", group " << group;
    EXPECT_DOUBLE_EQ(ctx.bounded_memory(to), group_memory(NodeMemory(phase, phase.node_of), to, group, phase.nodes));
    (expected ? fit : refused)++;
  }
  EXPECT_GT(fit, 0u);  // both answers were asked for
  EXPECT_GT(refused, 0u);
}

TEST(PhaseContext, MovesTogetherCheckTheGroupOfEveryNodeThatGains) {
  // Four nodes in groups of two, each holding one object of a block of its own (10 bytes).
  Phase phase{.nodes = 4, .has_memory = true, .node_working_bytes = {0, 0, 0, 0}, .block_bytes = {10, 10, 10, 10},
              .block_ids = {0, 1, 2, 3}};
  for (std::int32_t b = 0; b < 4; ++b) phase.objects.push_back({.id = static_cast<std::uint64_t>(b), .load = 1,
                                                                .memory = {.block = b}});
  phase.node_of = {0, 1, 2, 3};
  PhaseContext ctx(phase, parse_topology("complete:4"), CostModel{}, /*memory_bound=*/20, 1, {}, /*memory_group=*/2);
  const std::vector<std::pair<ObjectIndex, NodeId>> into_full_group{{0, 3}};  // node 3 alone holds 20
  EXPECT_FALSE(ctx.move_together(into_full_group));
  EXPECT_FALSE(ctx.move(0, 3));
  const std::vector<std::pair<ObjectIndex, NodeId>> swap{{0, 2}, {2, 0}}, within{{2, 1}, {1, 0}};
  EXPECT_TRUE(ctx.move_together(swap));
  EXPECT_TRUE(ctx.move_together(within));
  EXPECT_EQ(ctx.mapping(), (std::vector<NodeId>{2, 0, 1, 3}));
  EXPECT_DOUBLE_EQ(ctx.bounded_memory(3), 20);
}

Topology topology_for(const PhaseStrategyInfo& s) {
  Topology hypercube = parse_topology("hypercube:3");
  try {
    if (s.check_topology) s.check_topology(hypercube);
    return hypercube;
  } catch (const InputError&) {
    return parse_topology("complete:8");
  }
}

TEST(MemoryGroup, EveryStrategyThatTakesOneKeepsEachGroupItFillsWithinTheBound) {
  // Heavy nodes 0, 3 and 6; groups of 2 nodes, of 3 (the last of 2), of all 8, and one far
  // larger than the machine. The bound is the fullest group's memory, so every group
  // starts within it and a node may only take what its partners leave room for.
  const Phase phase = random_memory_phase(7, 8, 10, 5);
  const NodeMemory before(phase, phase.node_of);
  std::size_t over_with_nodes_alone = 0;
  for (const std::size_t group : {std::size_t{2}, std::size_t{3}, std::size_t{8}, std::size_t{1} << 40}) {
    double bound = 0;
    for (std::size_t v = 0; v < 8; v += group) bound = std::max(bound, group_memory(before, static_cast<NodeId>(v), group, 8));
    for (const PhaseStrategyInfo& s : builtin_phase_strategies().all()) {
      if (s.plans_node_memory) continue;
      for (const auto& params : std::vector<std::map<std::string, std::string>>{{}, {{"transfer_strategy", "Clustering"}}}) {
        if (!params.empty() && s.name != "tempered") continue;
        SCOPED_TRACE(s.name + (params.empty() ? "" : " Clustering") + ", groups of " + std::to_string(group));
        const auto strategy = builtin_phase_strategies().configure(s.name, params);
        const Rebalanced r =
            rebalance(strategy, phase, topology_for(s), {.memory_bound = bound, .memory_group = group});
        const NodeMemory after(phase, r.mapping);
        double fullest = 0;
        for (std::size_t v = 0; v < 8; v += group) {
          const double memory = group_memory(after, static_cast<NodeId>(v), group, 8);
          EXPECT_LE(memory, bound) << "group of node " << v;
          fullest = std::max(fullest, memory);
        }
        EXPECT_EQ(r.nodes_over_memory_bound, 0u);
        ASSERT_TRUE(r.max_group_memory_after.has_value());
        EXPECT_DOUBLE_EQ(*r.max_group_memory_after, fullest);
        if (group != 2) continue;
        // The same bound on each node alone lets some strategy fill a group past it.
        const Rebalanced alone = rebalance(strategy, phase, topology_for(s), {.memory_bound = bound});
        EXPECT_FALSE(alone.max_group_memory_after.has_value());
        const NodeMemory memory(phase, alone.mapping);
        for (NodeId v = 0; v < 8; v += 2) over_with_nodes_alone += group_memory(memory, v, 2, 8) > bound;
      }
    }
  }
  EXPECT_GT(over_with_nodes_alone, 0u);
}

// Two objects of one shared block (100 bytes) on node 0 of two, under a bound of 150: alone,
// each node may hold the block, so the objects split; as one group, they must stay together.
TEST(MemoryGroup, TheExactReferenceBoundsTheGroup) {
  Phase phase{.nodes = 2, .has_memory = true, .node_working_bytes = {0, 0}, .block_bytes = {100}, .block_ids = {0}};
  phase.objects = {{.id = 0, .load = 1, .memory = {.block = 0}}, {.id = 1, .load = 1, .memory = {.block = 0}}};
  phase.node_of = {0, 0};
  const MilpResult alone = solve_milp(phase, {.memory_bound = 150, .time_limit = 30});
  ASSERT_TRUE(alone.found && alone.optimal);
  EXPECT_DOUBLE_EQ(alone.max_load, 1);
  const MilpResult together = solve_milp(phase, {.memory_bound = 150, .memory_group = 2, .time_limit = 30});
  ASSERT_TRUE(together.found && together.optimal);
  EXPECT_DOUBLE_EQ(together.max_load, 2);
  EXPECT_EQ(together.objects_migrated, 0u);
  EXPECT_TRUE(solve_milp(phase, {.memory_bound = 99, .memory_group = 2, .time_limit = 30}).infeasible);
  // A strategy beside it: at the optimum, which proves its bound.
  const Rebalanced r = rebalance(builtin_phase_strategies().configure("greedy", {}), phase,
                                 parse_topology("complete:2"),
                                 {.memory_bound = 150, .memory_group = 2, .optimum_time_limit = 30.0});
  ASSERT_TRUE(r.optimum.has_value());
  EXPECT_DOUBLE_EQ(r.after.max_load, 2);
  EXPECT_DOUBLE_EQ(r.max_load_lower_bound, 2);
  EXPECT_TRUE(r.at_lower_bound);
}

TEST(MemoryGroup, WhatCannotTakeOneIsAClearError) {
  const Phase phase = random_memory_phase(3, 8, 4, 2);
  const Topology t = parse_topology("complete:8");
  const auto expect_refused = [&](const std::string& strategy, RebalanceOptions options, const std::string& part) {
    try {
      rebalance(builtin_phase_strategies().configure(strategy, {}), phase, t, options);
      ADD_FAILURE() << "accepted: " << part;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_refused("greedy", {.memory_bound = 100, .memory_group = 0}, "memory group 0; accepted: a number of nodes >= 1");
  expect_refused("hierarchical", {.memory_bound = 100, .memory_group = 2},
                 "memory group 2 with phase strategy hierarchical, which plans each node's memory alone; accepted: 1, "
                 "or one of none, greedy");
  expect_refused("tempered", {.memory_bound = 100, .memory_group = 2, .as_protocol = true}, "with --as-protocol");
  try {
    rebalance_options({.memory_group = -3}, 1);
    ADD_FAILURE() << "accepted --memory-group -3";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--memory-group '-3' is not accepted; accepted: an integer >= 1 (nodes)");
  }
}

}  // namespace
}  // namespace dlbkit
