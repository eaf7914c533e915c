// SOS, Chebyshev and OPS (analysis/polynomial_schemes.hpp, rounds/polynomial_kernel.hpp):
// closed forms, agreement with the matrix recurrences, exact conservation of integer loads
// under every rounding, and the speed-ups the theory predicts.

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/analysis/spectrum.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlbkit {
namespace {

RoundLoopOptions stop_at(const std::string& rule, int threads = 1) {
  return RoundLoopOptions{.until = StopRule::parse(rule), .max_steps = 100000, .threads = threads};
}

DiffusionMatrix matrix(const Topology& t) { return DiffusionMatrix::uniform(t, 1.0 / (t.max_degree() + 1)); }

PolynomialKernel scheme(const std::string& name, const Topology& t, PolynomialKernel::Options o = {}) {
  DiffusionMatrix m = matrix(t);
  SchemeSpectrum s = scheme_spectrum(m);
  if (name == "sos") return PolynomialKernel::sos(std::move(m), s.gamma, o);
  if (name == "chebyshev") return PolynomialKernel::chebyshev(std::move(m), s.gamma, o);
  if (name == "ops") return PolynomialKernel::ops(std::move(m), *s.laplacian_eigenvalues, o);
  return PolynomialKernel::fos(std::move(m), o);
}

TEST(PolynomialSchemes, ClosedFormEigenvaluesMatchTheDenseSolver) {
  for (const char* spec : {"hypercube:4", "torus:4x4", "torus:5x3", "ring:7", "mesh:3x4", "torus:3x2x4"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const auto closed = *distinct_graph_laplacian_eigenvalues(t);
    const double alpha = 1.0 / static_cast<double>(t.max_degree());
    std::vector<double> dense;
    for (double lambda : diffusion_eigenvalues(DiffusionMatrix::uniform(t, alpha))) dense.push_back((1 - lambda) / alpha);
    std::sort(dense.begin(), dense.end());
    std::vector<double> distinct;
    for (double x : dense)
      if (distinct.empty() || x - distinct.back() > 1e-8) distinct.push_back(x);
    ASSERT_EQ(closed.size(), distinct.size());
    for (std::size_t i = 0; i < closed.size(); ++i) EXPECT_NEAR(closed[i], distinct[i], 1e-9);
  }
  EXPECT_EQ(distinct_graph_laplacian_eigenvalues(parse_topology("hypercube:10"))->size(), 11u);
}

TEST(PolynomialSchemes, BetasAndPredictions) {
  EXPECT_DOUBLE_EQ(sos_beta(0.0), 1.0);
  EXPECT_NEAR(sos_beta(0.6), 2.0 / 1.8, 1e-15);
  const auto c = chebyshev_betas(0.6, 50);
  EXPECT_EQ(c[0], 1.0);
  EXPECT_NEAR(c[1], 2.0 / (2.0 - 0.36), 1e-15);
  EXPECT_NEAR(c[49], sos_beta(0.6), 1e-12);  // the Chebyshev betas tend to the SOS beta
  const SchemePrediction p = predict_scheme_steps(0.99, 7, 1e6);
  EXPECT_EQ(*p.fos, static_cast<std::uint64_t>(std::ceil(std::log(1e6) / -std::log(0.99))));
  EXPECT_LT(*p.sos, *p.fos / 5);
  // Chebyshev's is a bound (2 r^t / (1 + r^(2t))), SOS's the asymptotic rate r^t alone.
  const double r = std::sqrt(sos_beta(0.99) - 1);
  EXPECT_LE(*p.chebyshev, *p.sos + static_cast<std::uint64_t>(std::ceil(std::log(2.0) / -std::log(r))));
  EXPECT_EQ(*p.ops, 6u);
  EXPECT_FALSE(predict_scheme_steps(1.0, std::nullopt, 10).fos);
  const auto leja = leja_order({1, 2, 3, 4});
  EXPECT_EQ(leja[0], 4);
  EXPECT_EQ(leja[1], 1);
}

TEST(PolynomialSchemes, OpsBalancesAHypercubeExactlyInDSteps) {
  for (unsigned d = 2; d <= 12; ++d) {
    const Topology t = parse_topology("hypercube:" + std::to_string(d));
    const PolynomialKernel k = scheme("ops", t);
    std::vector<double> w = continuous_initial_load("uniform:1000", t.size(), d);
    const RoundLoopResult r = run_rounds(k, w, stop_at("steps:" + std::to_string(d)));
    EXPECT_LT(r.relative_error, 1e-12) << "d = " << d;
    // One step fewer leaves an error.
    std::vector<double> w2 = continuous_initial_load("uniform:1000", t.size(), d);
    EXPECT_GT(run_rounds(k, w2, stop_at("steps:" + std::to_string(d - 1))).relative_error, 1e-6) << "d = " << d;
  }
}

TEST(PolynomialSchemes, OpsBalancesToriInMMinusOneSteps) {
  for (const char* spec : {"torus:4x4", "torus:6x5", "ring:9", "mesh:3x5"}) {
    const Topology t = parse_topology(spec);
    const std::size_t m = distinct_graph_laplacian_eigenvalues(t)->size();
    const PolynomialKernel k = scheme("ops", t);
    std::vector<double> w = continuous_initial_load("spike", t.size(), 1);
    EXPECT_LT(run_rounds(k, w, stop_at("steps:" + std::to_string(m - 1))).relative_error, 1e-10) << spec;
  }
}

// The matrix recurrences, written out: w(1) = M w(0), w(t+1) = beta_t M w(t) + (1 - beta_t) w(t-1).
// The same graph as `t` with the same neighbour order, as a file graph: the kernels take their
// general (neighbour-list) path on it.
Topology as_file_graph(const Topology& t) {
  std::vector<std::vector<NodeId>> adjacency(t.size());
  for (NodeId v = 0; v < t.size(); ++v) {
    const auto nb = t.neighbors(v);
    adjacency[v].assign(nb.begin(), nb.end());
  }
  return Topology::from_adjacency("file:" + t.spec(), adjacency);
}

TEST(PolynomialSchemes, StencilPathsGiveTheLoadsOfTheGeneralPath) {
  // Randomized rounding on the hypercube and torus stencils draws the same coins as on the
  // neighbour lists; the fused second-order step gives the same bits on both paths too.
  for (const char* spec : {"hypercube:7", "torus:9x7", "torus:40x3"}) {
    const Topology t = parse_topology(spec), file = as_file_graph(t);
    // SOS with the beta of the closed-form spectrum on both (the file graph's would come from
    // the solver and differ in the last bits).
    const double gamma = scheme_spectrum(matrix(t)).gamma;
    const auto kernel = [&](const Topology& g, bool sos, PolynomialKernel::Options o) {
      return sos ? PolynomialKernel::sos(matrix(g), gamma, o) : PolynomialKernel::fos(matrix(g), o);
    };
    for (const bool sos : {false, true}) {
      SCOPED_TRACE(std::string(spec) + (sos ? " sos" : " fos"));
      const PolynomialKernel::Options randomized{.rounding = Rounding::randomized, .seed = 9};
      std::vector<std::int64_t> a = integer_initial_load("uniform:1000", t.size(), 4), b = a, c = a;
      run_rounds(kernel(t, sos, randomized), a, stop_at("steps:40"));
      run_rounds(kernel(file, sos, randomized), b, stop_at("steps:40"));
      run_rounds(kernel(t, sos, randomized), c, stop_at("steps:40", 2));
      EXPECT_EQ(a, b);
      EXPECT_EQ(a, c);
      std::vector<double> x = continuous_initial_load("uniform:100", t.size(), 4), y = x;
      run_rounds(kernel(t, sos, {}), x, stop_at("steps:40"));
      run_rounds(kernel(file, sos, {}), y, stop_at("steps:40", 2));
      EXPECT_EQ(x, y);
    }
  }
}

TEST(PolynomialSchemes, RealLoadsFollowTheMatrixRecurrence) {
  // Bit for bit: the fused second-order step computes beta (M w) + (1 - beta) w(t-1) as written.
  const Topology t = parse_topology("torus:6x5");
  const DiffusionKernel fos(matrix(t));
  for (const char* name : {"sos", "chebyshev"}) {
    const PolynomialKernel k = scheme(name, t);
    std::vector<double> w = continuous_initial_load("uniform:50", t.size(), 3);
    std::vector<double> previous = w, current = w, mw(w.size());
    std::vector<double> engine = w;
    run_rounds(k, engine, stop_at("steps:25"));
    for (std::uint64_t s = 0; s < 25; ++s) {
      fos.update(s, current, mw, 0, static_cast<NodeId>(w.size()));
      const double b = k.beta(s);
      std::vector<double> next(w.size());
      for (std::size_t v = 0; v < w.size(); ++v) next[v] = b * mw[v] + (1 - b) * previous[v];
      previous = current;
      current = next;
    }
    EXPECT_EQ(engine, current) << name;
  }
}

TEST(PolynomialSchemes, SosAndChebyshevBeatFosOnATorusAsPredicted) {
  const Topology t = parse_topology("torus:32x32");
  const SchemeSpectrum s = scheme_spectrum(matrix(t));
  const SchemePrediction p = predict_scheme_steps(s.gamma, std::nullopt, 1e6);
  std::uint64_t measured[3];
  const char* names[] = {"fos", "sos", "chebyshev"};
  for (int i = 0; i < 3; ++i) {
    std::vector<double> w = continuous_initial_load("spike", t.size(), 1);
    const RoundLoopResult r = run_rounds(scheme(names[i], t), w, stop_at("eps:1e-6"));
    ASSERT_TRUE(r.stop_rule_met) << names[i];
    measured[i] = r.steps;
  }
  EXPECT_LT(measured[1] * 4, measured[0]);    // SOS: sqrt(1 - gamma) against 1 - gamma
  // Chebyshev is optimal over the whole interval [-gamma, gamma]; for one initial vector SOS
  // may finish a step or two earlier.
  EXPECT_LE(measured[2], measured[1] + 2);
  EXPECT_LE(measured[0], *p.fos);             // eq. 11 is an upper bound
  EXPECT_LE(measured[2], *p.chebyshev);       // so is the Chebyshev bound
  EXPECT_NEAR(static_cast<double>(measured[1]), static_cast<double>(*p.sos), 0.3 * static_cast<double>(*p.sos));
}

TEST(PolynomialSchemes, IntegerLoadsAreConservedExactlyUnderEveryRounding) {
  for (const char* spec : {"torus:8x8", "hypercube:6", "ring:9", "mesh:4x5", "complete:7"}) {
    const Topology t = parse_topology(spec);
    for (const char* name : {"fos", "sos", "chebyshev", "ops"})
      for (Rounding r : {Rounding::deterministic, Rounding::randomized, Rounding::flow_imitation}) {
        SCOPED_TRACE(std::string(spec) + " " + name + " " + to_string(r));
        if (std::string(name) != "ops" && scheme_spectrum(matrix(t)).gamma >= 1) continue;
        const PolynomialKernel k = scheme(name, t, {.rounding = r, .seed = 5});
        std::vector<std::int64_t> w = integer_initial_load("uniform:1000", t.size(), 2);
        std::vector<std::int64_t> w2 = w;
        const RoundLoopResult one = run_rounds(k, w, stop_at("steps:200"));
        EXPECT_EQ(one.total_final, one.total_initial);
        // Two threads give the same loads.
        run_rounds(k, w2, stop_at("steps:200", 2));
        EXPECT_EQ(w, w2);
      }
  }
}

TEST(PolynomialSchemes, FlowImitationStaysWithinTheDegreeOfTheContinuousScheme) {
  // Akbari, Berenbrink, Sauerwald: every node within d of the continuous load, so once the
  // continuous scheme has balanced, max - min <= 2d.
  for (const char* spec : {"torus:16x16", "hypercube:8"}) {
    const Topology t = parse_topology(spec);
    for (const char* name : {"fos", "sos"}) {
      const PolynomialKernel k = scheme(name, t, {.rounding = Rounding::flow_imitation});
      std::vector<std::int64_t> w = integer_initial_load("spike:100000", t.size(), 1);
      std::vector<double> x(w.begin(), w.end());
      run_rounds(k, w, stop_at("steps:300"));
      run_rounds(scheme(name, t), x, stop_at("steps:300"));
      for (std::size_t v = 0; v < w.size(); ++v)
        EXPECT_LE(std::abs(static_cast<double>(w[v]) - x[v]), static_cast<double>(t.degree(static_cast<NodeId>(v))) + 1e-6)
            << spec << " " << name << " node " << v;
      const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
      EXPECT_LE(*hi - *lo, static_cast<std::int64_t>(2 * t.max_degree())) << spec << " " << name;
    }
  }
}

TEST(PolynomialSchemes, RandomizedRoundingDependsOnTheSeedOnly) {
  const Topology t = parse_topology("torus:16x16");
  std::vector<std::int64_t> a = integer_initial_load("spike:100000", t.size(), 1), b = a, c = a;
  run_rounds(scheme("fos", t, {.rounding = Rounding::randomized, .seed = 1}), a, stop_at("steps:50"));
  run_rounds(scheme("fos", t, {.rounding = Rounding::randomized, .seed = 1}), b, stop_at("steps:50"));
  run_rounds(scheme("fos", t, {.rounding = Rounding::randomized, .seed = 2}), c, stop_at("steps:50"));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(PolynomialSchemes, BadInputIsRefused) {
  const Topology cube = parse_topology("hypercube:4");
  EXPECT_THROW(PolynomialKernel::sos(DiffusionMatrix::uniform(cube, 0.25), 1.0, {}), InputError);
  EXPECT_THROW(PolynomialKernel::ops(DiffusionMatrix::uniform(cube, 0.2), {0.0}, {}), InputError);
  EXPECT_THROW(parse_rounding("nearest"), InputError);
  EXPECT_THROW(parse_rounding(""), InputError);
}

}  // namespace
}  // namespace dlbkit
