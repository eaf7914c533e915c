// End-to-end tests of `dlbkit tardiness`: the built binary (DLBKIT_CLI) must report what
// the library computes, and reject bad input with exit status 2 and one stderr line.

#include "../support/command.hpp"

#include <dlbkit/apps/tardiness.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#ifndef DLBKIT_CLI
#error "DLBKIT_CLI must hold the path of the dlbkit binary"
#endif

using namespace dlbkit;

namespace {

using Output = dlbkit::test::Outcome;

// `dlbkit tardiness args...`
Output run(std::vector<std::string> args) {
  args.insert(args.begin(), "tardiness");
  return dlbkit::test::run_cli(args);
}

}  // namespace

TEST(TardinessCli, ReportsWhatTheLibraryComputes) {
  const auto path = dlbkit::test::temp_path("tardiness_cli.txt");
  const Output o = run({"--generate", "8", "--seed", "3", "--threshold", "300", "--task-dimension", "5", "--json", "--write",
                        path.string()});
  ASSERT_EQ(o.status, 0) << o.err;
  const TardinessInstance jobs = load_tardiness_instance(path.string());
  std::filesystem::remove(path);
  Rng rng(3);
  EXPECT_EQ(jobs, generate_tardiness_instance(8, rng));
  const nlohmann::json j = nlohmann::json::parse(o.out);
  const TardinessOptimum best = solve_tardiness(jobs);
  EXPECT_EQ(j["optimum"]["tardiness"], best.tardiness);
  EXPECT_EQ(j["optimum"]["nodes_searched"], best.steps);
  const TardinessCount within = count_schedules_within(jobs, 300);
  EXPECT_EQ(j["threshold"]["schedules"], within.schedules);
  EXPECT_EQ(j["threshold"]["nodes_searched"], within.steps);
  const TardinessDecomposition d = decompose_tardiness(jobs, 5, 300);
  EXPECT_EQ(j["decomposition"]["tasks"], d.tasks.size());
  EXPECT_EQ(j["decomposition"]["tasks_without_threshold"], 8 * 7 * 6);
  EXPECT_EQ(j["decomposition"]["nodes_above"].get<std::uint64_t>() + j["decomposition"]["task_nodes"]["sum"].get<std::uint64_t>(),
            within.steps);
  EXPECT_EQ(j["input"]["seed"], 3);
}

TEST(TardinessCli, ReadsAnInstanceFileAndPrintsATable) {
  const auto path = dlbkit::test::temp_path("tardiness_in.txt");
  save_tardiness_instance(path.string(), TardinessInstance{.processing = {4, 7, 2, 9, 5, 3}, .due = {6, 12, 3, 30, 10, 8}});
  const Output o = run({"--instance", path.string(), "--threshold", "inf"});
  std::filesystem::remove(path);
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("schedules within T   720"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("nodes searched       1956"), std::string::npos) << o.out;  // 6 + 30 + 120 + 360 + 720 + 720
}

TEST(TardinessCli, BadInputExitsWithStatus2AndOneLine) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "--instance PATH or --generate N"},
      {{"--generate", "21"}, "21 jobs"},
      {{"--generate", "5", "--threshold", "-3"}, "--threshold: '-3'"},
      {{"--generate", "5", "--threshold", "9", "--task-dimension", "6"}, "m = 6"},
      {{"--generate", "5", "--threshold", "9", "--task-dimension", "0"}, "m = 0"},
      {{"--generate", "5", "--seed", "x"}, "--seed: 'x'"},
      {{"--instance", "/nonexistent/jobs.txt"}, "/nonexistent/jobs.txt"},
  };
  for (const auto& [args, message] : cases) {
    const Output o = run(args);
    EXPECT_EQ(o.status, 2) << message;
    EXPECT_TRUE(o.out.empty()) << o.out;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err << " should name: " << message;
  }
}
