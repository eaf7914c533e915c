// The phases reproduction in its tiny form: a row per workload and strategy, each figure what
// the strategy does (none moves nothing; every other one lowers the imbalance).

#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/reproduction.hpp"

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <gtest/gtest.h>

#include <dlbkit/error.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace dlbkit;

namespace {

TEST(PhasesReproduction, EveryStrategyOnEveryWorkloadSideBySide) {
  const ReproductionResult r = builtin_reproductions().find("phases").run(
      {.out_dir = test::temp_dir("phases"), .runs = 1, .jobs = 2, .tiny = true});
  const auto column = [&](const char* name) { return test::column_of(r.data, "phases", name); };
  const auto strategy = column("strategy");
  ASSERT_EQ(strategy.size(), builtin_phase_workloads().all().size() * builtin_phase_strategies().all().size());
  for (std::size_t i = 0; i < strategy.size(); ++i) {
    SCOPED_TRACE(column("workload")[i].get<std::string>() + " " + strategy[i].get<std::string>());
    const double before = column("imbalance_before")[i], after = column("imbalance_after")[i];
    if (strategy[i] == "none") {
      EXPECT_EQ(before, after);
      EXPECT_EQ(column("objects_migrated")[i], 0);
    } else {  // the application's time may rise: ipsc2 prices the halos a balancer puts between nodes
      EXPECT_LE(after, before);
    }
  }
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

// Tiny phases the MILP proves: no strategy is below the optimum or the bound, and one row per
// workload is the optimum itself.
TEST(PhasesReproduction, EveryStrategyBesideTheOptimum) {
  const ReproductionResult r = builtin_reproductions().find("phases-optimum").run(
      {.out_dir = test::temp_dir("phases-optimum"), .runs = 1, .jobs = 2, .tiny = true});
  const auto column = [&](const char* name) { return test::column_of(r.data, "phases-optimum", name); };
  const auto strategy = column("strategy");
  const std::size_t per_workload = builtin_phase_strategies().all().size() + 2;  // greedy improve=true, the optimum
  ASSERT_EQ(strategy.size(), builtin_phase_workloads().all().size() * per_workload);
  for (std::size_t i = 0; i < strategy.size(); ++i) {
    SCOPED_TRACE(column("workload")[i].get<std::string>() + " " + strategy[i].get<std::string>());
    EXPECT_GE(column("above_optimum_percent")[i].get<double>(), -1e-7);
    EXPECT_GE(column("above_bound_percent")[i].get<double>(), -1e-7);
  }
  for (std::size_t i = per_workload - 1; i < strategy.size(); i += per_workload) {
    EXPECT_EQ(strategy[i - 1], "greedy improve=true");
    EXPECT_EQ(strategy[i], "optimum (proven)");
  }
}

/// An LBAF checkout's layout with the configurations and data the tests hold (tests/data/lbaf,
/// tests/data/vt, copied from LBAF): its config/ and data/ folders, the stems as LBAF's.
std::string lbaf_tree(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path root = test::temp_dir(name), data = DLBKIT_TEST_DATA;
  fs::create_directories(root / "config");
  for (const char* config : {"conf.yaml", "synthetic-blocks.yaml", "user-defined-memory-toy-problem.yaml"}) {
    std::ifstream in(data / "lbaf" / config);
    std::stringstream text;
    text << in.rdbuf();
    std::ofstream(root / "config" / config) << std::regex_replace(
        text.str(), std::regex("\\.\\./vt/(synthetic-dataset-blocks|toy_mem)"), "../data/$1-folder/$1");
  }
  for (const std::string stem : {"synthetic-dataset-blocks", "toy_mem"}) {
    fs::create_directories(root / "data" / (stem + "-folder"));
    for (int r = 0; r < 4; ++r)
      fs::copy_file(data / "vt" / (stem + "." + std::to_string(r) + ".json"),
                    root / "data" / (stem + "-folder") / (stem + "." + std::to_string(r) + ".json"));
  }
  return root.string();
}

// tempered beside LBAF on the configurations found: four rows each (LBAF's recorded figures,
// tempered with vt's peers, with LBAF's, and with LBAF's and vt's rollback), from the same
// imbalance before; the others are
// named as not run. Without an LBAF checkout it is one line saying what it needs.
TEST(PhasesReproduction, TemperedBesideLbafOnTheConfigurationsFound) {
  const std::string root = lbaf_tree("phases-lbaf");
  const ReproductionResult r = builtin_reproductions().find("phases-lbaf").run(
      {.out_dir = test::temp_dir("phases-lbaf-out"), .runs = 2, .params = {{"lbaf", root}}});
  const auto column = [&](const char* name) { return test::column_of(r.data, "phases-lbaf", name); };
  const auto problem = column("problem"), balancer = column("balancer"), before = column("imbalance_before");
  ASSERT_EQ(problem.size(), 12u);
  for (std::size_t i = 0; i < problem.size(); i += 4) {
    SCOPED_TRACE(problem[i].get<std::string>());
    EXPECT_EQ(balancer[i], "LBAF");
    EXPECT_EQ(balancer[i + 1], "tempered, vt's peers");
    EXPECT_EQ(balancer[i + 2], "tempered peers=LBAF");
    EXPECT_EQ(balancer[i + 3], "tempered peers=LBAF rollback=true");
    EXPECT_NEAR(before[i + 1].get<double>(), before[i].get<double>(), 1e-4);  // LBAF's, rounded
    EXPECT_EQ(before[i + 2], before[i + 1]);
    EXPECT_EQ(before[i + 3], before[i + 1]);
    // The rollback keeps the iteration of least max load: never above the last's.
    const auto after = column("imbalance_after_median");
    EXPECT_LE(after[i + 3].get<double>(), after[i + 2].get<double>());
    for (std::size_t k : {i + 1, i + 2, i + 3}) {
      EXPECT_LT(column("imbalance_after_median")[k].get<double>(), before[k].get<double>());
      EXPECT_LE(column("imbalance_lower_bound")[k].get<double>(), column("imbalance_after_median")[k].get<double>());
      EXPECT_EQ(column("lower_bound_units")[k], "objects");  // these configurations split blocks
    }
  }
  EXPECT_EQ(problem[0], "user-defined-memory-toy-problem");
  EXPECT_EQ(problem[4], "synthetic-blocks");
  EXPECT_EQ(problem[8], "conf (synthetic-blocks' data)");
  EXPECT_NE(r.text.find("challenging-toy-fewer-tasks: not run, no configuration"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("thousands-tasks data, hundreds-tasks configuration: not run"), std::string::npos);
  try {
    builtin_reproductions().find("phases-lbaf").run({.out_dir = test::temp_dir("phases-lbaf-none")});
    ADD_FAILURE() << "ran without LBAF";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("lbaf '' is not an LBAF checkout; accepted: -p lbaf=PATH"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
