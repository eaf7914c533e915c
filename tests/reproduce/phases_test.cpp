// The phases reproduction in its tiny form: a row per workload and strategy, each figure what
// the strategy does (none moves nothing; every other one lowers the imbalance).

#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/reproduction.hpp"

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <gtest/gtest.h>

#include <filesystem>

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
  ASSERT_EQ(strategy.size(), builtin_phase_workloads().all().size() * (builtin_phase_strategies().all().size() + 1));
  for (std::size_t i = 0; i < strategy.size(); ++i) {
    SCOPED_TRACE(column("workload")[i].get<std::string>() + " " + strategy[i].get<std::string>());
    EXPECT_GE(column("above_optimum_percent")[i].get<double>(), -1e-7);
    EXPECT_GE(column("above_bound_percent")[i].get<double>(), -1e-7);
  }
  for (std::size_t i = builtin_phase_strategies().all().size(); i < strategy.size();
       i += builtin_phase_strategies().all().size() + 1)
    EXPECT_EQ(strategy[i], "optimum (proven)");
}

}  // namespace
