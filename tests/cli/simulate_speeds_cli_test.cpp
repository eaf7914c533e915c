// dlbkit simulate --speeds: nodes that differ in speed, as a list or a cycle; the optimum over
// the total speed; bad speeds as one line with status 2.

#include "../support/cli_json.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;

// Node 1 has about twice node 0's tasks (seed 1): at speeds 2 and 1 NOBAL ends near twice the
// optimum, RID within 10% (messages checked for free: ipsc2's checks are 30% of the processor
// time, which the optimum leaves out).
TEST(CliSimulateSpeeds, TwoNodesAtSpeedsTwoAndOne) {
  const std::vector<std::string> run{"simulate", "-s", "rid", "-t", "complete:2", "-c", "ipsc2-network", "--json"};
  auto with_speeds = run;
  with_speeds.insert(with_speeds.end(), {"--speeds", "2,1"});
  const auto equal = cli_json(run), j = cli_json(with_speeds);
  EXPECT_FALSE(equal["inputs"].contains("speeds"));
  EXPECT_EQ(j["inputs"]["speeds"], nlohmann::json::array({2.0, 1.0}));
  // The same tasks: the optimum is their work over a total speed of 3 instead of 2 nodes.
  EXPECT_NEAR(j["optimal"].get<double>(), equal["optimal"].get<double>() * 2 / 3, 1e-12);
  EXPECT_LE(j["makespan"].get<double>(), 1.1 * j["optimal"].get<double>());
  EXPECT_GT(j["nobal_makespan"].get<double>(), 1.5 * j["optimal"].get<double>());
}

TEST(CliSimulateSpeeds, ACycleIsItsListRepeatedOverTheNodes) {
  const std::vector<std::string> run{"simulate", "-s", "rid", "-t", "ring:6", "--json", "--speeds"};
  auto cycle = run, list = run;
  cycle.push_back("cycle:1,2.5");
  list.push_back("1,2.5,1,2.5,1,2.5");
  auto a = cli_json(cycle), b = cli_json(list);
  EXPECT_EQ(a["inputs"]["speeds"], nlohmann::json::array({1.0, 2.5, 1.0, 2.5, 1.0, 2.5}));
  for (auto* j : {&a, &b}) j->erase("wall_seconds"), j->erase("events_per_second");
  EXPECT_EQ(a, b);
}

TEST(CliSimulateSpeeds, BadSpeedsAreOneLine) {
  const std::vector<std::string> base{"simulate", "-s", "rid", "-t", "complete:2", "--speeds"};
  for (const char* speeds : {"1,0", "1,-1", "1,nan", "1,,2", "cycle:0", "cycle:"}) {
    auto args = base;
    args.push_back(speeds);
    expect_usage_error(args, {"--speeds", "accepted: one speed per node, each a number > 0"});
  }
  auto empty = base;
  empty.push_back("");
  expect_usage_error(empty, {"--speeds: '' is empty"});
  auto one = base;
  one.push_back("1");
  expect_usage_error(one, {"--speeds: 1 speeds for 2 nodes"});
  auto cycle = base;
  cycle.push_back("cycle:1,2,3");
  expect_usage_error(cycle, {"--speeds 'cycle:1,2,3': a cycle of 3 speeds for 2 nodes"});
}

}  // namespace
