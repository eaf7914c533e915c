// Theorem 1 of Cyb89: which condition holds or fails, and the reported gamma and step counts.

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace dlbkit {
namespace {

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

TEST(Theorem1, BipartiteRingWithZeroDiagonalDoesNotConverge) {
  const auto m = DiffusionMatrix::uniform(parse_topology("ring:8"), 0.5);
  const Theorem1Check c = check_theorem1(m);
  EXPECT_TRUE(c.induced_connected);
  EXPECT_FALSE(c.positive_diagonal_node.has_value());
  EXPECT_TRUE(c.induced_bipartite);
  EXPECT_FALSE(c.converges());
  EXPECT_TRUE(contains(c.explanation(), "does not converge")) << c.explanation();
  EXPECT_TRUE(contains(c.explanation(), "(i) fails")) << c.explanation();
  EXPECT_TRUE(contains(c.explanation(), "(ii) fails")) << c.explanation();
  const DiffusionAnalysis a = analyze_diffusion(m, 10.0);
  EXPECT_EQ(a.gamma, 1.0);
  EXPECT_NEAR(a.lambda_n, -1.0, 1e-12);
  EXPECT_FALSE(a.steps.has_value());
}

TEST(Theorem1, PositiveDiagonalIsEnough) {
  const Theorem1Check c = check_theorem1(DiffusionMatrix::uniform(parse_topology("ring:8"), 0.25));
  EXPECT_TRUE(c.converges());
  ASSERT_TRUE(c.positive_diagonal_node.has_value());
  EXPECT_TRUE(c.induced_bipartite);
  EXPECT_TRUE(contains(c.explanation(), "(i) holds")) << c.explanation();
}

TEST(Theorem1, NonBipartiteIsEnough) {
  const auto m = DiffusionMatrix::uniform(parse_topology("ring:7"), 0.5);
  const Theorem1Check c = check_theorem1(m);
  EXPECT_TRUE(c.converges());
  EXPECT_FALSE(c.positive_diagonal_node.has_value());
  EXPECT_FALSE(c.induced_bipartite);
  EXPECT_TRUE(contains(c.explanation(), "(ii) holds")) << c.explanation();
  EXPECT_LT(analyze_diffusion(m, 10.0).gamma, 1.0);
}

TEST(Theorem1, ZeroAlphasCanDisconnectTheInducedNetwork) {
  const auto t = parse_topology("ring:4");
  // slots: 0->1, 0->3, 1->2, 1->0, 2->3, 2->1, 3->0, 3->2; edges 1-2 and 3-0 carry nothing.
  const auto m = DiffusionMatrix::from_edge_alphas(t, {0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.5});
  const Theorem1Check c = check_theorem1(m);
  EXPECT_FALSE(c.induced_connected);
  EXPECT_EQ(c.dropped_edges, 2u);
  EXPECT_FALSE(c.converges());
  EXPECT_TRUE(contains(c.explanation(), "not connected")) << c.explanation();
  EXPECT_EQ(analyze_diffusion(m, 10.0).gamma, 1.0);
}

TEST(Theorem1, ZeroAlphasCanRemoveTheOddCycle) {
  // ring:5 is not bipartite, but with one edge dropped the induced network is a path.
  const auto t = parse_topology("ring:5");
  std::vector<double> alphas;
  for (NodeId v = 0; v < 5; ++v)
    for (const NodeId u : t.neighbors(v)) alphas.push_back((v == 4 && u == 0) || (v == 0 && u == 4) ? 0.0 : 0.5);
  const Theorem1Check c = check_theorem1(DiffusionMatrix::from_edge_alphas(t, alphas));
  EXPECT_TRUE(c.induced_connected);
  EXPECT_TRUE(c.induced_bipartite);
  // nodes 0 and 4 keep half their load: (i) holds.
  EXPECT_EQ(c.positive_diagonal_node, NodeId{0});
  EXPECT_TRUE(c.converges());
}

TEST(StepsToShrink, FollowsEquation11) {
  EXPECT_EQ(steps_to_shrink(0.5, 1000.0), std::optional<std::uint64_t>(10));  // 2^-10 <= 1/1000 < 2^-9
  EXPECT_EQ(steps_to_shrink(0.5, 1024.0), std::optional<std::uint64_t>(10));
  EXPECT_EQ(steps_to_shrink(1.0, 1e6), std::optional<std::uint64_t>(1));
  EXPECT_FALSE(steps_to_shrink(0.0, 10.0).has_value());
  EXPECT_THROW(steps_to_shrink(0.5, 1.0), InputError);
  EXPECT_THROW(steps_to_shrink(0.5, 0.5), InputError);
  // A gap of 1e-9: ln(10)/1e-9 steps, where 1 - gamma would lose digits.
  const auto t = steps_to_shrink(1e-9, 10.0);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(static_cast<double>(*t), std::log(10.0) / 1e-9, 2.0);
}

TEST(DiffusionAnalysis, VarianceFactorAndJson) {
  const auto m = DiffusionMatrix::uniform(parse_topology("hypercube:5"), 1.0 / 6);
  const DiffusionAnalysis a = analyze_diffusion(m, 1000.0);
  const double gamma = 1.0 - 2.0 / 6;
  EXPECT_NEAR(a.gamma, gamma, 1e-12);
  EXPECT_NEAR(a.variance_factor, 1.0 / (1.0 - gamma * gamma), 1e-9);
  EXPECT_EQ(a.steps, steps_to_shrink(2.0 / 6, 1000.0));
  const nlohmann::json j = to_json(a);
  EXPECT_EQ(j["converges"], true);
  EXPECT_NEAR(j["gamma"].get<double>(), gamma, 1e-12);
  EXPECT_NEAR(j["optimal_alpha"]["alpha"].get<double>(), 1.0 / 6, 1e-12);
  EXPECT_EQ(j["eigen_method"], "dense");
  EXPECT_TRUE(j["lemma2"].contains("kappa"));
  const nlohmann::json bad = to_json(analyze_diffusion(DiffusionMatrix::uniform(parse_topology("ring:8"), 0.5), 10.0));
  EXPECT_TRUE(bad["variance_factor"].is_null());
  EXPECT_TRUE(bad["steps"].is_null());
}

}  // namespace
}  // namespace dlbkit
