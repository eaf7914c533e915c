// DiffusionMatrix (Cyb89 eq. 4): uniform and per-edge alphas, the constraints of Sec. 2 and
// the alpha file format.

#include "../support/temp_path.hpp"

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace dlbkit {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = dlbkit::test::temp_path("analysis_" + name);
  std::ofstream(path) << text;
  return path.string();
}

TEST(DiffusionMatrix, UniformDiagonalIsOneMinusAlphaTimesDegree) {
  const auto m = DiffusionMatrix::uniform(parse_topology("tree:binary:3"), 0.25);
  EXPECT_DOUBLE_EQ(m.diagonal(0), 0.5);   // root: 2 children
  EXPECT_DOUBLE_EQ(m.diagonal(1), 0.25);  // inner: parent and 2 children
  EXPECT_DOUBLE_EQ(m.diagonal(3), 0.75);  // leaf
  EXPECT_DOUBLE_EQ(m.min_diagonal(), 0.25);
  EXPECT_DOUBLE_EQ(m.alpha(1, 2), 0.25);
  ASSERT_TRUE(m.uniform_alpha().has_value());
}

TEST(DiffusionMatrix, AlphaOfOneOverDegreeGivesAnExactlyZeroDiagonal) {
  for (int d = 1; d <= 12; ++d) {
    const auto m = DiffusionMatrix::uniform(parse_topology("hypercube:" + std::to_string(d)), 1.0 / d);
    EXPECT_EQ(m.min_diagonal(), 0.0) << d;
    EXPECT_EQ(m.diagonal(0), 0.0) << d;
  }
}

TEST(DiffusionMatrix, RejectsNonPositiveAlpha) {
  const auto t = parse_topology("ring:8");
  EXPECT_THROW(DiffusionMatrix::uniform(t, 0.0), InputError);
  EXPECT_THROW(DiffusionMatrix::uniform(t, -0.1), InputError);
}

TEST(DiffusionMatrix, RejectsAnAlphaMakingTheDiagonalNegative) {
  try {
    DiffusionMatrix::uniform(parse_topology("hypercube:4"), 0.3);
    FAIL() << "alpha 0.3 on a 4-cube accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("0.3"), std::string::npos) << what;
    EXPECT_NE(what.find("1/4"), std::string::npos) << what;
  }
}

TEST(DiffusionMatrix, EdgeFileSetsBothDirectionsAndLeavesUnlistedEdgesAtZero) {
  const auto t = parse_topology("ring:4");
  const auto path = write_file("ring4.txt", "# ring\n0 1 0.25   # first\n\n2 1 0.5\n");
  const auto m = DiffusionMatrix::from_edge_file(t, path);
  EXPECT_FALSE(m.uniform_alpha().has_value());
  // ring neighbour order: +1, -1.
  EXPECT_DOUBLE_EQ(m.alpha(0, 0), 0.25);
  EXPECT_DOUBLE_EQ(m.alpha(1, 1), 0.25);
  EXPECT_DOUBLE_EQ(m.alpha(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(m.alpha(2, 1), 0.5);
  EXPECT_DOUBLE_EQ(m.alpha(3, 0), 0.0);
  EXPECT_DOUBLE_EQ(m.diagonal(1), 0.25);
  EXPECT_DOUBLE_EQ(m.diagonal(3), 1.0);
  EXPECT_EQ(m.description(), "file:" + path);
}

TEST(DiffusionMatrix, EdgeFileErrorsNameTheLine) {
  const auto t = parse_topology("ring:4");
  const auto expect_error = [&](const std::string& name, const std::string& text, const std::string& needle) {
    try {
      DiffusionMatrix::from_edge_file(t, write_file(name, text));
      ADD_FAILURE() << name << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  expect_error("malformed.txt", "0 1\n", "line 1");
  expect_error("extra.txt", "0 1 0.1 7\n", "line 1");
  expect_error("notedge.txt", "0 1 0.1\n0 2 0.1\n", "line 2: 0-2 is not an edge");
  expect_error("twice.txt", "0 1 0.1\n1 0 0.2\n", "given twice");
  expect_error("negative.txt", "0 1 -0.1\n", "alpha -0.1");
  expect_error("range.txt", "0 9 0.1\n", "out of range");
  expect_error("diagonal.txt", "0 1 0.6\n0 3 0.6\n", "node 0");
  EXPECT_THROW(DiffusionMatrix::from_edge_file(t, "/nonexistent/alphas.txt"), InputError);
}

TEST(DiffusionMatrix, PerEdgeAlphasMustBeSymmetric) {
  const auto t = parse_topology("ring:3");
  // slots: 0->1, 0->2, 1->2, 1->0, 2->0, 2->1
  EXPECT_NO_THROW(DiffusionMatrix::from_edge_alphas(t, {0.1, 0.2, 0.3, 0.1, 0.2, 0.3}));
  EXPECT_THROW(DiffusionMatrix::from_edge_alphas(t, {0.1, 0.2, 0.3, 0.15, 0.2, 0.3}), InputError);
  EXPECT_THROW(DiffusionMatrix::from_edge_alphas(t, {0.1, 0.2}), InputError);
}

}  // namespace
}  // namespace dlbkit
