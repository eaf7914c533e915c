// The diffusion and dimension_exchange agents (Cyb89) and the sos and chebyshev agents
// (GMS96, DFM99): every task executed exactly once under every cost model, and in lock-step
// (ideal cost model, static loads) the same loads as the integer round kernels, round by round.

#include "round_agents.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/strategies/diffusion.hpp>
#include <dlbkit/strategies/sos.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

using namespace dlbkit::test;

TEST(DiffusionAgents, EveryTaskIsExecutedExactlyOnceAndRunsRepeat) {
  const std::vector<AgentCase> agents = {
      {"diffusion", {{"alpha", "auto"}}, {"ring:7", "torus:4x4", "hypercube:3", "mesh:3x3"}},
      {"diffusion", {{"alpha", "1"}}, {"ring:7", "hypercube:3"}},
      {"diffusion", {{"alpha", "0"}}, {"ring:5"}},
      {"dimension_exchange", {{"lambda", "0.5"}}, {"hypercube:3", "torus:3x3", "ring:6"}},
      {"dimension_exchange", {{"lambda", "1"}}, {"hypercube:3"}},
      {"dimension_exchange", {{"lambda", "0"}}, {"ring:5"}},
      {"sos", {{"beta", "auto"}}, {"torus:4x4", "mesh:3x3"}},
      {"sos", {{"beta", "2"}}, {"ring:7"}},
      {"sos", {{"beta", "1"}}, {"ring:5"}},
      {"chebyshev", {{"alpha", "auto"}}, {"hypercube:3"}},
      {"chebyshev", {{"alpha", "0"}}, {"ring:5"}},
  };
  const int runs = expect_conserved_and_repeatable(agents, 31);
  EXPECT_EQ(runs, 18 * 4 * 2);
}

TEST(DiffusionAgents, AlphaIsCappedAndAutoIsTheOptimalUniformAlpha) {
  EXPECT_DOUBLE_EQ(diffusion_agent_alpha(parse_topology("hypercube:4"), "auto"), 1.0 / 5);  // Sec. 3
  EXPECT_DOUBLE_EQ(diffusion_agent_alpha(parse_topology("ring:8"), "0.9"), 0.5);
  EXPECT_DOUBLE_EQ(diffusion_agent_alpha(parse_topology("ring:8"), "0.25"), 0.25);
  EXPECT_THROW(builtin_strategies().configure("diffusion", {{"alpha", "1.5"}}), InputError);
  EXPECT_THROW(builtin_strategies().configure("diffusion", {{"alpha", ""}}), InputError);
  EXPECT_THROW(builtin_strategies().configure("dimension_exchange", {{"lambda", "-0.1"}}), InputError);
}

// ----- lock-step -----

constexpr std::uint64_t kRounds = 40;

void expect_lock_step(const std::string& strategy, const Params& params, const Topology& t, const RoundKernel& kernel,
                      const Loads& start) {
  test::expect_lock_step(strategy, params, t, kernel, start, kRounds, true);
}

Loads random_loads(std::size_t n, Rng& rng, std::uint64_t below) {
  Loads l(n);
  for (auto& x : l) x = static_cast<std::int64_t>(rng.below(below));
  return l;
}

TEST(DiffusionAgents, DiffusionLockStepReproducesTheKernelRoundByRound) {
  Rng rng(5);
  for (const char* spec : {"hypercube:4", "torus:4x5", "ring:9", "mesh:3x4", "complete:6"}) {
    const Topology t = parse_topology(spec);
    for (const char* alpha : {"auto", "0.25", "1"}) {
      SCOPED_TRACE(std::string("alpha ") + alpha);
      const double a = diffusion_agent_alpha(t, alpha);
      expect_lock_step("diffusion", {{"alpha", alpha}}, t, DiffusionKernel(DiffusionMatrix::uniform(t, a)),
                       random_loads(t.size(), rng, 40));
    }
  }
}

TEST(DiffusionAgents, DegreeWeightsLockStepReproducesThePerEdgeKernel) {
  // weights=degree: alpha_ij = 1/(max(d_i, d_j) + 1) per edge, the kernel on the same matrix
  // (its general path). Meshes have degrees 2, 3 and 4, so the alphas differ by edge.
  Rng rng(7);
  for (const char* spec : {"mesh:3x4", "mesh:5x5", "ring:9", "hypercube:4"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const DiffusionMatrix m = DiffusionMatrix::degree_weights(t);
    EXPECT_FALSE(m.uniform_alpha());
    expect_lock_step("diffusion", {{"weights", "degree"}}, t, DiffusionKernel(m), random_loads(t.size(), rng, 60));
  }
  // mesh:3x3: node 1 (an edge middle, degree 3) has the corners 0 and 2 (degree 2) and the
  // centre 4 (degree 4) as neighbours.
  const DiffusionMatrix mesh = DiffusionMatrix::degree_weights(parse_topology("mesh:3x3"));
  const auto nb = mesh.topology().neighbors(1);
  for (std::size_t i = 0; i < nb.size(); ++i) EXPECT_DOUBLE_EQ(mesh.alpha(1, i), nb[i] == 4 ? 1.0 / 5 : 1.0 / 4);
  EXPECT_THROW(builtin_strategies().configure("diffusion", {{"weights", "metropolis"}}), InputError);
  EXPECT_THROW(builtin_strategies().configure("diffusion", {{"weights", "degree"}, {"alpha", "0.2"}}).create(),
               InputError);
}

TEST(DiffusionAgents, DimensionExchangeLockStepReproducesTheKernelRoundByRound) {
  const Topology cube = parse_topology("hypercube:4");
  Loads spike(cube.size(), 0);
  spike[3] = 160;
  expect_lock_step("dimension_exchange", {}, cube, DimensionExchangeKernel::hypercube(cube), spike);
  Rng rng(9);
  for (const char* spec : {"hypercube:3", "torus:4x4", "torus:3x5", "ring:7", "mesh:3x3"}) {
    const Topology t = parse_topology(spec);
    for (double lambda : {0.5, 0.3}) {
      SCOPED_TRACE("lambda " + std::to_string(lambda));
      expect_lock_step("dimension_exchange", {{"lambda", std::to_string(lambda)}}, t,
                       DimensionExchangeKernel::generalized(t, edge_coloring(t), lambda),
                       random_loads(t.size(), rng, 40));
    }
  }
}

TEST(DiffusionAgents, DimensionExchangeBalancesAHypercubeInOneSweep) {
  // Theorem 4 with integers: after d rounds every pair of loads is within d units (each of
  // the d halvings leaves at most one odd unit).
  const Topology cube = parse_topology("hypercube:5");
  Rng rng(3);
  const Loads start = random_loads(cube.size(), rng, 1000);
  Loads w = start, next(w.size());
  const auto k = DimensionExchangeKernel::hypercube(cube);
  for (std::uint64_t r = 0; r < 5; ++r) {
    k.update(r, w, next, 0, static_cast<NodeId>(w.size()));
    w.swap(next);
  }
  EXPECT_LE(*std::max_element(w.begin(), w.end()) - *std::min_element(w.begin(), w.end()), 5);
  expect_lock_step("dimension_exchange", {}, cube, k, start);
}

TEST(DiffusionAgents, SecondOrderLockStepReproducesTheKernelRoundByRound) {
  // Loads in [100, 140): no node is asked for more tasks than it has, so the agents' flows
  // are the kernel's (with a spike they are capped by what a node holds).
  Rng rng(11);
  for (const char* spec : {"torus:4x4", "hypercube:4", "torus:5x3", "mesh:3x4", "complete:5"}) {
    const Topology t = parse_topology(spec);
    for (const char* scheme : {"sos", "chebyshev"}) {
      SCOPED_TRACE(scheme);
      const double a = diffusion_agent_alpha(t, "auto");
      DiffusionMatrix m = DiffusionMatrix::uniform(t, a);
      const double gamma = scheme_spectrum(m).gamma;
      ASSERT_LT(gamma, 1);
      const PolynomialKernel k = std::string(scheme) == "sos" ? PolynomialKernel::sos(std::move(m), gamma, {})
                                                              : PolynomialKernel::chebyshev(std::move(m), gamma, {});
      Loads start = random_loads(t.size(), rng, 40);
      for (auto& x : start) x += 100;
      expect_lock_step(scheme, {}, t, k, start);
    }
  }
  EXPECT_EQ(sos_agent_betas(parse_topology("hypercube:4"), "sos", 0.25, "auto"), std::vector<double>{1.0});
  EXPECT_EQ(sos_agent_betas(parse_topology("ring:8"), "sos", 0.3, "1.5"), (std::vector<double>{1.0, 1.5}));
  EXPECT_NEAR(sos_agent_betas(parse_topology("torus:8x8"), "sos", 0.2, "auto")[1],
              sos_beta(scheme_spectrum(DiffusionMatrix::uniform(parse_topology("torus:8x8"), 0.2)).gamma), 1e-15);
}

}  // namespace
