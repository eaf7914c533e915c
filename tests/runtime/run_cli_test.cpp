// `dlbkit run` on the threads engine, end to end: the report, the JSON document and bad input.
#include "../support/command.hpp"

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/apps/uts.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <tuple>

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
  // stderr holds at most a warning (a run this short may end before sid moves a task).
  EXPECT_EQ(o.err.find("error"), std::string::npos) << o.err;
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

// --topology auto picks a network the strategy accepts for the worker count and says which.
TEST(RunCli, TopologyAutoPicksANetworkTheStrategyAccepts) {
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      {"hbm", 4, "hypercube:2"},        {"liquid", 2, "hypercube:1"}, {"nna", 3, "ring:3"},
      {"semi_distributed", 4, "bisectional:3"}, {"work_stealing", 3, "complete:3"}, {"sid", 8, "hypercube:3"}};
  for (const auto& [strategy, workers, network] : cases) {
    SCOPED_TRACE(strategy);
    const auto o = dlbkit_run("--app busy --app-param granularity=5 --app-param total_load=500 --no-sequential "
                              "--strategy " + strategy + " --workers " + std::to_string(workers) + " --json");
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["inputs"]["topology"], network);
    EXPECT_TRUE(j["inputs"]["topology_auto"].get<bool>());
    const auto text = dlbkit_run("--app busy --app-param granularity=5 --app-param total_load=500 --no-sequential "
                                 "--strategy " + strategy + " --workers " + std::to_string(workers));
    EXPECT_NE(text.out.find(strategy + " on " + network + " (--topology auto)"), std::string::npos) << text.out;
  }
  const auto none = dlbkit_run("--app busy --strategy nna --workers 2");
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("strategy nna accepts none of hypercube:1, complete:2 for 2 nodes"), std::string::npos)
      << none.err;
}

// rid with its defaults leaves a worker that starts empty idle for good: the run says so,
// before it starts and at the end, on stderr and in the JSON document.
TEST(RunCli, RidWithDefaultsSaysWorkersThatStartEmptyNeverAsk) {
  const auto o = dlbkit_run("--app bnb --app-param n=9 --strategy rid --workers 2 --json");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["tasks_moved"], 0);
  ASSERT_EQ(j["warnings"].size(), 2u) << j["warnings"];
  EXPECT_NE(j["warnings"][0].get<std::string>().find("1 of the 2 workers start without tasks"), std::string::npos);
  EXPECT_NE(j["warnings"][1].get<std::string>().find("no task moved"), std::string::npos);
  EXPECT_NE(o.err.find("dlbkit: warning: rid with retry_on_update=false"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("dlbkit: warning: no task moved: 1 of the 2 workers executed none"), std::string::npos) << o.err;

  // With retry_on_update the start warning goes (whether this short run moves tasks depends
  // on timing, and the end-of-run warning with it).
  const auto fixed = dlbkit_run("--app bnb --app-param n=9 --strategy rid -p retry_on_update=true --workers 2 --json");
  ASSERT_EQ(fixed.status, 0) << fixed.err;
  EXPECT_EQ(fixed.err.find("start without tasks"), std::string::npos) << fixed.err;
  const nlohmann::json fixed_json = nlohmann::json::parse(fixed.out);  // outlives the loop
  for (const auto& w : fixed_json["warnings"])
    EXPECT_EQ(w.get<std::string>().find("start without tasks"), std::string::npos) << w;
}

// A progress line on stderr while a run lasts over a second and stderr is a terminal (here a
// pseudo-terminal from script(1)), erased before the report; nothing when it is not one.
TEST(RunCli, ShowsProgressOnATerminalOnly) {
  const std::string args = "--app busy --app-param granularity=2000 --app-param total_load=3e5 --workers 2 --json";
  const auto tty = dlbkit::test::run_shell("script -qec \"timeout 120 " DLBKIT_CLI " run " + args + "\" /dev/null");
  ASSERT_EQ(tty.status, 0) << tty.err;
  const std::size_t json_at = tty.out.find('{');
  ASSERT_NE(json_at, std::string::npos) << tty.out;
  const auto j = nlohmann::json::parse(tty.out.substr(json_at));
  const std::string before = tty.out.substr(0, json_at);
  // Whether a line shows depends on how long the run took on this machine: check it only
  // when the run took clearly more than a second.
  if (j["sequential"]["elapsed_seconds"].get<double>() + j["elapsed_seconds"].get<double>() > 1.5) {
    EXPECT_NE(before.find("dlbkit run: "), std::string::npos) << before;
    EXPECT_EQ(before.rfind("\r\033[K"), before.size() - 4) << "the last progress line is erased";
  }
  const auto plain = dlbkit_run(args);
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_TRUE(plain.err.empty()) << plain.err;
}

// The user's trial: `dlbkit run --engine sequential` was refused while dlbkit::Runtime took
// it; the command is a client of Runtime now, and the sequential engine is one worker.
TEST(RunCli, RunsTheSequentialEngine) {
  const auto o = dlbkit_run("--app queens --app-param n=8 --app-param depth=2 --engine sequential");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("solutions 92"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("sequential engine, 1 workers"), std::string::npos) << o.out;
}

// A strategy that throws inside a worker thread (semi_distributed checks range= against the
// topology at its start) is bad input like any other: one error line and status 2, not an abort.
TEST(RunCli, AStrategysErrorInAWorkerIsAnErrorLine) {
  const auto o = dlbkit_run("--app bnb -s semi_distributed --workers 4 -p range=1 --no-sequential");
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(o.err.rfind("dlbkit: error: strategy semi_distributed: range=1 on bisectional:3", 0), 0u) << o.err;
  EXPECT_EQ(o.err.find("terminate"), std::string::npos) << o.err;
  EXPECT_EQ(o.out, "");
}
