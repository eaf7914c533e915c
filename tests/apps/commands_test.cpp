// run_command and calibrate_command, the library side of `dlbkit run` and `dlbkit calibrate`:
// what the CLI's tests do not see (the progress hooks, quiet, a result without a file).
#include <dlbkit/apps/calibrate_command.hpp>
#include <dlbkit/apps/run_command.hpp>
#include <dlbkit/error.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kSmallBusy = {"granularity=5", "total_load=500"};  // 5 tasks a worker

TEST(RunCommand, ComparesWithTheSequentialRunAndTellsItsPhases) {
  std::vector<std::string> phases;
  std::atomic<std::uint64_t> executed{0};
  const dlbkit::RunResult r = dlbkit::run_command(
      {.app = "busy", .app_params = kSmallBusy, .topology = "complete:2", .quiet = true},
      {.sequential = [&] { phases.push_back("sequential run"); },
       .parallel = [&](const std::string& engine) { phases.push_back(engine); },
       .tasks_executed = &executed});
  EXPECT_EQ(phases, (std::vector<std::string>{"sequential run", "threads engine"}));
  EXPECT_EQ(executed.load(), 10u);  // every worker adds its count as it ends
  ASSERT_TRUE(r.sequential.has_value());
  EXPECT_TRUE(r.same_result);
  EXPECT_EQ(r.result, r.sequential_result);
  EXPECT_GT(r.efficiency, 0);
  const nlohmann::json j = dlbkit::to_json(r);
  EXPECT_EQ(j["inputs"]["topology"], "complete:2");
  EXPECT_EQ(j["inputs"]["topology_auto"], false);
  EXPECT_EQ(j["tasks_executed"], 10);
  EXPECT_TRUE(j.contains("sequential"));
}

TEST(RunCommand, QuietKeepsTheWarningsInTheResult) {
  testing::internal::CaptureStderr();
  const dlbkit::RunResult r = dlbkit::run_command({.app = "bnb",
                                                   .app_params = {"n=6"},
                                                   .strategy = "rid",
                                                   .params = {"retry_on_update=false"},
                                                   .topology = "ring:3",
                                                   .sequential = false,
                                                   .quiet = true});
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ASSERT_FALSE(r.parallel.warnings.empty());
  EXPECT_NE(r.parallel.warnings[0].find("start without tasks"), std::string::npos);
}

TEST(RunCommand, RefusesAsTheCliDoes) {
  EXPECT_THROW(dlbkit::run_command({.app = "busy", .seed = "-1"}), dlbkit::InputError);
  EXPECT_THROW(dlbkit::run_command({.app = "busy", .app_params = {"granularity"}}), dlbkit::InputError);
}

TEST(CalibrateCommand, WithoutAFileGivesTheModelAndTheFigures) {
  const std::optional<dlbkit::CalibrationResult> r =
      dlbkit::calibrate_command({.app_params = kSmallBusy, .repetitions = 3, .app_runs = 1});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->model.name, "calibrated-threads");
  EXPECT_GT(r->loop_ns, 0);
  EXPECT_EQ(r->model.workload_params.at("busy").count("loop_time"), 1u);
  const nlohmann::json file = dlbkit::to_json(*r);
  EXPECT_EQ(file["calibration"]["app"], r->app);
  EXPECT_EQ(file["latency"], r->model.to_json()["latency"]);
}

TEST(CalibrateCommand, RefusesBadValuesBeforeMeasuring) {
  for (const dlbkit::CalibrateInputs& in :
       {dlbkit::CalibrateInputs{.engine = "mpi"}, dlbkit::CalibrateInputs{.repetitions = 1},
        dlbkit::CalibrateInputs{.app_runs = 1001}, dlbkit::CalibrateInputs{.app = "nothing"},
        dlbkit::CalibrateInputs{.poll_interval = "3"}})
    EXPECT_THROW(dlbkit::calibrate_command(in), dlbkit::InputError);
}

}  // namespace
