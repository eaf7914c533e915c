#include <dlbkit/core/random.hpp>
#include "../support/phases.hpp"

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

namespace dlbkit {
namespace {

using test::piled_up;

/// `per_node` objects of random loads on each node, the first quarter of the nodes with
/// three times the load.
Phase random_phase(std::size_t nodes, std::size_t per_node, std::uint64_t seed) {
  Rng rng(seed);
  Phase phase{.nodes = nodes};
  for (NodeId v = 0; v < nodes; ++v)
    for (std::size_t k = 0; k < per_node; ++k) {
      phase.objects.push_back({.id = phase.objects.size(), .load = rng.uniform(0, v < nodes / 4 ? 3 : 1)});
      phase.node_of.push_back(v);
    }
  return phase;
}

Rebalanced run(const Phase& phase, std::map<std::string, std::string> params = {},
               const RebalanceOptions& options = {}) {
  return rebalance(builtin_phase_strategies().configure("tempered", params), phase,
                   parse_topology(fmt::format("complete:{}", phase.nodes)), options);
}

TEST(Tempered, SpreadsAPiledUpPhase) {
  const Rebalanced r = run(piled_up(8, 200));
  EXPECT_DOUBLE_EQ(r.before.imbalance, 7);
  EXPECT_LT(r.after.imbalance, 0.2);
  EXPECT_GT(r.messages, 0u);
}

TEST(Tempered, ReducesTheImbalanceOfARandomPhase) {
  const Phase phase = random_phase(64, 20, 3);
  const Rebalanced r = run(phase);
  EXPECT_GT(r.before.imbalance, 0.8);
  EXPECT_LT(r.after.imbalance, r.before.imbalance / 4);
}

TEST(Tempered, IsReproducibleFromTheSeed) {
  const Phase phase = random_phase(64, 20, 4);
  EXPECT_EQ(run(phase, {}, {.seed = 7}).mapping, run(phase, {}, {.seed = 7}).mapping);
  EXPECT_NE(run(phase, {}, {.seed = 7}).mapping, run(phase, {}, {.seed = 8}).mapping);
}

TEST(Tempered, CountsTheGossipOfEveryRound) {
  // Two nodes: the underloaded one informs the other (fanout capped at 1) in round 0; the
  // receiver knows everyone after it and sends nothing more. Then the handshakes.
  const Rebalanced r = run(piled_up(2, 2), {{"n_iterations", "1"}});
  // mean reduction (2 messages), inform (1), proposal + reply for the one transfer (2)
  EXPECT_EQ(r.messages, 5u);
  EXPECT_EQ(r.objects_migrated, 1u);
}

TEST(Tempered, NeverPlacesANodeOverTheMemoryBound) {
  Phase phase = piled_up(4, 40);
  phase.has_memory = true;
  phase.node_working_bytes = {0, 0, 0, 0};
  for (auto& object : phase.objects) object.memory.footprint_bytes = 100;
  const Rebalanced r = run(phase, {}, {.memory_bound = 500});  // five objects per node
  const NodeMemory memory(phase, r.mapping);
  for (NodeId v = 1; v < 4; ++v) EXPECT_LE(memory.of(v), 500) << v;
  EXPECT_LE(r.objects_migrated, 15u);
  EXPECT_GT(r.objects_migrated, 0u);
  EXPECT_FALSE(r.unplaced.empty());
}

TEST(Tempered, TerminatesAtTheEndsOfItsParametersAndNeverRaisesTheMaximum) {
  const Phase phase = random_phase(16, 10, 5);
  const std::vector<std::map<std::string, std::string>> ends = {
      {{"n_iterations", "1"}}, {{"n_iterations", "1000"}}, {{"n_rounds", "1"}}, {{"n_rounds", "64"}},
      {{"fanout", "1"}}, {{"fanout", "1000000000"}}, {{"deterministic_transfer", "true"}},
      {{"order_strategy", "fewest_migrations"}}, {{"order_strategy", "small_objects"}},
      {{"transfer_strategy", "Clustering"}}, {{"cluster_swap_rtol", "0"}}};
  for (const auto& params : ends) {
    const Rebalanced r = run(phase, params);
    EXPECT_EQ(r.mapping.size(), phase.objects.size());
    // The tempered criterion holds on the true loads of the pair: no node rises above the
    // larger of the two.
    EXPECT_LE(r.after.max_load, r.before.max_load) << params.begin()->first << "=" << params.begin()->second;
  }
}

TEST(Tempered, ClusteringMovesSharedBlocksWhole) {
  // Node 0 holds two shared blocks of five objects; node 1 nothing: a swap with node 1's empty
  // cluster moves one block over, whole.
  Phase phase{.nodes = 2, .has_memory = true, .node_working_bytes = {0, 0}, .block_bytes = {10, 10},
              .block_ids = {0, 1}};
  for (int i = 0; i < 10; ++i)
    phase.objects.push_back({.id = static_cast<std::uint64_t>(i), .load = 1.0 + i % 5, .memory = {.block = i / 5}});
  phase.node_of.assign(10, 0);
  const Rebalanced r = run(phase, {{"transfer_strategy", "Clustering"}, {"n_iterations", "1"}});
  EXPECT_DOUBLE_EQ(r.after.imbalance, 0);
  EXPECT_EQ(r.objects_migrated, 5u);
  for (int i = 1; i < 5; ++i) EXPECT_EQ(r.mapping[i], r.mapping[0]);
  for (int i = 6; i < 10; ++i) EXPECT_EQ(r.mapping[i], r.mapping[5]);
}

TEST(Tempered, UnmigratableObjectsStayAndOneNodeIsLeftAlone) {
  Phase phase = piled_up(4, 8);
  for (auto& object : phase.objects) object.migratable = false;
  EXPECT_EQ(run(phase).objects_migrated, 0u);
  EXPECT_EQ(run(piled_up(1, 8)).messages, 0u);
}

TEST(Tempered, BadParametersAreInputErrors) {
  for (const auto& [name, value] : std::map<std::string, std::string>{
           {"n_iterations", "0"}, {"n_rounds", "0"}, {"fanout", "0"}, {"transfer_strategy", "Diffusion"},
           {"order_strategy", "random"}, {"cluster_swap_rtol", "-1"}})
    EXPECT_THROW(builtin_phase_strategies().configure("tempered", {{name, value}}), InputError) << name;
}

}  // namespace
}  // namespace dlbkit
