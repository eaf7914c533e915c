#include "../support/phases.hpp"

#include <dlbkit/core/random.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dlbkit {
namespace {

using test::piled_up;

Rebalanced rebalance_run(const std::string& strategy, const Phase& phase, const RebalanceOptions& options = {},
               std::map<std::string, std::string> params = {}) {
  return rebalance(builtin_phase_strategies().configure(strategy, params), phase,
                   parse_topology(fmt::format("complete:{}", phase.nodes)), options);
}

TEST(PhaseFigures, ImbalanceIsMaxOverMeanMinusOne) {
  const Phase phase = piled_up(4, 4);  // loads 1+2+3+4 = 10 on node 0, mean 2.5
  const PhaseFigures f = phase_figures(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(f.max_load, 10);
  EXPECT_DOUBLE_EQ(f.mean_load, 2.5);
  EXPECT_DOUBLE_EQ(f.imbalance, 3);
}

TEST(PhaseFigures, CrossingCommunicationCountsOnlyEdgesBetweenNodes) {
  Phase phase = piled_up(2, 3);
  phase.node_of = {0, 0, 1};
  phase.communications = {{.from = 0, .to = 1, .messages = 2, .bytes = 100},
                          {.from = 1, .to = 2, .messages = 3, .bytes = 50}};
  const PhaseFigures f = phase_figures(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(f.crossing_messages, 3);
  EXPECT_DOUBLE_EQ(f.crossing_bytes, 50);
}

TEST(NodeMemory, CountsOwnBytesSharedBlocksOnceFootprintsAndTheLargestWorkingBytes) {
  Phase phase{.nodes = 2, .has_memory = true, .node_working_bytes = {1000, 0}, .block_bytes = {500},
              .block_ids = {7}};
  for (int i = 0; i < 3; ++i)
    phase.objects.push_back({.id = static_cast<std::uint64_t>(i), .load = 1,
                             .memory = {.footprint_bytes = 10, .working_bytes = 100.0 * (i + 1), .block = 0}});
  phase.node_of = {0, 0, 1};
  NodeMemory memory(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(memory.of(0), 1000 + 500 + 20 + 200);
  EXPECT_DOUBLE_EQ(memory.of(1), 500 + 10 + 300);
  EXPECT_DOUBLE_EQ(memory.with(2, 0), 1000 + 500 + 30 + 300);
  memory.move(2, 1, 0);
  EXPECT_DOUBLE_EQ(memory.of(0), 1000 + 500 + 30 + 300);
  EXPECT_DOUBLE_EQ(memory.of(1), 0);  // the block left with its last object
}

TEST(Greedy, PlacesTheHeaviestObjectsOnTheLeastLoadedNodes) {
  const Rebalanced r = rebalance_run("greedy", piled_up(2, 4));  // 4,3,2,1 -> {4,1} and {3,2}
  EXPECT_DOUBLE_EQ(r.before.imbalance, 1);
  EXPECT_DOUBLE_EQ(r.after.imbalance, 0);
  EXPECT_EQ(r.objects_migrated, 2u);
  EXPECT_EQ(r.rounds, 2u);  // gather, scatter
  EXPECT_EQ(r.messages, 2u);
}

TEST(Greedy, NeverPlacesANodeOverTheMemoryBoundAndReportsWhatItCouldNotPlace) {
  Phase phase = piled_up(2, 4);
  phase.has_memory = true;
  phase.node_working_bytes = {0, 0};
  for (auto& object : phase.objects) object.memory.footprint_bytes = 100;
  const Rebalanced r = rebalance_run("greedy", phase, {.memory_bound = 150});  // node 1 has room for one object
  EXPECT_EQ(r.objects_migrated, 1u);
  EXPECT_LE(NodeMemory(phase, r.mapping).of(1), 150);
  EXPECT_FALSE(r.unplaced.empty());
  EXPECT_EQ(r.nodes_over_memory_bound, 1u);  // node 0, over it from the start
}

// LPT's classic miss: loads 3, 3, 2, 2, 2 on two nodes go {3, 2, 2} and {3, 2} (max 7); the
// local search swaps a 3 for a 2 and reaches the optimum, 6 each.
TEST(Greedy, ImproveReachesTheOptimumWhereHeaviestFirstMissesIt) {
  Phase phase{.nodes = 2};
  for (double load : {3.0, 3.0, 2.0, 2.0, 2.0}) phase.objects.push_back({.id = phase.objects.size(), .load = load});
  phase.node_of.assign(5, 0);
  EXPECT_DOUBLE_EQ(rebalance_run("greedy", phase).after.max_load, 7);
  EXPECT_DOUBLE_EQ(rebalance_run("greedy", phase, {}, {{"improve", "true"}}).after.max_load, 6);
}

// On random phases, with and without a memory bound, the local search never ends above
// heaviest first, keeps every node that gains within the bound, and on these reaches within
// 2% of the mean (the lower bound) where heaviest first does not.
TEST(Greedy, ImproveNeverEndsAboveHeaviestFirstNorOverTheBound) {
  std::size_t closer = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Rng rng(seed, 3);
    Phase phase{.nodes = 8, .has_memory = true, .node_working_bytes = std::vector<double>(8, 0.0)};
    for (std::size_t i = 0; i < 48; ++i) {
      phase.objects.push_back({.id = i, .load = 1 + 9 * rng.uniform(), .memory = {.footprint_bytes = 10}});
      phase.node_of.push_back(static_cast<NodeId>(i % 2));
    }
    for (const double bound : {std::numeric_limits<double>::infinity(), 80.0}) {
      SCOPED_TRACE(fmt::format("seed {} bound {}", seed, bound));
      const Rebalanced plain = rebalance_run("greedy", phase, {.memory_bound = bound});
      const Rebalanced improved = rebalance_run("greedy", phase, {.memory_bound = bound}, {{"improve", "true"}});
      EXPECT_LE(improved.after.max_load, plain.after.max_load);
      EXPECT_EQ(improved.nodes_over_memory_bound, plain.nodes_over_memory_bound);
      for (NodeId v = 2; v < phase.nodes; ++v) EXPECT_LE(NodeMemory(phase, improved.mapping).of(v), bound);
      if (std::isinf(bound) && improved.after.imbalance < 0.02 && plain.after.imbalance >= 0.02) ++closer;
    }
  }
  EXPECT_GT(closer, 0u);
}

TEST(Refine, MovesOnlyFromOverloadedNodesAndFewerObjectsThanGreedy) {
  Phase phase = piled_up(4, 40);
  for (ObjectIndex i = 0; i < 40; ++i) phase.node_of[i] = i % 4;  // balanced ...
  phase.node_of[39] = 0;                                          // ... but for one heavy object
  const Rebalanced refine = rebalance_run("refine", phase);
  const Rebalanced greedy = rebalance_run("greedy", phase);
  EXPECT_LT(refine.after.imbalance, refine.before.imbalance);
  EXPECT_LT(refine.objects_migrated, greedy.objects_migrated);
  for (ObjectIndex i = 0; i < 40; ++i) {
    if (refine.mapping[i] != phase.node_of[i]) {
      EXPECT_EQ(phase.node_of[i], 0u);  // only the overloaded node gives
    }
  }
}

TEST(Rebalance, UnmigratableObjectsStay) {
  Phase phase = piled_up(2, 4);
  for (auto& object : phase.objects) object.migratable = false;
  for (const char* strategy : {"greedy", "refine"}) EXPECT_EQ(rebalance_run(strategy, phase).objects_migrated, 0u) << strategy;
}

TEST(Rebalance, ProtocolTimeFollowsTheCostModel) {
  CostModel cost{.send_overhead = 10, .handle_cost = 100, .latency = 1000};
  const Rebalanced r = rebalance_run("greedy", piled_up(3, 3), {.cost = cost});
  // gather: node 0 handles 2 messages (200) + latency; scatter: node 0 sends 2 (20), each
  // other node handles one (100), + latency
  EXPECT_EQ(r.protocol_time, 200 + 1000 + 100 + 1000);
}

TEST(Rebalance, TheMigrationByteCostIsTheModelsPerByteUnlessGiven) {
  const RebalanceInputs per_byte{.cost = "ideal", .cost_params = {{"per_byte", "0.5ns"}}};
  EXPECT_DOUBLE_EQ(rebalance_options(per_byte, 1).migration.per_byte, 0.5);
  RebalanceInputs given = per_byte;
  given.migration_byte_cost = "2ns";
  EXPECT_DOUBLE_EQ(rebalance_options(given, 1).migration.per_byte, 2.0);
}

TEST(Rebalance, AMigrationPaysItsBytesAndItsRecordedSerializeSeconds) {
  // Two equal objects on node 0: greedy sends one to node 1. Node 0 packs it, both handle it
  // and its bytes cross, then node 1 unpacks it: three steps one after the other.
  Phase phase = piled_up(2, 2);
  for (PhaseObject& o : phase.objects) {
    o.load = 1;
    o.memory.serialized_bytes = 100;
    o.memory.serialize_seconds = 2e-6;
  }
  const MigrationCost cost{.per_object = 10, .per_byte = 1};
  Rebalanced r = rebalance_run("greedy", phase, {.migration = cost});
  EXPECT_EQ(r.objects_migrated, 1u);
  EXPECT_EQ(r.migration_time, 2000 + (10 + 100) + 2000);  // unpacking unknown: as long as packing
  for (PhaseObject& o : phase.objects) o.memory.deserialize_seconds = 0.5e-6;
  r = rebalance_run("greedy", phase, {.migration = cost});
  EXPECT_EQ(r.migration_time, 2000 + (10 + 100) + 500);
}

TEST(Rebalance, AMigrationsBytesGoOutAndComeInAtOnce) {
  // Objects of 100 and 60 bytes swap nodes: each node handles both, but sends 100 or 60 bytes
  // while it receives the other; its link carries the larger, the slowest node's.
  Phase phase = piled_up(2, 2);
  phase.node_of = {0, 1};
  phase.objects[0].memory.serialized_bytes = 100;
  phase.objects[1].memory.serialized_bytes = 60;
  phase.objects[0].memory.serialize_seconds = 3e-6;  // node 0 packs 3 us, node 1 1 us
  phase.objects[1].memory.serialize_seconds = 1e-6;
  const SimTime t = migration_time(phase, {1, 0}, {.per_object = 10, .per_byte = 1});
  EXPECT_EQ(t, 3000 + (2 * 10 + 100) + 3000);  // the unpacking of node 1's arrival: 3 us
}

TEST(Rebalance, MismatchedTopologyIsAnError) {
  EXPECT_THROW(rebalance(builtin_phase_strategies().configure("greedy", {}), piled_up(2, 2),
                         parse_topology("complete:3"), {}),
               InputError);
}

}  // namespace
}  // namespace dlbkit

namespace dlbkit {
namespace {

// Two nodes, each with room for one shared block of 100 bytes: node 0 holds block 0's two
// objects, node 1 block 1's one.
Phase two_blocks() {
  Phase phase{.nodes = 2, .has_memory = true, .node_working_bytes = {0, 0}, .block_bytes = {100, 100},
              .block_ids = {10, 11}};
  phase.objects = {{.id = 0, .load = 2, .memory = {.block = 0}},
                   {.id = 1, .load = 2, .memory = {.block = 0}},
                   {.id = 2, .load = 1, .memory = {.block = 1}}};
  phase.node_of = {0, 0, 1};
  return phase;
}

TEST(PhaseContext, ASwapOfTwoBlocksIsCheckedWhenItIsDoneNotHalfway) {
  const Phase phase = two_blocks();
  const Topology t = parse_topology("complete:2");
  PhaseContext ctx(phase, t, CostModel{}, /*memory_bound=*/100, 1);
  EXPECT_FALSE(ctx.move(2, 0));  // one object at a time: node 0 would hold both blocks
  const std::vector<std::pair<ObjectIndex, NodeId>> swap{{0, 1}, {1, 1}, {2, 0}};
  EXPECT_TRUE(ctx.move_together(swap));
  EXPECT_EQ(ctx.mapping(), (std::vector<NodeId>{1, 1, 0}));
  EXPECT_DOUBLE_EQ(ctx.load(0), 1);
  EXPECT_DOUBLE_EQ(ctx.load(1), 4);
  EXPECT_DOUBLE_EQ(ctx.memory().of(0), 100);
  EXPECT_DOUBLE_EQ(ctx.memory().of(1), 100);
}

TEST(PhaseContext, MovesTogetherThatDoNotFitMoveNothing) {
  const Phase phase = two_blocks();
  const Topology t = parse_topology("complete:2");
  PhaseContext ctx(phase, t, CostModel{}, /*memory_bound=*/100, 1);
  const std::vector<std::pair<ObjectIndex, NodeId>> half{{0, 1}, {2, 0}};  // object 1 keeps block 0 on node 0
  EXPECT_FALSE(ctx.move_together(half));
  EXPECT_EQ(ctx.mapping(), phase.node_of);
  EXPECT_DOUBLE_EQ(ctx.load(0), 4);
  EXPECT_DOUBLE_EQ(ctx.memory().of(0), 100);
  EXPECT_DOUBLE_EQ(ctx.memory().of(1), 100);
}

}  // namespace
}  // namespace dlbkit
