// `dlbkit run` on the threads engine, end to end: the report, the JSON document and bad input.
#include "../support/command.hpp"

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/apps/uts.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

dlbkit::test::Outcome dlbkit_run(const std::string& args) {
  return dlbkit::test::run_shell("timeout 120 " DLBKIT_CLI " run " + args);
}

}  // namespace

TEST(RunCli, ReportsTheResultBesideTheSequentialRun) {
  const auto o = dlbkit_run("--app bnb --app-param n=9 --app-param instance_seed=2 --strategy sid --topology ring:3");
  ASSERT_EQ(o.status, 0) << o.err;
  dlbkit::Rng rng(2);
  const auto optimum = dlbkit::solve_tardiness(dlbkit::generate_tardiness_instance(9, rng)).tardiness;
  EXPECT_NE(o.out.find("optimum " + std::to_string(optimum)), std::string::npos) << o.out;
  for (const char* line : {"same as sequential   yes", "efficiency", "CPU efficiency", "tasks moved", "messages",
                           "threads engine, 3 workers"})
    EXPECT_NE(o.out.find(line), std::string::npos) << line << "\n" << o.out;
  EXPECT_TRUE(o.err.empty()) << o.err;
}

TEST(RunCli, JsonHasTheInputsAndEveryWorker) {
  const auto o = dlbkit_run("--app busy --app-param granularity=5 --app-param total_load=500 --workers 3 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["inputs"]["app"], "busy");
  EXPECT_EQ(j["inputs"]["strategy"], "work_stealing");
  EXPECT_EQ(j["inputs"]["topology"], "complete:3");
  EXPECT_EQ(j["inputs"]["engine"], "threads");
  EXPECT_EQ(j["result"]["tasks"], 15);
  EXPECT_EQ(j["result"], j["sequential"]["result"]);
  EXPECT_TRUE(j["same_result"].get<bool>());
  ASSERT_EQ(j["workers"].size(), 3u);
  std::uint64_t executed = 0;
  for (const auto& w : j["workers"]) executed += w["tasks_executed"].get<std::uint64_t>();
  EXPECT_EQ(executed, 15u);
  EXPECT_EQ(j["tasks_executed"], 15);
  EXPECT_TRUE(j["messages"].contains("task_transfer"));
}

TEST(RunCli, BadInputIsOneLineAndStatus2) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--app nope", "unknown app 'nope'"},
      {"--app bnb --strategy nope", "unknown strategy 'nope'"},
      {"--app uts --app-param tree=T9", "T9"},
      {"--app bnb --app-param n=0", "n"},
      {"--app bnb --workers 3 --topology ring:4", "--workers 3 but topology ring:4 has 4 nodes"},
      {"--app bnb --workers 0", "--workers"},
      {"--app bnb --engine cuda", "--engine 'cuda'"},
      {"--app bnb --strategy hbm --topology ring:3", "hbm"},
      {"--app bnb --check-tasks 0", "--check-tasks"},
      {"--app bnb --max-delay -1s", "--max-delay"},
      {"--app uts --app-param tree=T1,sede=3", "tree=T1,sede=3"},
      {"--app bnb --bogus", "--bogus"},
      {"--app bnb --seed", "--seed"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const auto o = dlbkit_run(args);
    EXPECT_EQ(o.status, 2);
    EXPECT_TRUE(o.out.empty()) << o.out;
    EXPECT_EQ(o.err.rfind("dlbkit: error: ", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
  }
}

// A command line CLI11 refuses under an MPI launcher: each rank finds the same error before
// MPI_Init, and only the one whose launcher variable says rank 0 reports it.
TEST(RunCli, SyntaxErrorUnderALauncherIsReportedByRankZeroOnly) {
  for (const std::string variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}) {
    SCOPED_TRACE(variable);
    const auto rank0 = dlbkit::test::run_shell(variable + "=0 " DLBKIT_CLI " run --app bnb --bogus");
    EXPECT_EQ(rank0.status, 2);
    EXPECT_NE(rank0.err.find("dlbkit: error: "), std::string::npos) << rank0.err;
    const auto rank1 = dlbkit::test::run_shell(variable + "=1 " DLBKIT_CLI " run --app bnb --bogus");
    EXPECT_EQ(rank1.status, 0);
    EXPECT_TRUE(rank1.err.empty()) << rank1.err;
    EXPECT_TRUE(rank1.out.empty()) << rank1.out;
  }
}

// A custom UTS tree spec is one --app-param value: its commas and '=' signs stay in it.
TEST(RunCli, UtsTakesACustomTree) {
  const std::string spec = "type=binomial,b0=200,q=0.2,m=4,seed=7";
  const auto o = dlbkit_run("--app uts --app-param tree=" + spec + " --workers 2 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["inputs"]["app_params"]["tree"], spec);
  EXPECT_EQ(j["result"]["nodes"], dlbkit::uts::count_sequential(dlbkit::uts::parse_tree(spec)).nodes);
  EXPECT_TRUE(j["same_result"].get<bool>());
}
