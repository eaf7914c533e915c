// Spectra of diffusion matrices: the closed forms of Cyb89 Sec. 3 (hypercube eigenvalues from
// (x + 1/x)^d, optimal alpha 1/(d+1) with gamma 1 - 2/(d+1)) and of the torus against the
// numeric solvers, and the dense and Lanczos solvers against each other.

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/spectrum.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

// Coefficients of (x + 1/x)^d: entry k is the coefficient of x^(d - 2k) (Theorem 3).
std::vector<double> generating_function(int d) {
  std::vector<double> c{1};
  for (int i = 0; i < d; ++i) {
    std::vector<double> next(c.size() + 1, 0.0);
    for (std::size_t k = 0; k < c.size(); ++k) {
      next[k] += c[k];      // times x
      next[k + 1] += c[k];  // times 1/x
    }
    c = next;
  }
  return c;
}

TEST(Spectrum, HypercubeEigenvaluesFollowTheGeneratingFunction) {
  for (int d = 1; d <= 9; ++d) {
    const double alpha = 1.0 / (d + 1);
    const auto m = DiffusionMatrix::uniform(parse_topology("hypercube:" + std::to_string(d)), alpha);
    const std::vector<double> lambda = diffusion_eigenvalues(m);
    // C_d has eigenvalue d - 2k with multiplicity coefficient k; M = I - alpha (d I - C_d)
    // has 1 - 2 alpha k.
    std::vector<double> expected;
    const std::vector<double> c = generating_function(d);
    for (int k = 0; k <= d; ++k)
      for (int copy = 0; copy < static_cast<int>(c[k]); ++copy) expected.push_back(1.0 - 2.0 * alpha * k);
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(lambda.size(), expected.size()) << d;
    for (std::size_t i = 0; i < lambda.size(); ++i) EXPECT_NEAR(lambda[i], expected[i], 1e-12) << d << " " << i;
  }
}

TEST(Spectrum, OptimalAlphaOnTheHypercubeIsOneOverDPlusOne) {
  for (int d = 2; d <= 14; ++d) {
    const auto t = parse_topology("hypercube:" + std::to_string(d));
    const LaplacianExtremes g = graph_laplacian_extremes(t);
    EXPECT_EQ(g.method, d <= 11 ? "dense" : "sparse");
    EXPECT_NEAR(g.mu_2, 2.0, 1e-9) << d;
    EXPECT_NEAR(g.mu_max, 2.0 * d, 1e-9) << d;
    const OptimalAlpha o = optimal_uniform_alpha(t, g);
    EXPECT_NEAR(o.alpha, 1.0 / (d + 1), 1e-12) << d;
    EXPECT_NEAR(o.gamma, 1.0 - 2.0 / (d + 1), 1e-12) << d;
    EXPECT_FALSE(o.capped_by_degree);
  }
}

TEST(Spectrum, HypercubeOfDimension20BySparseSolver) {
  // 2^20 nodes: the size the sparse path is meant to handle.
  const auto t = parse_topology("hypercube:20");
  const LaplacianExtremes g = graph_laplacian_extremes(t);
  EXPECT_EQ(g.method, "sparse");
  EXPECT_NEAR(g.mu_2, 2.0, 1e-9);
  EXPECT_NEAR(g.mu_max, 40.0, 1e-9);
  const DiffusionAnalysis a = analyze_diffusion(DiffusionMatrix::uniform(t, 1.0 / 21), g, 1000.0);
  EXPECT_NEAR(a.gamma, 1.0 - 2.0 / 21, 1e-12);
  EXPECT_NEAR(a.optimal.alpha, 1.0 / 21, 1e-12);
}

TEST(Spectrum, Lemma2OnTheHypercubeWithAlphaOneOverD) {
  // Sec. 3: M_d has eigenvalues -1, ..., 1 - 2/d, 1; kappa = 1/d; gamma(M(kappa)) = 1 - 2/(d+1).
  for (int d = 2; d <= 8; ++d) {
    const auto m = DiffusionMatrix::uniform(parse_topology("hypercube:" + std::to_string(d)), 1.0 / d);
    const DiffusionAnalysis a = analyze_diffusion(m, 100.0);
    EXPECT_FALSE(a.theorem1.converges()) << d;
    EXPECT_EQ(a.gamma, 1.0) << d;
    EXPECT_NEAR(a.lambda_2, 1.0 - 2.0 / d, 1e-12) << d;
    EXPECT_NEAR(a.lambda_n, -1.0, 1e-12) << d;
    EXPECT_NEAR(a.kappa, 1.0 / d, 1e-12) << d;
    EXPECT_FALSE(a.kappa_at_feasibility_bound);
    EXPECT_NEAR(a.gamma_kappa, 1.0 - 2.0 / (d + 1), 1e-12) << d;
    EXPECT_FALSE(a.steps.has_value());
    EXPECT_TRUE(std::isinf(a.variance_factor));
  }
}

TEST(Spectrum, Lemma2KappaIsTheLargerOfTheTwoBounds) {
  // kappa = max(-(lambda_2 + lambda_n)/2, -min_j m_jj), and M(kappa) is never worse than M.
  const auto m = DiffusionMatrix::uniform(parse_topology("ring:7"), 0.45);
  const DiffusionAnalysis a = analyze_diffusion(m, 10.0);
  EXPECT_NEAR(a.min_diagonal, 0.1, 1e-15);
  EXPECT_GE(a.kappa, -0.1 - 1e-15);
  EXPECT_NEAR(a.kappa, std::max(-(a.lambda_2 + a.lambda_n) / 2, -0.1), 1e-15);
  EXPECT_LE(a.gamma_kappa, a.gamma + 1e-15);
}

TEST(Spectrum, TorusClosedFormMatchesBothSolvers) {
  // Laplacian eigenvalues of torus:AxB are 4 - 2cos(2 pi j/A) - 2cos(2 pi k/B).
  for (const auto& [a, b] : std::vector<std::pair<int, int>>{{16, 12}, {9, 7}, {64, 64}}) {
    const auto t = parse_topology("torus:" + std::to_string(a) + "x" + std::to_string(b));
    const double mu_2 = 2 - 2 * std::cos(2 * std::numbers::pi / std::max(a, b));
    double mu_max = 0;
    for (int j = 0; j < a; ++j)
      for (int k = 0; k < b; ++k)
        mu_max = std::max(mu_max, 4 - 2 * std::cos(2 * std::numbers::pi * j / a) -
                                      2 * std::cos(2 * std::numbers::pi * k / b));
    const LaplacianExtremes s = graph_laplacian_extremes(t, EigenMethod::sparse);
    EXPECT_NEAR(s.mu_2, mu_2, 1e-10 * mu_2) << t.spec();
    EXPECT_NEAR(s.mu_max, mu_max, 1e-10) << t.spec();
    if (t.size() <= kDenseEigenLimit) {
      const LaplacianExtremes d = graph_laplacian_extremes(t, EigenMethod::dense);
      EXPECT_NEAR(d.mu_2, mu_2, 1e-10 * mu_2) << t.spec();
      EXPECT_NEAR(d.mu_max, mu_max, 1e-10) << t.spec();
    }
  }
}

TEST(Spectrum, DenseAndLanczosAgreeOnIrregularAndWeightedGraphs) {
  for (const std::string spec : {"tree:binary:8", "ring:101", "mesh:7x9", "bisectional:7", "odd:4", "complete:12"}) {
    const auto t = parse_topology(spec);
    const LaplacianExtremes d = graph_laplacian_extremes(t, EigenMethod::dense);
    const LaplacianExtremes s = graph_laplacian_extremes(t, EigenMethod::sparse);
    EXPECT_NEAR(s.mu_2, d.mu_2, 1e-9 * d.mu_2) << spec;
    EXPECT_NEAR(s.mu_max, d.mu_max, 1e-9 * d.mu_max) << spec;
    EXPECT_GT(s.matrix_products, 0);
  }
  // Random symmetric per-edge alphas on a torus.
  const auto t = parse_topology("torus:10x8");
  std::vector<double> alphas;
  Rng rng(3);
  std::vector<std::vector<double>> edge(t.size(), std::vector<double>(t.size(), 0.0));
  for (NodeId v = 0; v < t.size(); ++v)
    for (const NodeId u : t.neighbors(v))
      if (u > v) edge[v][u] = edge[u][v] = rng.uniform(0.0, 0.25);
  for (NodeId v = 0; v < t.size(); ++v)
    for (const NodeId u : t.neighbors(v)) alphas.push_back(edge[v][u]);
  const auto m = DiffusionMatrix::from_edge_alphas(t, alphas);
  const LaplacianExtremes d = laplacian_extremes(m, EigenMethod::dense);
  const LaplacianExtremes s = laplacian_extremes(m, EigenMethod::sparse);
  EXPECT_NEAR(s.mu_2, d.mu_2, 1e-9 * d.mu_2);
  EXPECT_NEAR(s.mu_max, d.mu_max, 1e-9);
  // and against every eigenvalue of M.
  const std::vector<double> lambda = diffusion_eigenvalues(m);
  EXPECT_NEAR(lambda.back(), 1.0, 1e-12);
  EXPECT_NEAR(lambda[lambda.size() - 2], 1.0 - d.mu_2, 1e-12);
  EXPECT_NEAR(lambda.front(), 1.0 - d.mu_max, 1e-12);
}

TEST(Spectrum, UniformAlphaScalesThePlainLaplacian) {
  const auto t = parse_topology("mesh:6x5");
  const LaplacianExtremes g = graph_laplacian_extremes(t);
  const LaplacianExtremes m = laplacian_extremes(DiffusionMatrix::uniform(t, 0.2));
  EXPECT_NEAR(m.mu_2, 0.2 * g.mu_2, 1e-15);
  EXPECT_NEAR(m.mu_max, 0.2 * g.mu_max, 1e-15);
}

TEST(Spectrum, ErrorCases) {
  EXPECT_THROW(graph_laplacian_extremes(parse_topology("complete:1")), InputError);
  EXPECT_THROW(graph_laplacian_extremes(parse_topology("hypercube:12"), EigenMethod::dense), InputError);
  EXPECT_THROW(diffusion_eigenvalues(DiffusionMatrix::uniform(parse_topology("hypercube:12"), 0.05)), InputError);
}

TEST(Spectrum, Lemma2RefusesAnAlphaThatRoundsTheMatrixToTheIdentity) {
  // 1 - 1e-300 mu is 1: kappa rounded to -1 and gamma(M(kappa)) was printed inf.
  const Topology t = parse_topology("ring:8");
  try {
    analyze_diffusion(DiffusionMatrix::uniform(t, 1e-300), 1000.0);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rounds to the identity"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::isfinite(analyze_diffusion(DiffusionMatrix::uniform(t, 1e-15), 1000.0).gamma_kappa));
}

}  // namespace
}  // namespace dlbkit
