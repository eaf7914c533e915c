// Zambonelli reproductions at tiny sizes: they run, write their files, and the Fig. 2 case
// shows what the paper says it shows.
#include "../support/temp_path.hpp"

#include <dlbkit/reproduce/reproduction.hpp>

#include <filesystem>
#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

}  // namespace

TEST(ZambonelliReproductions, Figure2CaseUndistortedStaysDistortedMoves) {
  const ReproductionReport r =
      builtin_reproductions().find("zambonelli-fig2").run({.out_dir = test::temp_dir("zfig2"), .runs = 1, .tiny = true});
  const auto& columns = r.data.at("columns");
  ASSERT_EQ(columns.size(), 5u);  // NLB, w=1, w=0.8, w=0.5, w=0.5 ext
  EXPECT_EQ(columns[0].at("migrations"), 0);
  EXPECT_EQ(columns[1].at("migrations"), 0) << "w = 1 must see no imbalance above the threshold";
  EXPECT_EQ(columns[1].at("sigma_end"), columns[1].at("sigma_start"));
  EXPECT_GT(columns[3].at("migrations").get<int>(), 0);
  EXPECT_LT(columns[3].at("sigma_end").get<double>(), columns[3].at("sigma_start").get<double>());
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

TEST(ZambonelliReproductions, SweepFiguresRunAndAreDeterministic) {
  const auto& fig11 = builtin_reproductions().find("zambonelli-fig11");
  const ReproductionReport a = fig11.run({.out_dir = test::temp_dir("zfig11a"), .runs = 1, .jobs = 2, .tiny = true});
  const ReproductionReport b = fig11.run({.out_dir = test::temp_dir("zfig11b"), .runs = 1, .jobs = 1, .tiny = true});
  EXPECT_EQ(a.data.at("points").dump(), b.data.at("points").dump());
  const auto& points = a.data.at("points");
  ASSERT_EQ(points.size(), 2u);
  for (const auto& p : points) {
    EXPECT_GT(p.at("measured_dsigma_per_second").get<double>(), 0.0);
    EXPECT_EQ(p.at("columns").size(), 10u);
    // Balancing the half-empty start beats no balancing.
    EXPECT_LT(p.at("columns").at("w=1").at("response_time").get<double>(), p.at("nlb").at("response_time").get<double>());
  }
  for (const std::string& f : a.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_NE(a.text.find("NRT"), std::string::npos);
}
