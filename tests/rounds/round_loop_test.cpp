// The round loop: stop rules, traces, two threads giving identical bits, the oscillation
// Theorem 1 predicts, initial loads and edge colourings.

#include "../support/temp_path.hpp"

#include <dlbkit/analysis/convergence.hpp>
#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/topology/edge_coloring.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

RoundLoopOptions until(const std::string& rule, int threads = 1, bool trace = false) {
  return RoundLoopOptions{.until = StopRule::parse(rule), .threads = threads, .trace = trace};
}

TEST(Engine, RingOfEightWithAlphaOneHalfOscillates) {
  // Theorem 1 fails (bipartite, zero diagonal): a load split between the colour classes
  // flips for ever (eq. 8), and a spike keeps its -1 component.
  const auto m = DiffusionMatrix::uniform(parse_topology("ring:8"), 0.5);
  ASSERT_FALSE(check_theorem1(m).converges());
  const DiffusionKernel k(m);
  std::vector<double> w{1, 0, 1, 0, 1, 0, 1, 0};
  RoundLoopOptions o = until("eps:1e-3");
  o.max_steps = 1001;
  const RoundLoopResult r = run_rounds(k, w, o);
  EXPECT_FALSE(r.stop_rule_met);
  EXPECT_EQ(r.steps, 1001u);
  EXPECT_EQ(w, (std::vector<double>{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_DOUBLE_EQ(r.relative_error, 1.0);

  std::vector<double> spike = continuous_initial_load("spike", 8, 1);
  RoundLoopOptions s = until("steps:400", 1, true);
  const RoundLoopResult rs = run_rounds(k, spike, s);
  // The -1 component of the spike e_0 has norm 8/sqrt(8) / ... = 1 per node: ||.|| = sqrt(8).
  EXPECT_NEAR(rs.trace.back(), std::sqrt(8.0), 1e-9);
  EXPECT_NEAR(rs.trace[rs.trace.size() - 2], std::sqrt(8.0), 1e-9);
  std::vector<double> odd = spike;
  run_rounds(k, odd, until("steps:1"));
  EXPECT_NEAR(spike[0], 2.0, 1e-9);  // mean 1 plus the +1 of the oscillating component
  EXPECT_NEAR(odd[0], 0.0, 1e-9);    // one step later: minus

  // With alpha = 1/4 (diagonal 1/2 > 0) the same start converges.
  const DiffusionKernel ok(DiffusionMatrix::uniform(parse_topology("ring:8"), 0.25));
  std::vector<double> v{1, 0, 1, 0, 1, 0, 1, 0};
  EXPECT_TRUE(run_rounds(ok, v, until("eps:1e-3")).stop_rule_met);
}

TEST(Engine, EpsRuleStopsAtTheFirstStepBelowTheThreshold) {
  const auto t = parse_topology("torus:20x20");
  const DiffusionKernel k(DiffusionMatrix::uniform(t, 0.2));
  std::vector<double> w = continuous_initial_load("spike", t.size(), 1);
  const RoundLoopResult r = run_rounds(k, w, until("eps:1e-4", 1, true));
  ASSERT_TRUE(r.stop_rule_met);
  ASSERT_EQ(r.trace.size(), r.steps + 1);
  EXPECT_LE(r.trace.back(), 1e-4 * r.trace.front());
  EXPECT_GT(r.trace[r.steps - 1], 1e-4 * r.trace.front());
  EXPECT_DOUBLE_EQ(r.relative_error, r.trace.back() / r.trace.front());
  EXPECT_DOUBLE_EQ(r.final_error, r.trace.back());
}

TEST(Engine, BalancedRuleAndStepsRule) {
  const auto t = parse_topology("hypercube:6");
  const DiffusionKernel k(DiffusionMatrix::uniform(t, 1.0 / 7));
  std::vector<double> w = continuous_initial_load("spike:6400", t.size(), 1);
  const RoundLoopResult r = run_rounds(k, w, until("balanced:10"));
  ASSERT_TRUE(r.stop_rule_met);
  EXPECT_LE(r.max_min_difference, 10);
  EXPECT_LE(*std::max_element(w.begin(), w.end()) - *std::min_element(w.begin(), w.end()), 10);
  std::vector<double> v = continuous_initial_load("spike:6400", t.size(), 1);
  EXPECT_GT(run_rounds(k, v, until("steps:" + std::to_string(r.steps - 1))).max_min_difference, 10);
  std::vector<std::int64_t> z = integer_initial_load("spike:6400", t.size(), 1);
  const RoundLoopResult none = run_rounds(k, z, until("steps:0"));
  EXPECT_EQ(none.steps, 0u);
  EXPECT_EQ(none.max_min_difference, 6400);
}

TEST(Engine, ARuleMetByTheStartRunsNoStep) {
  const auto t = parse_topology("ring:5");
  const DiffusionKernel k(DiffusionMatrix::uniform(t, 0.3));
  std::vector<double> w(5, 2.0);
  const RoundLoopResult r = run_rounds(k, w, until("eps:0.5"));
  EXPECT_EQ(r.steps, 0u);
  EXPECT_TRUE(r.stop_rule_met);
  EXPECT_EQ(r.relative_error, 0.0);
}

TEST(Engine, TwoThreadsGiveIdenticalBits) {
  const auto torus = parse_topology("torus:300x210");
  const auto cube = parse_topology("hypercube:15");
  const DiffusionKernel diffusion(DiffusionMatrix::uniform(torus, 0.2));
  const auto de = DimensionExchangeKernel::hypercube(cube);
  const auto gde = DimensionExchangeKernel::generalized(torus, edge_coloring(torus), 0.4);
  for (const RoundKernel* k : std::vector<const RoundKernel*>{&diffusion, &de, &gde}) {
    std::vector<double> a = continuous_initial_load("uniform:1000", k->size(), 8), b = a;
    const RoundLoopResult ra = run_rounds(*k, a, until("steps:25", 1, true));
    const RoundLoopResult rb = run_rounds(*k, b, until("steps:25", 2, true));
    EXPECT_EQ(a, b) << k->name();
    EXPECT_EQ(ra.trace, rb.trace) << k->name();
    EXPECT_EQ(ra.max_min_difference, rb.max_min_difference) << k->name();
    std::vector<std::int64_t> ia = integer_initial_load("uniform:1000", k->size(), 8), ib = ia;
    const RoundLoopResult ria = run_rounds(*k, ia, until("eps:0.5", 1, true));
    const RoundLoopResult rib = run_rounds(*k, ib, until("eps:0.5", 2, true));
    EXPECT_TRUE(ria.stop_rule_met) << k->name();
    EXPECT_EQ(ia, ib) << k->name();
    EXPECT_EQ(ria.steps, rib.steps) << k->name();
    EXPECT_EQ(ria.trace, rib.trace) << k->name();
  }
}

TEST(Engine, RecordsTheLoadsOfEveryStep) {
  // Each row is the vector the error norm of the trace is taken of: w0 first, the result last,
  // on one thread and two, continuous and integer.
  const auto torus = parse_topology("torus:5x7");
  const DiffusionKernel k(DiffusionMatrix::uniform(torus, 0.2));
  for (int threads : {1, 2}) {
    std::vector<double> w = continuous_initial_load("uniform:100", torus.size(), 3);
    const std::vector<double> w0 = w;
    RoundLoopOptions o = until("eps:1e-2", threads, true);
    o.record_loads = true;
    const RoundLoopResult r = run_rounds(k, w, o);
    ASSERT_EQ(r.loads.size(), (r.steps + 1) * w.size());
    EXPECT_EQ(std::vector<double>(r.loads.begin(), r.loads.begin() + 35), w0);
    EXPECT_EQ(std::vector<double>(r.loads.end() - 35, r.loads.end()), w);
    const double mean = r.total_initial / 35;
    for (std::uint64_t s = 0; s <= r.steps; ++s) {
      double squares = 0;
      for (std::size_t v = 0; v < 35; ++v) squares += std::pow(r.loads[s * 35 + v] - mean, 2);
      EXPECT_NEAR(std::sqrt(squares), r.trace[s], 1e-9 * r.initial_error) << s;
    }
  }
  std::vector<std::int64_t> w = integer_initial_load("spike:70", torus.size(), 1);
  RoundLoopOptions o = until("steps:4");
  o.record_loads = true;
  const RoundLoopResult r = run_rounds(k, w, o);
  ASSERT_EQ(r.loads.size(), 5u * 35);
  EXPECT_EQ(r.loads[0], 70);
  EXPECT_EQ(r.loads[4 * 35 + 7], static_cast<double>(w[7]));
  EXPECT_TRUE(run_rounds(k, w, until("steps:4")).loads.empty());
}

TEST(Engine, ErrorCases) {
  const auto t = parse_topology("ring:5");
  const DiffusionKernel k(DiffusionMatrix::uniform(t, 0.3));
  std::vector<double> w(5, 1.0), short_load(4, 1.0);
  EXPECT_THROW(run_rounds(k, w, until("steps:1", 3)), InputError);
  EXPECT_THROW(run_rounds(k, w, until("steps:1", 0)), InputError);
  EXPECT_THROW(run_rounds(k, short_load, until("steps:1")), InputError);
}

TEST(StopRule, ParsesAndRejects) {
  EXPECT_EQ(StopRule::parse("steps:12").steps, 12u);
  EXPECT_EQ(StopRule::parse("eps:1e-6").kind, StopRule::Kind::eps);
  EXPECT_DOUBLE_EQ(StopRule::parse("eps:1e-6").threshold, 1e-6);
  EXPECT_DOUBLE_EQ(StopRule::parse("balanced:0").threshold, 0.0);
  EXPECT_EQ(StopRule::parse("balanced:2.5").to_string(), "balanced:2.5");
  for (const std::string bad : {"steps", "steps:", "steps:-1", "steps:1.5", "eps:0", "eps:1", "eps:x", "balanced:-1",
                                "until:3", "", "steps:3x"}) {
    try {
      StopRule::parse(bad);
      ADD_FAILURE() << "'" << bad << "' accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("steps:N"), std::string::npos) << e.what();
    }
  }
}

TEST(InitialLoad, SpikeUniformAndFile) {
  EXPECT_EQ(continuous_initial_load("spike", 4, 1), (std::vector<double>{4, 0, 0, 0}));
  EXPECT_EQ(integer_initial_load("spike:9", 3, 1), (std::vector<std::int64_t>{9, 0, 0}));
  const auto a = continuous_initial_load("uniform:10", 1000, 5);
  EXPECT_EQ(a, continuous_initial_load("uniform:10", 1000, 5));
  EXPECT_NE(a, continuous_initial_load("uniform:10", 1000, 6));
  for (const double x : a) ASSERT_TRUE(x >= 0 && x < 10);
  const auto k = integer_initial_load("uniform:3", 1000, 5);
  EXPECT_EQ(std::set<std::int64_t>(k.begin(), k.end()), (std::set<std::int64_t>{0, 1, 2, 3}));

  const auto path = dlbkit::test::temp_path("rounds_load.txt").string();
  std::ofstream(path) << "# loads\n1.5\n\n2   # second\n3\n";
  EXPECT_EQ(continuous_initial_load("file:" + path, 3, 1), (std::vector<double>{1.5, 2, 3}));
  EXPECT_THROW(integer_initial_load("file:" + path, 3, 1), InputError);  // 1.5 is not whole
  EXPECT_THROW(continuous_initial_load("file:" + path, 4, 1), InputError);
  for (const std::string bad : {"spike:-1", "uniform", "uniform:-2", "gauss:3", "file:", "file:/nonexistent/x"})
    EXPECT_THROW(continuous_initial_load(bad, 3, 1), InputError) << bad;
  EXPECT_THROW(integer_initial_load("spike:2.5", 3, 1), InputError);
}

TEST(DimensionExchange, UsesTheHypercubeDimensionsAsColours) {
  const auto t = parse_topology("hypercube:7");
  EXPECT_EQ(DimensionExchangeKernel::hypercube(t).colours(), 7u);
}

TEST(Gde, ConvergesOnAnOddTorus) {
  const auto t = parse_topology("torus:5x7");
  const auto k = DimensionExchangeKernel::generalized(t, edge_coloring(t));
  std::vector<double> w = continuous_initial_load("spike", t.size(), 1);
  const RoundLoopResult r = run_rounds(k, w, until("eps:1e-8"));
  EXPECT_TRUE(r.stop_rule_met);
  EXPECT_LT(r.steps, 2000u);
}

}  // namespace
}  // namespace dlbkit
