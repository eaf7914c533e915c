// The Henrich reproductions at small sizes: what the paper states, checked on what they compute.

#include "../support/temp_path.hpp"

#include "reproduce/henrich.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

ReproductionOptions options(const std::string& name, int runs = 1) {
  return {.out_dir = dlbkit::test::temp_dir(name), .runs = runs, .jobs = 2};
}

void expect_files(const ReproductionReport& r) {
  ASSERT_EQ(r.files.size(), 2u);
  for (const auto& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}

TEST(HenrichReproductions, Table3) {
  const ReproductionReport r = henrich_table3(options("henrich-table3"));
  expect_files(r);
  EXPECT_EQ(r.data["lm_c5"]["shifts_to_sharing"], 7);
  EXPECT_EQ(r.data["lm_c5"]["shifts_to_balancing"], 18);
  EXPECT_EQ(r.data["nna"]["shifts_to_balancing"], 24);
  EXPECT_EQ(r.data["paper"]["nna_balancing"], 24);
  EXPECT_EQ(r.data["lm_c5"]["trace"].size(), 19u);
  EXPECT_NE(r.text.find("LM-C5 shifts to balancing               18        18"), std::string::npos) << r.text;
}

TEST(HenrichReproductions, Fig5SmallRings) {
  const ReproductionReport r =
      henrich_fig5(options("henrich-fig5"), {.fig5_max_p = 64, .fig5_long_max_p = 128});
  expect_files(r);
  const auto& rows = r.data["rows"];
  ASSERT_EQ(rows.size(), 5u);  // 8 .. 128
  for (const auto& row : rows) {
    const int p = row["p"];
    // Sec. 5: LM shares in T = P - 1 shifts (C0 and C5 send the first element on at once).
    EXPECT_EQ(row["lm-c5"]["shifts_to_sharing"], p - 1);
    EXPECT_EQ(row["nna"]["steps"].get<int>() > 0, true);
    EXPECT_GT(row["nna"]["shifts_to_balancing"].get<int>(), row["lm-c5"]["shifts_to_balancing"].get<int>()) << p;
    EXPECT_GT(row["nna"]["shifts_to_sharing"].get<int>(), row["lm-c5"]["shifts_to_sharing"].get<int>()) << p;
    if (p <= 64) {
      EXPECT_EQ(row["lm-c0"]["shifts_to_sharing"], p - 1);
      for (const char* m : {"lm-c0", "lm-c1", "lm-c2"}) EXPECT_TRUE(row[m]["shifts_to_balancing"].is_null()) << m;
    } else {
      EXPECT_FALSE(row.contains("lm-c0"));  // only NNA and LM-C3..C5 go on
    }
  }
  const double slope = r.data["fits"]["lm-c5"]["balancing"]["slope"];
  EXPECT_GT(slope, 0.9);
  EXPECT_LT(slope, 1.2);  // linear growth
}

TEST(HenrichReproductions, Fig6NormalisesAt512AndContinuousIsQuadratic) {
  const ReproductionReport r = henrich_fig6(options("henrich-fig6"), {.fig6_max_p = 512});
  expect_files(r);
  const auto& last = r.data["rows"].back();
  EXPECT_EQ(last["p"], 512);
  const double continuous = r.data["slopes"]["continuous"], c1 = r.data["slopes"]["c = 1"];
  EXPECT_NEAR(continuous, 2.0, 0.15);  // eq. 3 on reals: diffusion time grows as P^2
  EXPECT_LT(c1, continuous);           // the quadratic part grows with c (Fig. 6)
}

TEST(HenrichReproductions, Fig7C3ToC5BalanceTogether) {
  const ReproductionReport r = henrich_fig7(options("henrich-fig7", 2), {.fig7_max_k = 16});
  expect_files(r);
  ASSERT_EQ(r.data["rows"].size(), 3u);  // K = 4, 8, 16
  for (const auto& row : r.data["rows"]) {
    const int c3 = row["lm-c3"]["worst_balancing"], c5 = row["lm-c5"]["worst_balancing"];
    EXPECT_LE(std::abs(c3 - c5), 2) << row["k"];  // "identical numbers of iterations" (Sec. 5)
    EXPECT_EQ(row["lm-c5"]["random_balancing"].size(), 2u);
  }
}

TEST(HenrichReproductions, Theorem3RatioStaysBounded) {
  const ReproductionReport r = henrich_theorem3(options("henrich-theorem3", 2), {.theorem3_max_k = 16});
  expect_files(r);
  EXPECT_GT(r.data["rows"].size(), 5u);
  EXPECT_GT(r.data["largest_ratio"].get<double>(), 0.0);
  EXPECT_LT(r.data["largest_ratio"].get<double>(), 1.0);
}

}  // namespace
