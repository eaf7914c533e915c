// The beyond-* reproductions in their tiny form: the figures they print come from the
// schemes, and the ones with exact answers have them.

#include "../support/temp_path.hpp"

#include "reproduce/reproduction.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using namespace dlbkit;

namespace {

ReproductionReport tiny(const std::string& name) {
  return builtin_reproductions().find(name).run(
      {.out_dir = test::temp_dir(name), .runs = 2, .jobs = 2, .tiny = true});
}

TEST(Beyond, StepsMatchTheClosedFormsWhereThereAreSome) {
  const ReproductionReport r = tiny("beyond-steps");
  const auto& points = r.data.at("points");
  ASSERT_EQ(points.size(), 3u);  // hypercube:6, hypercube:7, torus:16x16
  EXPECT_EQ(points[0].at("topology"), "hypercube:6");
  EXPECT_EQ(points[0].at("OPS").at("measured"), 6);  // exact in d steps
  EXPECT_EQ(points[1].at("OPS").at("measured"), 7);
  for (const auto& p : points) {
    // SOS is the faster; FOS stays within eq. 11's bound.
    EXPECT_LT(p.at("SOS").at("measured").get<int>(), p.at("FOS").at("measured").get<int>());
    EXPECT_LE(p.at("FOS").at("measured").get<int>(), p.at("FOS").at("predicted").get<int>());
  }
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

TEST(Beyond, FlowImitationStaysWithinTwiceTheDegree) {
  const ReproductionReport r = tiny("beyond-discrepancy");
  for (const auto& p : r.data.at("points")) {
    const double d = p.at("d");
    EXPECT_TRUE(p.at("continuous_converged").get<bool>());
    EXPECT_LE(p.at("flow-imitation").at("worst").get<double>(), 2 * d + p.at("continuous_max_min").get<double>());
    EXPECT_GE(p.at("deterministic").at("worst").get<double>(), 0);
  }
  EXPECT_NE(r.text.find("sqrt(d ln n)"), std::string::npos);
}

TEST(Beyond, AgentsRunOnTheWlr93Workload) {
  const ReproductionReport r = tiny("beyond-agents");
  const auto& columns = r.data.at("columns");
  ASSERT_EQ(columns.size(), 6u);
  for (const auto& c : columns) EXPECT_GT(c.at("speedup").get<double>(), 0.5) << c.at("label");
}

}  // namespace
