#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/milp.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>

namespace dlbkit {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

Phase on_node_0(std::size_t nodes, const std::vector<double>& loads) {
  Phase phase{.nodes = nodes};
  for (std::size_t i = 0; i < loads.size(); ++i) phase.objects.push_back({.id = i, .load = loads[i]});
  phase.node_of.assign(loads.size(), 0);
  return phase;
}

double max_load(const Phase& phase, const std::vector<NodeId>& mapping) {
  const std::vector<double> loads = node_loads(phase, mapping);
  return *std::max_element(loads.begin(), loads.end());
}

std::size_t migrated(const Phase& phase, const std::vector<NodeId>& mapping) {
  std::size_t moved = 0;
  for (std::size_t i = 0; i < mapping.size(); ++i) moved += mapping[i] != phase.node_of[i];
  return moved;
}

/// The lexicographic optimum by enumeration: the least max load within the bound, then the
/// fewest migrations; {inf, 0} when no mapping fits.
std::pair<double, std::size_t> brute_force_optimum(const Phase& phase, double bound) {
  std::pair<double, std::size_t> best{kInfinity, 0};
  std::vector<NodeId> mapping(phase.objects.size(), 0);
  for (;;) {
    bool allowed = NodeMemory(phase, mapping).max() <= bound;
    for (std::size_t i = 0; i < mapping.size(); ++i)
      allowed = allowed && (phase.objects[i].migratable || mapping[i] == phase.node_of[i]);
    if (allowed) best = std::min(best, {max_load(phase, mapping), migrated(phase, mapping)});
    std::size_t k = 0;
    while (k < mapping.size() && ++mapping[k] == phase.nodes) mapping[k++] = 0;
    if (k == mapping.size()) return best;
  }
}

TEST(Milp, FindsTheOptimumKnownByHandWithTheFewestMigrations) {
  // 21 on two nodes: no subset sums to 10.5, so 11 (5 + 5 | 4 + 4 + 3) is the best, above every
  // cheap bound (the mean 10.5); moving the two 5s is the fewest migrations from all on node 0.
  const Phase phase = on_node_0(2, {4, 5, 3, 5, 4});
  testing::internal::CaptureStdout();
  const MilpResult r = solve_milp(phase, {});
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "");  // a library prints nothing
  ASSERT_TRUE(r.found);
  EXPECT_TRUE(r.optimal);
  EXPECT_TRUE(r.migrations_minimal);
  EXPECT_FALSE(r.out_of_time);
  EXPECT_DOUBLE_EQ(r.max_load, 11);
  EXPECT_DOUBLE_EQ(r.max_load_lower_bound, 11);
  EXPECT_EQ(r.objects_migrated, 2u);
  EXPECT_EQ(brute_force_optimum(phase, kInfinity), std::make_pair(11.0, std::size_t{2}));
  EXPECT_DOUBLE_EQ(max_load(phase, r.mapping), 11);
}

TEST(Milp, MatchesBruteForceUnderTheMemoryBound) {
  Rng rng(11, 3);
  int bound_binds = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t nodes = 2 + rng.below(2), n = 3 + rng.below(4);
    Phase phase{.nodes = nodes, .has_memory = true};
    phase.block_bytes = {5, 3};
    phase.block_ids = {1, 2};
    for (std::size_t i = 0; i < n; ++i)
      phase.objects.push_back({.id = i,
                               .load = static_cast<double>(1 + rng.below(9)),
                               .migratable = rng.below(6) != 0,
                               .memory = {.footprint_bytes = static_cast<double>(1 + rng.below(3)),
                                          .working_bytes = static_cast<double>(rng.below(4)),
                                          .block = static_cast<std::int32_t>(rng.below(3)) - 1}});
    for (std::size_t i = 0; i < n; ++i) phase.node_of.push_back(static_cast<NodeId>(rng.below(nodes)));
    for (std::size_t v = 0; v < nodes; ++v) phase.node_working_bytes.push_back(static_cast<double>(rng.below(4)));
    const double bound = static_cast<double>(10 + rng.below(10));
    const auto [best, fewest] = brute_force_optimum(phase, bound);
    bound_binds += best > brute_force_optimum(phase, kInfinity).first;
    const MilpResult r = solve_milp(phase, {.memory_bound = bound});
    if (best == kInfinity) {
      EXPECT_TRUE(r.infeasible) << "trial " << trial;
      EXPECT_FALSE(r.found) << "trial " << trial;
      continue;
    }
    ASSERT_TRUE(r.found && r.optimal && r.migrations_minimal) << "trial " << trial;
    EXPECT_DOUBLE_EQ(r.max_load, best) << "trial " << trial;
    EXPECT_EQ(r.objects_migrated, fewest) << "trial " << trial;
    EXPECT_LE(NodeMemory(phase, r.mapping).max(), bound) << "trial " << trial;
  }
  EXPECT_GT(bound_binds, 3);  // the bound changed the optimum in several trials
}

TEST(Milp, StopsAtItsTimeLimitWithAGapAndNoClaimOfOptimality) {
  // 400 objects of random loads on 23 nodes: CBC cannot prove the optimum in 0.5 s.
  Rng rng(3, 9);
  std::vector<double> loads(400);
  for (double& load : loads) load = 1 + static_cast<double>(rng.below(1'000'000)) / 1000.0;
  const Phase phase = on_node_0(23, loads);
  const auto start = std::chrono::steady_clock::now();
  const MilpResult r = solve_milp(phase, {.time_limit = 0.5});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 3);
  EXPECT_TRUE(r.out_of_time);
  EXPECT_FALSE(r.optimal && r.migrations_minimal);
  ASSERT_TRUE(r.found);
  EXPECT_LE(r.max_load_lower_bound, r.max_load);
  EXPECT_DOUBLE_EQ(r.max_load, max_load(phase, r.mapping));
}

TEST(Milp, RefusesWhatItCannotSolve) {
  EXPECT_THROW(solve_milp(on_node_0(2, {1, 2}), {.time_limit = 0}), InputError);
  Phase big{.nodes = 1001};
  big.objects.resize(1000);
  big.node_of.assign(1000, 0);
  try {
    solve_milp(big, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "the exact reference of 1000 objects on 1001 nodes (1001000 pairs); accepted: at most "
                           "1000000 objects x nodes");
  }
}

}  // namespace
}  // namespace dlbkit
