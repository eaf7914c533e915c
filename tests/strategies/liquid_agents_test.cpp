// The liquid and nna agents (Henrich): every task executed exactly once under every cost
// model, and in lock-step (ideal cost model, static loads) the same loads as the round
// kernels, round by round.

#include "round_agents.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/liquid.hpp>
#include <dlbkit/rounds/nna.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

using namespace dlbkit::test;

TEST(LiquidAgents, EveryTaskIsExecutedExactlyOnceAndRunsRepeat) {
  const std::vector<AgentCase> agents = {
      {"liquid", {{"condition", "c5"}}, {"ring:7", "torus:4x4", "torus:3x2x2", "hypercube:3"}},
      {"liquid", {{"condition", "c0"}}, {"ring:7", "torus:3x2x2"}},
      {"liquid", {{"condition", "c2"}}, {"ring:7", "torus:4x4"}},
      {"liquid", {{"condition", "c4"}}, {"torus:4x4", "hypercube:3"}},
      {"nna", {{"transfer", "net"}}, {"ring:7", "torus:5"}},
      {"nna", {{"transfer", "gross"}}, {"ring:7"}},
  };
  const int runs = expect_conserved_and_repeatable(agents, 21);
  EXPECT_EQ(runs, 13 * 4 * 2);
}

TEST(LiquidAgents, TopologiesTheyCannotUseAreRefused) {
  const auto& liquid = builtin_strategies().find("liquid");
  const auto& nna = builtin_strategies().find("nna");
  EXPECT_THROW(liquid.check_topology(parse_topology("mesh:3x3")), InputError);
  EXPECT_THROW(liquid.check_topology(parse_topology("complete:4")), InputError);
  EXPECT_NO_THROW(liquid.check_topology(parse_topology("hypercube:4")));
  EXPECT_THROW(nna.check_topology(parse_topology("torus:4x4")), InputError);
  EXPECT_NO_THROW(nna.check_topology(parse_topology("ring:9")));
  EXPECT_THROW(builtin_strategies().configure("liquid", {{"condition", "c6"}}), InputError);
  EXPECT_THROW(builtin_strategies().configure("nna", {{"transfer", "both"}}), InputError);
  const Topology mesh = parse_topology("mesh:3x3");
  auto w = builtin_workloads().configure("artificial", {{"granularity", "3"}}).create();
  EXPECT_THROW(run(mesh, "liquid", {}, make_cost_model("ideal"), *w, 1), InputError);
}

// ----- lock-step -----

constexpr std::uint64_t kLiquidRounds = 60;

void expect_liquid_lock_step(const std::string& strategy, const Params& params, const std::string& spec,
                      const RoundKernel& kernel, const Loads& start) {
  test::expect_lock_step(strategy, params, parse_topology(spec), kernel, start, kLiquidRounds, false);
}

TEST(LiquidAgents, LockStepReproducesTheKernelRoundByRound) {
  // Table 3's example, then random loads on tori of one to three dimensions.
  for (const char* c : {"c0", "c1", "c2", "c3", "c4", "c5"}) {
    const ShiftCondition condition = parse_shift_condition(c);
    expect_liquid_lock_step("liquid", {{"condition", c}}, "ring:8", LiquidKernel(parse_topology("ring:8"), condition),
                     {16, 0, 0, 0, 0, 0, 0, 0});
    Rng rng(static_cast<std::uint64_t>(condition) + 1);
    for (const char* spec : {"ring:9", "torus:4x3", "torus:3x2x3", "hypercube:3"}) {
      const Topology t = parse_topology(spec);
      Loads start(t.size());
      for (auto& x : start) x = static_cast<std::int64_t>(rng.below(7));
      expect_liquid_lock_step("liquid", {{"condition", c}}, spec, LiquidKernel(t, condition), start);
    }
  }
}

TEST(LiquidAgents, NnaLockStepReproducesTheKernelIterationByIteration) {
  for (const char* transfer : {"net", "gross"}) {
    const NnaTransfer rule = parse_nna_transfer(transfer);
    const Topology ring = parse_topology("ring:8");
    expect_liquid_lock_step("nna", {{"transfer", transfer}}, "ring:8", NnaKernel(ring, rule), {16, 0, 0, 0, 0, 0, 0, 0});
    Rng rng(7);
    const Topology ring11 = parse_topology("ring:11");
    Loads start(11);
    for (auto& x : start) x = static_cast<std::int64_t>(rng.below(20));
    expect_liquid_lock_step("nna", {{"transfer", transfer}}, "ring:11", NnaKernel(ring11, rule), start);
  }
}

}  // namespace
