#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include "reproduce/reproduction.hpp"
#include "reproduce/trials.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <stdexcept>

using namespace dlbkit;

namespace {

std::size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

}  // namespace

TEST(ParallelFor, CallsEveryIndexOnceAndPropagatesErrors) {
  std::vector<std::atomic<int>> calls(1000);
  parallel_for(calls.size(), 3, [&](std::size_t i) { ++calls[i]; });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
  EXPECT_THROW(parallel_for(10, 2, [](std::size_t i) {
                 if (i == 7) throw std::runtime_error("seven");
               }),
               std::runtime_error);
}

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
  const ReproductionReport r = builtin_reproductions().find("wlr93-table4").run({.out_dir = dir, .runs = 2, .jobs = 2});
  EXPECT_NE(r.text.find("T (s), paper"), std::string::npos);
  EXPECT_NE(r.text.find("66.3"), std::string::npos);  // the paper's NOBAL
  const auto& columns = r.data.at("columns");
  ASSERT_EQ(columns.size(), 7u);
  const double optimal = r.data.at("optimal");
  for (const auto& c : columns) {
    // No schedule beats the work spread evenly; every column carries the paper's figures.
    EXPECT_GT(c.at("T").get<double>(), optimal) << c.at("label");
    EXPECT_TRUE(c.at("paper").contains("T"));
    EXPECT_GT(c.at("speedup").get<double>(), 0.0);
  }
  EXPECT_EQ(columns[1].at("paper").at("T"), 44.1);  // RID, L_LOW = alpha
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  EXPECT_EQ(lines_in(dir + "/wlr93-table4.csv"), 1u + 7u * 2u);  // header, 7 strategies x 2 runs
}

TEST(Reproductions, Wlr93Table4IsDeterministic) {
  const auto& table4 = builtin_reproductions().find("wlr93-table4");
  const ReproductionReport a = table4.run({.out_dir = test::temp_dir("det-a"), .runs = 2, .jobs = 2});
  const ReproductionReport b = table4.run({.out_dir = test::temp_dir("det-b"), .runs = 2, .jobs = 1});
  EXPECT_EQ(a.data.at("columns").dump(), b.data.at("columns").dump());
}
