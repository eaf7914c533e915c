// advise_command: `dlbkit advise` as a library function: the typed rows beside their JSON, the
// checks of its inputs in the CLI's words, and the progress it reports.

#include <dlbkit/error.hpp>
#include <dlbkit/workloads/advise_command.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dlbkit {
namespace {

const std::string kBlocks = DLBKIT_TEST_DATA "/vt/synthetic-dataset-blocks";  // 4 ranks, one phase

std::string error_of(const AdviseInputs& in) {
  try {
    advise_command(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AdviseCommand, RowsAreTheJsonsRankingBestFirst) {
  const AdviceResult r = advise_command({.workload = "busy",
                                         .topology = "complete:2",
                                         .cost = "ideal",
                                         .workload_params = {{"total_load", "2000"}},
                                         .jobs = 2});
  ASSERT_TRUE(r.setup.has_value());
  ASSERT_FALSE(r.ranking.empty());
  const nlohmann::json j = to_json(r);
  ASSERT_EQ(j["ranking"].size(), r.ranking.size());
  for (std::size_t i = 0; i < r.ranking.size(); ++i) {
    const AdviceRow& row = r.ranking[i];
    ASSERT_TRUE(row.simulation.has_value()) << row.strategy;
    EXPECT_FALSE(row.prediction.has_value()) << row.strategy;
    EXPECT_EQ(j["ranking"][i]["strategy"], row.strategy);
    EXPECT_EQ(j["ranking"][i]["params"], row.params.to_json());
    EXPECT_EQ(j["ranking"][i]["predicted_makespan"], row.predicted_makespan);
    EXPECT_EQ(row.predicted_makespan, to_seconds(row.simulation->balanced.makespan));
    for (const auto& [name, value] : row.searched) {
      EXPECT_EQ(row.params.text(name), value) << row.strategy;
    }
    if (i > 0) {
      EXPECT_LE(r.ranking[i - 1].predicted_makespan, row.predicted_makespan);
    }
  }
  EXPECT_EQ(j["nobal_makespan"], *r.nobal_makespan);
  EXPECT_EQ(j["inputs"]["workload"]["name"], "busy");
}

TEST(AdviseCommand, ReportsItsProgressFromZeroToEveryRun) {
  std::vector<std::size_t> done;
  std::size_t total = 0;
  std::string read;
  const AdviceResult r = advise_command({.data = kBlocks, .topology = "complete:4", .cost = "ideal", .jobs = 2},
                                        {.reading = [&](const std::string& stem) { read = stem; },
                                         .runs_done =
                                             [&](std::size_t count, std::size_t of) {
                                               done.push_back(count);
                                               total = of;
                                             }});
  EXPECT_EQ(read, kBlocks);
  EXPECT_FALSE(r.setup.has_value());
  ASSERT_FALSE(r.ranking.empty());
  EXPECT_TRUE(r.ranking.front().prediction.has_value());
  EXPECT_EQ(total, r.ranking.size() + r.failed.size());
  ASSERT_EQ(done.size(), total + 1);
  for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i);  // one call at a time, in order
}

TEST(AdviseCommand, RefusesWhatTheCliRefusesWithItsMessage) {
  const AdviseInputs data{.data = kBlocks, .topology = "complete:4", .cost = "ideal"};
  AdviseInputs in = data;
  in.workload = "busy";
  EXPECT_EQ(error_of(in), "more than one of -w/--workload, --trace and --data is given; accepted: exactly one of "
                          "-w/--workload NAME, --trace PATH and --data STEM");
  in = data;
  in.max_events = "10";
  EXPECT_EQ(error_of(in), "--max-events is given with --data; accepted: --max-events with -w/--workload or --trace "
                          "(the simulator's runs)");
  in = {.workload = "busy", .topology = "complete:2", .cost = "ideal", .migration_cost = "1us"};
  EXPECT_EQ(error_of(in), "--migration-cost is given without --data; accepted: --migration-cost with --data STEM only");
  in = data;
  in.cost.clear();
  EXPECT_NE(error_of(in).find("no cost model"), std::string::npos);
  in = data;
  in.jobs = 0;
  EXPECT_EQ(error_of(in), "--jobs: '0' is not accepted; accepted: an integer from 1 to 256");
  in = data;
  in.every = 0;
  EXPECT_EQ(error_of(in), "--every: '0' is not accepted; accepted: an integer from 1 to 1000000");
  in = data;
  in.every = 2;  // one phase: no replay
  EXPECT_NE(error_of(in).find("--every is given, but vt data"), std::string::npos);
}

}  // namespace
}  // namespace dlbkit
