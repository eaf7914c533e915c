#include <dlbkit/core/random.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

namespace dlbkit {
namespace {

/// Four cliques of eight objects of load 1, heavy bytes inside a clique and a light ring
/// between them, on four nodes; `node_of(object)` the mapping.
template <class Mapping>
Phase cliques(Mapping node_of) {
  Phase phase{.nodes = 4};
  for (ObjectIndex i = 0; i < 32; ++i) {
    phase.objects.push_back({.id = i, .load = 1});
    phase.node_of.push_back(node_of(i));
  }
  for (ObjectIndex c = 0; c < 4; ++c) {
    for (ObjectIndex a = 0; a < 8; ++a)
      for (ObjectIndex b = a + 1; b < 8; ++b)
        phase.communications.push_back({.from = 8 * c + a, .to = 8 * c + b, .messages = 10, .bytes = 1e6});
    phase.communications.push_back({.from = 8 * c, .to = 8 * ((c + 1) % 4), .messages = 1, .bytes = 10});
  }
  return phase;
}

Rebalanced partition_run(const std::string& strategy, const Phase& phase, std::map<std::string, std::string> params = {},
               const RebalanceOptions& options = {}) {
  return rebalance(builtin_phase_strategies().configure(strategy, params), phase,
                   parse_topology(fmt::format("complete:{}", phase.nodes)), options);
}

TEST(Partition, KeepsCommunicatingObjectsTogetherWhereGreedyCutsThem) {
  const Phase phase = cliques([](ObjectIndex) { return 0; });  // all on node 0
  const Rebalanced partition = partition_run("partition", phase);
  const Rebalanced greedy = partition_run("greedy", phase);
  EXPECT_LE(partition.after.imbalance, 0.05);
  EXPECT_LT(partition.after.crossing_bytes, greedy.after.crossing_bytes);
  EXPECT_LE(partition.after.crossing_bytes, 40);  // at most the ring
  EXPECT_EQ(partition.rounds, 2u);                // gather, scatter
}

/// A 32 x 32 mesh of objects exchanging 1000 bytes with each neighbour, on 16 nodes of 8 x 8
/// objects each; the objects of the first quarter of the mesh twice as heavy.
Phase mesh() {
  Rng rng(11);
  Phase phase{.nodes = 16};
  for (ObjectIndex y = 0; y < 32; ++y)
    for (ObjectIndex x = 0; x < 32; ++x) {
      const ObjectIndex i = 32 * y + x;
      phase.objects.push_back({.id = i, .load = rng.uniform(0.5, 1.5) * (x < 16 && y < 16 ? 2 : 1)});
      phase.node_of.push_back(4 * (y / 8) + x / 8);
      if (x + 1 < 32) phase.communications.push_back({.from = i, .to = i + 1, .messages = 1, .bytes = 1000});
      if (y + 1 < 32) phase.communications.push_back({.from = i, .to = i + 32, .messages = 1, .bytes = 1000});
    }
  return phase;
}

TEST(Partition, AHighMigrationWeightMigratesFewerObjects) {
  const Phase phase = mesh();
  const Rebalanced cheap = partition_run("partition", phase, {{"migration_weight", "0"}});
  const Rebalanced dear = partition_run("partition", phase, {{"migration_weight", "100"}});
  EXPECT_LT(dear.objects_migrated, cheap.objects_migrated / 2);
  for (const Rebalanced* r : {&cheap, &dear}) EXPECT_LT(r->after.imbalance, r->before.imbalance / 10);
}

TEST(Partition, IsReproducibleFromTheSeed) {
  Rng rng(9);
  const Phase phase = cliques([&](ObjectIndex) { return static_cast<NodeId>(rng.below(4)); });
  for (const char* strategy : {"recursive", "default", "quality", "speed", "balance"})
    EXPECT_EQ(partition_run("partition", phase, {{"strategy", strategy}}, {.seed = 3}).mapping,
              partition_run("partition", phase, {{"strategy", strategy}}, {.seed = 3}).mapping)
        << strategy;
}

TEST(Partition, UnmigratableObjectsStay) {
  Phase phase = cliques([](ObjectIndex) { return 0; });
  for (ObjectIndex i = 0; i < 32; i += 3) phase.objects[i].migratable = false;
  const Rebalanced r = partition_run("partition", phase);
  for (ObjectIndex i = 0; i < 32; i += 3) EXPECT_EQ(r.mapping[i], 0u);
  EXPECT_LT(r.after.imbalance, r.before.imbalance);
}

TEST(Partition, AtMillionsOfObjectsGroupsThemAndStillBalances) {
  // A 1024 x 1024 mesh (2^20 objects, where partition groups light objects that exchange bytes)
  // on 16 nodes of 256 x 256 objects; the first quarter twice as heavy, one object in 4099
  // unmigratable.
  constexpr ObjectIndex kSide = 1024, kBlock = 256;
  Rng rng(5);
  Phase phase{.nodes = 16};
  for (ObjectIndex y = 0; y < kSide; ++y)
    for (ObjectIndex x = 0; x < kSide; ++x) {
      const ObjectIndex i = kSide * y + x;
      phase.objects.push_back({.id = i, .load = rng.uniform(0.5, 1.5) * (x < kSide / 2 && y < kSide / 2 ? 2 : 1),
                               .migratable = i % 4099 != 0});
      phase.node_of.push_back(static_cast<NodeId>(4 * (y / kBlock) + x / kBlock));
      if (x + 1 < kSide) phase.communications.push_back({.from = i, .to = i + 1, .messages = 1, .bytes = 1000});
      if (y + 1 < kSide) phase.communications.push_back({.from = i, .to = i + kSide, .messages = 1, .bytes = 1000});
    }
  const Rebalanced r = partition_run("partition", phase);
  EXPECT_GT(r.before.imbalance, 0.5);
  EXPECT_LT(r.after.imbalance, 0.06);
  for (ObjectIndex i = 0; i < phase.objects.size(); i += 4099) ASSERT_EQ(r.mapping[i], phase.node_of[i]) << i;
  // The cut stays within twice the blocks' own (6 x 1024 edges of 1000 bytes).
  EXPECT_LT(r.after.crossing_bytes, 2 * 6 * 1024 * 1000.0);
}

TEST(Partition, NeverPlacesANodeOverTheMemoryBound) {
  Phase phase = cliques([](ObjectIndex) { return 0; });
  phase.has_memory = true;
  phase.node_working_bytes = {0, 0, 0, 0};
  for (auto& object : phase.objects) object.memory.footprint_bytes = 100;
  const Rebalanced r = partition_run("partition", phase, {}, {.memory_bound = 500});  // five objects per node
  const NodeMemory memory(phase, r.mapping);
  for (NodeId v = 1; v < 4; ++v) EXPECT_LE(memory.of(v), 500) << v;
  EXPECT_FALSE(r.unplaced.empty());
}

TEST(Partition, BadParametersAreInputErrors) {
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"migration_weight", "-1"}, {"imbalance", "2"}, {"imbalance", "nan"}, {"strategy", "fastest"}})
    EXPECT_THROW(builtin_phase_strategies().configure("partition", {{name, value}}), InputError) << name;
}

}  // namespace
}  // namespace dlbkit
