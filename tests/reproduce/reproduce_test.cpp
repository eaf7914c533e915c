#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include <dlbkit/error.hpp>
#include "reproduce/reproduction.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>

using namespace dlbkit;

namespace {

std::size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

}  // namespace

TEST(Reproductions, RegistryNamesAreUniqueAndDescribed) {
  std::set<std::string> names;
  for (const ReproductionInfo& r : builtin_reproductions().all()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.description.empty());
    EXPECT_FALSE(r.source.empty());
    EXPECT_GE(r.default_runs, 1);
  }
  EXPECT_TRUE(names.count("wlr93-table4"));
  EXPECT_THROW(builtin_reproductions().find("wlr93-table9"), InputError);
}

TEST(Reproductions, Wlr93Table4PrintsOursBesideThePapersAndWritesItsFiles) {
  const std::string dir = test::temp_dir("table4");
  const ReproductionResult r = builtin_reproductions().find("wlr93-table4").run({.out_dir = dir, .runs = 2, .jobs = 2});
  EXPECT_NE(r.text.find("T (s), paper"), std::string::npos);
  EXPECT_NE(r.text.find("66.3"), std::string::npos);  // the paper's NOBAL
  // The table beside the paper's: a row per quantity, a column per strategy after optimal and NOBAL.
  const auto quantity = test::column_of(r.data, "wlr93-table4-beside-paper", "quantity");
  ASSERT_EQ(quantity.size(), 8u);
  EXPECT_EQ(quantity[0], "T (s), dlbkit");
  EXPECT_EQ(quantity[1], "T (s), paper");
  const double optimal = test::column_of(r.data, "wlr93-table4-beside-paper", "optimal")[0];
  for (const char* label : {"DEM", "RID a", "RID inf", "SID a", "SID inf", "HBM", "GM"}) {
    const auto column = test::column_of(r.data, "wlr93-table4-beside-paper", label);
    // No schedule beats the work spread evenly; every column carries the paper's figures.
    EXPECT_GT(column[0].get<double>(), optimal) << label;
    EXPECT_GT(column[1].get<double>(), 0.0) << label;
    EXPECT_GT(column[6].get<double>(), 0.0) << label;  // speedup, dlbkit
  }
  EXPECT_EQ(test::column_of(r.data, "wlr93-table4-beside-paper", "RID a")[1], 44.1);  // L_LOW = alpha
  EXPECT_EQ(r.comparisons.size(), 3u + 7u * 4u);
  EXPECT_EQ(r.data.at("comparisons").size(), r.comparisons.size());
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_EQ(lines_in(dir + "/wlr93-table4.csv"), 1u + 7u * 2u);  // header, 7 strategies x 2 runs
}

TEST(Reproductions, Wlr93Table4IsDeterministic) {
  const auto& table4 = builtin_reproductions().find("wlr93-table4");
  const ReproductionResult a = table4.run({.out_dir = test::temp_dir("det-a"), .runs = 2, .jobs = 2});
  const ReproductionResult b = table4.run({.out_dir = test::temp_dir("det-b"), .runs = 2, .jobs = 1});
  EXPECT_EQ(a.data.at("tables").dump(), b.data.at("tables").dump());
}
