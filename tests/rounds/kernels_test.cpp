// The round kernels: conservation, Cybenko's dimension exchange (Theorem 4), the rounding
// rule of integer loads, agreement with the matrix form w <- M w, and the stencil paths.

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

template <class Load>
std::vector<Load> step_once(const RoundKernel& k, const std::vector<Load>& w, std::uint64_t step = 0) {
  std::vector<Load> next(w.size());
  k.update(step, w, next, 0, static_cast<NodeId>(w.size()));
  return next;
}

RoundLoopOptions steps(std::uint64_t n) { return RoundLoopOptions{.until = StopRule::parse("steps:" + std::to_string(n))}; }

std::vector<std::unique_ptr<RoundKernel>> kernels_on(const Topology& t) {
  std::vector<std::unique_ptr<RoundKernel>> k;
  k.push_back(std::make_unique<DiffusionKernel>(DiffusionMatrix::uniform(t, 1.0 / (t.max_degree() + 1))));
  k.push_back(std::make_unique<DimensionExchangeKernel>(
      DimensionExchangeKernel::generalized(t, edge_coloring(t), 0.5)));
  k.push_back(std::make_unique<DimensionExchangeKernel>(
      DimensionExchangeKernel::generalized(t, edge_coloring(t), 0.3)));
  if (t.kind() == TopologyKind::hypercube)
    k.push_back(std::make_unique<DimensionExchangeKernel>(DimensionExchangeKernel::hypercube(t)));
  return k;
}

TEST(Kernels, ContinuousLoadIsConservedTo1e9) {
  for (const std::string spec : {"hypercube:9", "torus:17x12", "tree:binary:7", "mesh:5x6", "complete:9"}) {
    const auto t = parse_topology(spec);
    for (const auto& k : kernels_on(t)) {
      std::vector<double> w = continuous_initial_load("uniform:1000", t.size(), 5);
      const double before = std::accumulate(w.begin(), w.end(), 0.0);
      const RoundLoopResult r = run_rounds(*k, w, steps(200));
      const double after = std::accumulate(w.begin(), w.end(), 0.0);
      EXPECT_NEAR(after, before, 1e-9 * before) << spec << " " << k->name();
      EXPECT_NEAR(r.total_final, r.total_initial, 1e-9 * before) << spec << " " << k->name();
    }
  }
}

TEST(Kernels, IntegerLoadIsConservedExactlyAndStaysNonNegative) {
  for (const std::string spec : {"hypercube:9", "torus:17x12", "tree:binary:7", "mesh:5x6", "complete:9"}) {
    const auto t = parse_topology(spec);
    for (const auto& k : kernels_on(t)) {
      for (const std::string init : {"uniform:1000", "spike:123457"}) {
        std::vector<std::int64_t> w = integer_initial_load(init, t.size(), 9);
        const std::int64_t before = std::accumulate(w.begin(), w.end(), std::int64_t{0});
        for (int s = 0; s < 100; ++s) {
          w = step_once(*k, w, static_cast<std::uint64_t>(s));
          ASSERT_EQ(std::accumulate(w.begin(), w.end(), std::int64_t{0}), before) << spec << " " << k->name();
          ASSERT_GE(*std::min_element(w.begin(), w.end()), 0) << spec << " " << k->name();
        }
      }
    }
  }
}

TEST(DimensionExchange, OneSweepBalancesAContinuousLoadExactly) {
  // Theorem 4: the product of F_1 ... F_d is 2^-d U.
  for (int d = 1; d <= 14; ++d) {
    const auto t = parse_topology("hypercube:" + std::to_string(d));
    const auto k = DimensionExchangeKernel::hypercube(t);
    EXPECT_EQ(k.colours(), static_cast<std::size_t>(d));
    std::vector<double> w = continuous_initial_load("uniform:1000", t.size(), static_cast<std::uint64_t>(d));
    const double mean = std::accumulate(w.begin(), w.end(), 0.0) / static_cast<double>(t.size());
    const RoundLoopResult r = run_rounds(k, w, steps(static_cast<std::uint64_t>(d)));
    for (const double x : w) ASSERT_NEAR(x, mean, 1e-12 * mean) << d;
    EXPECT_LE(r.max_min_difference, 1e-12 * mean) << d;
    // One dimension short of a sweep is not balanced.
    std::vector<double> short_sweep = continuous_initial_load("uniform:1000", t.size(), static_cast<std::uint64_t>(d));
    EXPECT_GT(run_rounds(k, short_sweep, steps(static_cast<std::uint64_t>(d - 1))).max_min_difference, 1e-6) << d;
  }
}

TEST(DimensionExchange, OneSweepBalancesAnIntegerLoadWithinOneUnitPerDimension) {
  for (int d = 1; d <= 14; ++d) {
    const auto t = parse_topology("hypercube:" + std::to_string(d));
    const auto k = DimensionExchangeKernel::hypercube(t);
    for (const std::string init : {"uniform:1000", "spike:1000001", "spike:7"}) {
      std::vector<std::int64_t> w = integer_initial_load(init, t.size(), static_cast<std::uint64_t>(d));
      const RoundLoopResult r = run_rounds(k, w, steps(static_cast<std::uint64_t>(d)));
      EXPECT_LE(r.max_min_difference, d) << d << " " << init;
      // After each dimension, the two partners differ by at most one unit.
      std::vector<std::int64_t> v = integer_initial_load(init, t.size(), static_cast<std::uint64_t>(d));
      for (int bit = 0; bit < d; ++bit) {
        v = step_once(k, v, static_cast<std::uint64_t>(bit));
        for (NodeId x = 0; x < t.size(); ++x) ASSERT_LE(std::abs(v[x] - v[x ^ (NodeId{1} << bit)]), 1) << d;
      }
    }
  }
}

TEST(DimensionExchange, IntegerRoundingRuleKeepsTheOddUnitAtTheRicherNode) {
  const auto t = parse_topology("hypercube:1");
  const auto k = DimensionExchangeKernel::hypercube(t);
  EXPECT_EQ(step_once(k, std::vector<std::int64_t>{7, 2}), (std::vector<std::int64_t>{5, 4}));
  EXPECT_EQ(step_once(k, std::vector<std::int64_t>{2, 7}), (std::vector<std::int64_t>{4, 5}));
  EXPECT_EQ(step_once(k, std::vector<std::int64_t>{3, 3}), (std::vector<std::int64_t>{3, 3}));
  EXPECT_EQ(step_once(k, std::vector<double>{7, 2}), (std::vector<double>{4.5, 4.5}));
}

TEST(DimensionExchange, IsGeneralizedExchangeWithTheDimensionColouring) {
  const auto t = parse_topology("hypercube:8");
  const auto de = DimensionExchangeKernel::hypercube(t);
  const auto gde = DimensionExchangeKernel::generalized(t, edge_coloring(t), 0.5);
  std::vector<double> a = continuous_initial_load("uniform:10", t.size(), 1), b = a;
  run_rounds(de, a, steps(20));
  run_rounds(gde, b, steps(20));
  EXPECT_EQ(a, b);
}

TEST(DimensionExchange, RejectsOtherTopologiesSuggestingGde) {
  try {
    DimensionExchangeKernel::hypercube(parse_topology("torus:4x4"));
    FAIL() << "dimension exchange accepted a torus";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gde"), std::string::npos) << e.what();
  }
  const auto t = parse_topology("ring:5");
  EXPECT_THROW(DimensionExchangeKernel::generalized(t, edge_coloring(t), 0.0), InputError);
  EXPECT_THROW(DimensionExchangeKernel::generalized(t, edge_coloring(t), 1.0), InputError);
  const auto single = parse_topology("complete:1");
  EXPECT_THROW(DimensionExchangeKernel::generalized(single, edge_coloring(single)), InputError);
}

TEST(Diffusion, OneStepIsTheMatrixProduct) {
  const auto t = parse_topology("tree:binary:4");
  std::vector<double> alphas;
  Rng rng(11);
  std::vector<std::vector<double>> m(t.size(), std::vector<double>(t.size(), 0.0));
  for (NodeId v = 0; v < t.size(); ++v)
    for (const NodeId u : t.neighbors(v))
      if (u > v) m[v][u] = m[u][v] = rng.uniform(0.0, 0.3);
  for (NodeId v = 0; v < t.size(); ++v)
    for (const NodeId u : t.neighbors(v)) alphas.push_back(m[v][u]);
  for (NodeId v = 0; v < t.size(); ++v) m[v][v] = 1.0 - std::accumulate(m[v].begin(), m[v].end(), 0.0);
  const DiffusionKernel k(DiffusionMatrix::from_edge_alphas(t, alphas));
  const std::vector<double> w = continuous_initial_load("uniform:100", t.size(), 2);
  const std::vector<double> next = step_once(k, w);
  for (NodeId i = 0; i < t.size(); ++i) {
    double expected = 0;
    for (NodeId j = 0; j < t.size(); ++j) expected += m[i][j] * w[j];
    EXPECT_NEAR(next[i], expected, 1e-12) << i;
  }
}

TEST(Diffusion, IntegerRoundingRuleTruncatesEachEdgeFlow) {
  // ring:3, alpha 0.3: node 0 with 10 sends trunc(3) = 3 to each; node 1 and 2 exchange 0.
  const DiffusionKernel k(DiffusionMatrix::uniform(parse_topology("ring:3"), 0.3));
  EXPECT_EQ(step_once(k, std::vector<std::int64_t>{10, 0, 0}), (std::vector<std::int64_t>{4, 3, 3}));
  EXPECT_EQ(step_once(k, std::vector<std::int64_t>{3, 0, 1}), (std::vector<std::int64_t>{3, 0, 1}));
}

TEST(Diffusion, StreamingTorusPathMatchesTheGeneralPathBitForBit) {
  // 2^22 nodes: large enough for the streaming-store path of the torus stencil.
  const auto t = parse_topology("torus:2048x2048");
  const DiffusionKernel stencil(DiffusionMatrix::uniform(t, 0.2));
  const DiffusionKernel general(DiffusionMatrix::from_edge_alphas(t, std::vector<double>(t.size() * 4, 0.2)));
  const std::vector<double> w = continuous_initial_load("uniform:1", t.size(), 9);
  std::vector<double> a(w.size()), b(w.size());
  const auto n = static_cast<NodeId>(t.size());
  stencil.update(0, w, a, 0, n / 3);  // an odd split: rows start unaligned
  stencil.update(0, w, a, n / 3, n);
  general.update(0, w, b, 0, n);
  EXPECT_EQ(a, b);
}

TEST(Diffusion, StencilPathsMatchTheGeneralPathBitForBit) {
  for (const std::string spec : {"hypercube:10", "hypercube:15", "torus:16x9", "torus:3x3", "torus:40x7"}) {
    const auto t = parse_topology(spec);
    const double alpha = 1.0 / (t.max_degree() + 1);
    const DiffusionKernel stencil(DiffusionMatrix::uniform(t, alpha));
    const DiffusionKernel general(
        DiffusionMatrix::from_edge_alphas(t, std::vector<double>(t.size() * t.max_degree(), alpha)));
    std::vector<double> a = continuous_initial_load("uniform:1", t.size(), 4), b = a, c = a;
    // Odd ranges exercise the start of the stencil's coordinate walk; whole ranges its
    // vectorised paths.
    for (int s = 0; s < 7; ++s) {
      std::vector<double> na(a.size()), nb(b.size()), nc(c.size());
      const auto n = static_cast<NodeId>(t.size());
      stencil.update(0, a, na, 0, n / 3);
      stencil.update(0, a, na, n / 3, n);
      stencil.update(0, c, nc, 0, n);
      general.update(0, b, nb, 0, n);
      a = na;
      b = nb;
      c = nc;
    }
    EXPECT_EQ(a, b) << spec;
    EXPECT_EQ(c, b) << spec;
    std::vector<std::int64_t> ia = integer_initial_load("uniform:1000", t.size(), 4), ib = ia;
    for (int s = 0; s < 7; ++s) {
      ia = step_once(stencil, ia);
      ib = step_once(general, ib);
    }
    EXPECT_EQ(ia, ib) << spec;
  }
}

TEST(Diffusion, OptimalAlphaContractsAsTheoryPredictsOnTheHypercube) {
  // Sec. 3: with alpha = 1/(d+1), d steps shrink ||w - w_bar|| by at least (1 - 2/(d+1))^d (eq. 15).
  for (int d = 4; d <= 12; d += 4) {
    const auto t = parse_topology("hypercube:" + std::to_string(d));
    const DiffusionKernel k(DiffusionMatrix::uniform(t, 1.0 / (d + 1)));
    std::vector<double> w = continuous_initial_load("uniform:100", t.size(), 3);
    const RoundLoopResult r = run_rounds(k, w, steps(static_cast<std::uint64_t>(d)));
    EXPECT_LE(r.relative_error, std::pow(1.0 - 2.0 / (d + 1), d) * (1 + 1e-12)) << d;
    EXPECT_GT(r.relative_error, 0.0);
  }
}

}  // namespace
}  // namespace dlbkit
