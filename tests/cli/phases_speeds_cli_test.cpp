// dlbkit phases --speeds: nodes that differ in speed, balanced on times; bad speeds as one line
// with status 2.

#include "../support/cli_json.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;

// Two nodes at speeds 1 and 2: the busiest node's time within 10% of total load / total speed
// (the target), where balancing loads leaves the slow node at 1.5x of it.
TEST(CliPhasesSpeeds, TwoNodesAtSpeedsOneAndTwo) {
  const auto j = cli_json({"phases", "-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--speeds", "1,2", "--json"});
  EXPECT_EQ(j["inputs"]["speeds"], nlohmann::json::array({1.0, 2.0}));
  const auto& p = j["phases"][0];
  const double total = 2 * p["max_load"].get<double>() / (1 + p["imbalance"].get<double>());  // 2 x the mean
  ASSERT_TRUE(j.contains("max_work_after"));
  EXPECT_LE(j["max_work_after"].get<double>(), 1.1 * total / 3);
  EXPECT_FALSE(cli_json({"phases", "-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--json"})["inputs"].contains(
      "speeds"));
}

TEST(CliPhasesSpeeds, BadSpeedsAreOneLine) {
  const std::vector<std::string> base{"phases", "-s", "greedy", "-w", "hotspot", "-t", "complete:2", "--speeds"};
  for (const char* speeds : {"1,0", "1,nan", "0,-1", "1,,2", "inf,1"}) {
    auto args = base;
    args.push_back(speeds);
    expect_usage_error(args, {"--speeds", "accepted: one speed per node, each a number > 0"});
  }
  auto three = base;
  three.push_back("1,2,3");
  expect_usage_error(three, {"--speeds: 3 speeds for 2 nodes"});
}

}  // namespace
