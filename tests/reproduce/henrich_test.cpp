// The Henrich reproductions at small sizes: what the paper states, checked on what they compute.

#include "../support/temp_path.hpp"
#include "table_json.hpp"

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

void expect_files(const ReproductionResult& r) {
  ASSERT_EQ(r.files.size(), 2u);
  for (const auto& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}

// The cells of a column of one of the report's tables.
std::vector<nlohmann::json> column_of(const ReproductionResult& r, const std::string& table, const std::string& name) {
  return test::column_of(r.data, table, name);
}

TEST(HenrichReproductions, Table3) {
  const ReproductionResult r = henrich_table3(options("henrich-table3"));
  expect_files(r);
  const auto paper = column_of(r, "henrich-table3-beside-paper", "paper");
  const auto ours = column_of(r, "henrich-table3-beside-paper", "dlbkit");
  EXPECT_EQ(ours[0], 7);    // LM-C5 to sharing
  EXPECT_EQ(ours[1], 18);   // LM-C5 to balancing
  EXPECT_EQ(ours[2], 24);   // NNA to balancing
  EXPECT_EQ(paper[2], 24);
  const auto methods = column_of(r, "henrich-table3", "method");
  EXPECT_EQ(std::count(methods.begin(), methods.end(), "lm-c5"), 19);  // shifts 0..18
  EXPECT_NE(r.text.find("LM-C5 shifts to balancing               18        18"), std::string::npos) << r.text;
}

TEST(HenrichReproductions, Fig5SmallRings) {
  const ReproductionResult r =
      henrich_fig5(options("henrich-fig5"), {.fig5_max_p = 64, .fig5_long_max_p = 128});
  expect_files(r);
  const auto ps = column_of(r, "henrich-fig5", "p");
  ASSERT_EQ(ps.size(), 5u);  // 8 .. 128
  const auto at = [&](const std::string& name, std::size_t i) { return column_of(r, "henrich-fig5", name)[i]; };
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const int p = ps[i];
    // Sec. 5: LM shares in T = P - 1 shifts (C0 and C5 send the first element on at once).
    EXPECT_EQ(at("lm-c5_sharing", i), p - 1);
    EXPECT_GT(at("nna_steps", i).get<int>(), 0);
    EXPECT_GT(at("nna_balancing", i).get<int>(), at("lm-c5_balancing", i).get<int>()) << p;
    EXPECT_GT(at("nna_sharing", i).get<int>(), at("lm-c5_sharing", i).get<int>()) << p;
    if (p <= 64) {
      EXPECT_EQ(at("lm-c0_sharing", i), p - 1);
      for (const char* m : {"lm-c0", "lm-c1", "lm-c2"}) EXPECT_TRUE(at(std::string(m) + "_balancing", i).is_null()) << m;
    } else {
      EXPECT_TRUE(at("lm-c0_steps", i).is_null());  // only NNA and LM-C3..C5 go on
    }
  }
  const auto methods = column_of(r, "henrich-fig5-growth", "method"), goals = column_of(r, "henrich-fig5-growth", "time to");
  const auto slopes = column_of(r, "henrich-fig5-growth", "slope");
  bool found = false;
  for (std::size_t i = 0; i < methods.size(); ++i)
    if (methods[i] == "lm-c5" && goals[i] == "balancing") {
      found = true;
      EXPECT_GT(slopes[i].get<double>(), 0.9);
      EXPECT_LT(slopes[i].get<double>(), 1.2);  // linear growth
    }
  EXPECT_TRUE(found);
}

TEST(HenrichReproductions, Fig6NormalisesAt512AndContinuousIsQuadratic) {
  const ReproductionResult r = henrich_fig6(options("henrich-fig6"), {.fig6_max_p = 512});
  expect_files(r);
  EXPECT_EQ(column_of(r, "henrich-fig6", "p").back(), 512);
  EXPECT_EQ(column_of(r, "henrich-fig6", "c5_normalised").back(), 1.0);
  const auto slopes = column_of(r, "henrich-fig6-growth", "slope");
  ASSERT_EQ(column_of(r, "henrich-fig6-growth", "iterations of")[0], "c = 1");
  ASSERT_EQ(column_of(r, "henrich-fig6-growth", "iterations of")[4], "continuous");
  const double continuous = slopes[4], c1 = slopes[0];
  EXPECT_NEAR(continuous, 2.0, 0.15);  // eq. 3 on reals: diffusion time grows as P^2
  EXPECT_LT(c1, continuous);           // the quadratic part grows with c (Fig. 6)
}

TEST(HenrichReproductions, Fig7C3ToC5BalanceTogether) {
  const ReproductionResult r = henrich_fig7(options("henrich-fig7", 2), {.fig7_max_k = 16});
  expect_files(r);
  const auto ks = column_of(r, "henrich-fig7", "k");
  ASSERT_EQ(ks.size(), 3u);  // K = 4, 8, 16
  const auto c3 = column_of(r, "henrich-fig7", "c3_worst_balancing"), c5 = column_of(r, "henrich-fig7", "c5_worst_balancing");
  for (std::size_t i = 0; i < ks.size(); ++i)
    EXPECT_LE(std::abs(c3[i].get<int>() - c5[i].get<int>()), 2) << ks[i];  // "identical numbers of iterations" (Sec. 5)
  EXPECT_EQ(column_of(r, "henrich-fig7-random", "seed").size(), 3u * 3u * 2u);  // K x condition x seed
}

TEST(HenrichReproductions, Theorem3RatioStaysBounded) {
  const ReproductionResult r = henrich_theorem3(options("henrich-theorem3", 2), {.theorem3_max_k = 16});
  expect_files(r);
  const auto worst = column_of(r, "henrich-theorem3", "worst_ratio"), random = column_of(r, "henrich-theorem3", "random_ratio");
  ASSERT_GT(worst.size(), 5u);
  for (std::size_t i = 0; i < worst.size(); ++i) {
    EXPECT_GT(worst[i].get<double>(), 0.0);
    EXPECT_LT(worst[i].get<double>(), 1.0);
    EXPECT_GT(random[i].get<double>(), 0.0);
    EXPECT_LT(random[i].get<double>(), 1.0);
  }
}

}  // namespace
