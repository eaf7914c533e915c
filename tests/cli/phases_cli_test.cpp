// dlbkit phases: the figures it documents under their names, consistent with each other,
// and bad input as one line with status 2.

#include "../support/cli_json.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;

TEST(CliPhases, PrintsTheFiguresOfEveryPhaseAndTheirSums) {
  const auto j = cli_json({"phases", "-s", "refine", "-w", "hotspot", "-t", "torus:4x4", "--phases", "6", "--every",
                           "2", "--json"});
  ASSERT_TRUE(j.is_object());
  for (const char* name : {"imbalance_before", "imbalance_after", "objects_migrated", "wall_seconds"})
    EXPECT_TRUE(j.contains(name)) << name;
  EXPECT_FALSE(j.contains("max_memory_after"));  // a synthetic workload has no memory figures
  ASSERT_EQ(j["phases"].size(), 6u);
  std::size_t migrated = 0, steps = 0;
  double application = 0, communication = 0;  // hotspot's halos between nodes, at ipsc2's costs
  for (const auto& p : j["phases"]) {
    application += p["max_load"].get<double>() + p["communication_seconds"].get<double>();
    communication += p["communication_seconds"].get<double>();
    if (p["balanced"].get<bool>()) {
      ++steps;
      migrated += p["objects_migrated"].get<std::size_t>();
      EXPECT_LE(p["imbalance_after"].get<double>(), p["imbalance"].get<double>());
    }
  }
  EXPECT_EQ(steps, 3u);
  EXPECT_EQ(j["balancing_steps"], steps);
  EXPECT_EQ(j["objects_migrated"], migrated);
  EXPECT_DOUBLE_EQ(j["application_seconds"].get<double>(), application);
  EXPECT_DOUBLE_EQ(j["communication_seconds"].get<double>(), communication);
  EXPECT_GT(communication, 0.0);
  EXPECT_EQ(j["inputs"]["objects"], 16 * 100);
}

TEST(CliPhases, TheSameSeedGivesTheSameRun) {
  const std::vector<std::string> args{"phases", "-s", "greedy", "-w", "random_walk", "-t", "ring:8", "--phases", "3",
                                      "--json"};
  auto a = cli_json(args), b = cli_json(args);
  for (auto* j : {&a, &b}) {
    (*j).erase("wall_seconds");
    for (auto& p : (*j)["phases"]) p.erase("wall_seconds");
  }
  EXPECT_EQ(a, b);
}

TEST(CliPhases, BadInputIsOneLine) {
  const std::vector<std::string> base{"phases", "-w", "hotspot", "-t", "ring:4"};
  auto with = [&](std::vector<std::string> more) {
    auto args = base;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_usage_error(with({"-s", "nosuch"}), {"unknown phase strategy 'nosuch'", "greedy"});
  expect_usage_error(with({"-s", "refine", "-p", "tolerance=-1"}), {"tolerance"});
  expect_usage_error(with({"-s", "greedy", "--memory-bound", "-5"}), {"--memory-bound", "-5"});
  expect_usage_error(with({"-s", "greedy", "--memory-bound", ""}), {"--memory-bound"});
  expect_usage_error(with({"-s", "greedy", "--threshold", "nan"}), {"--threshold"});
  expect_usage_error(with({"-s", "greedy", "--phases", "0"}), {"--phases"});
  expect_usage_error(with({"-s", "greedy", "--workload-param", "speed=-1"}), {"speed"});
  expect_usage_error({"phases", "-s", "greedy", "-w", "nosuch", "-t", "ring:4"}, {"unknown phase workload 'nosuch'"});
}

}  // namespace
