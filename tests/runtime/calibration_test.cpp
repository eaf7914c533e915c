// The probes of `dlbkit calibrate` on the threads engine: every figure is finite and not
// negative, the timed ones above zero, and the cost model they give can be written to a
// file and read back. Nothing here depends on how fast the machine is.

#include "../support/command.hpp"
#include "../support/mpirun.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

namespace dlbkit {
namespace {

EngineRun threads() {
  return [](AnyApplication& app, const RuntimeConfig& config) { return run_threads(app, config); };
}

TEST(Calibration, ThreadsProbesGiveFiniteFigures) {
  const EngineCosts c = measure_engine_costs("threads", threads(), {.repetitions = 10, .burst = 16, .tasks = 8});
  for (const double x : {c.one_way_message, c.send, c.handle, c.one_way_task, c.one_way_tasks, c.per_task,
                         c.per_big_task, c.check, c.per_byte()}) {
    EXPECT_TRUE(std::isfinite(x));
  }
  // A round trip, a send and 1000 polls each take some time: their medians are positive.
  EXPECT_GT(c.one_way_message, 0);
  EXPECT_GT(c.one_way_task, 0);
  EXPECT_GT(c.one_way_tasks, 0);
  EXPECT_GT(c.send, 0);
  EXPECT_GT(c.check, 0);
  EXPECT_GE(c.handle, 0);  // 0 only when every burst was split over check points
  EXPECT_GE(c.round_trips_lost, 0);
  EXPECT_LE(c.round_trips_lost, 20 * 10);  // at most 20 x repetitions are left out
  EXPECT_GT(c.big_record, c.small_record);
  EXPECT_GE(c.small_record, 16u);

  const CostModel model = c.model("probe", 24);
  EXPECT_EQ(model.poll_interval, 20 * kMicrosecond);
  EXPECT_EQ(model.per_byte, c.per_byte());  // the messages between objects (phases/communication_cost.hpp)
  for (const SimTime t : {model.poll_cost, model.send_overhead, model.handle_cost, model.latency, model.per_task})
    EXPECT_GE(t, 0);
  const nlohmann::json figures = c.to_json();
  EXPECT_EQ(figures.at("engine"), "threads");
  EXPECT_EQ(figures.at("repetitions"), 10);

  const std::string path = test::temp_path("calibrated.json").string();
  std::ofstream(path) << model.to_json().dump();
  EXPECT_EQ(make_cost_model("file:" + path).to_json(), model.to_json());
}

TEST(Calibration, RefusesTooFewRepetitions) {
  EXPECT_THROW(measure_engine_costs("threads", threads(), {.repetitions = 1}), InputError);
  EXPECT_THROW(measure_engine_costs("threads", threads(), {.tasks = 1}), InputError);
}

// The command writes a file that --cost file:PATH loads, with every figure present and
// finite; `simulate` runs on it.
TEST(Calibration, CalibrateCommandWritesALoadableCostModel) {
  const std::string path = test::temp_path("calibrate-cli.json").string();
  const auto o = test::run_cli({"calibrate", "--engine", "threads", "--output", path, "--repetitions", "10", "--app",
                                "bnb", "--app-param", "n=7", "--app-runs", "1"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("one-way message"), std::string::npos);
  const CostModel model = make_cost_model("file:" + path);
  EXPECT_EQ(model.name, "calibrated-threads");
  EXPECT_GT(model.loop_time, 0);
  EXPECT_GT(model.poll_cost, 0);
  EXPECT_GT(model.send_overhead, 0);
  EXPECT_EQ(model.poll_interval, 20 * kMicrosecond);

  std::ifstream in(path);
  const nlohmann::json file = nlohmann::json::parse(in);
  const nlohmann::json& app = file.at("calibration").at("app");
  EXPECT_EQ(app.at("name"), "bnb");
  for (const char* key : {"ns_per_task", "ns_per_step"}) {
    ASSERT_TRUE(app.contains(key)) << key;
    EXPECT_TRUE(std::isfinite(app.at(key).get<double>()));
    EXPECT_GT(app.at(key).get<double>(), 0);
  }
  for (const auto& [key, value] : file.at("calibration").at("engine").items())
    if (value.is_number()) {
      EXPECT_TRUE(std::isfinite(value.get<double>())) << key;
    }
  // The time per search step is the bnb workload's step_time, which a simulation then takes.
  EXPECT_EQ(model.checks, Checks::engines);
  ASSERT_EQ(model.workload_params.count("bnb"), 1u);
  const std::string step_time = model.workload_params.at("bnb").at("step_time");
  EXPECT_NEAR(std::stod(step_time), app.at("ns_per_step").get<double>(), 0.001);
  EXPECT_EQ(step_time.substr(step_time.size() - 2), "ns");

  const auto sim = test::run_cli({"simulate", "-s", "work_stealing", "-t", "hypercube:2", "-w", "bnb",
                                  "--workload-param", "n=7", "--workload-param", "m=4", "--cost", "file:" + path});
  EXPECT_EQ(sim.status, 0) << sim.err;
  EXPECT_NE(sim.out.find("cost model calibrated-threads"), std::string::npos);
}

TEST(Calibration, CalibrateCommandRefusesBadInput) {
  const std::string path = test::temp_path("calibrate-bad.json").string();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"calibrate", "--engine", "gpu", "--output", path},
        std::vector<std::string>{"calibrate", "--output", path, "--repetitions", "1"},
        std::vector<std::string>{"calibrate", "--output", path, "--app", "nothing"},
        std::vector<std::string>{"calibrate", "--output", ""},
        std::vector<std::string>{"calibrate"}}) {
    const auto o = test::run_cli(args);
    EXPECT_EQ(o.status, 2) << args.back() << ": " << o.err;
    EXPECT_EQ(o.out, "");
  }
  const auto o = test::run_cli({"simulate", "-s", "rid", "-t", "hypercube:2", "--cost", "file:/nonexistent.json"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("/nonexistent.json"), std::string::npos);
}

#ifdef DLBKIT_MPIEXEC
test::Outcome mpirun_calibrate(int ranks, const std::string& args) {
  return test::run_mpirun(ranks, DLBKIT_CLI " calibrate --engine mpi " + args);
}

// Under mpirun with two ranks: rank 0 writes the file, which loads, with the plan API's costs;
// other rank counts are refused with one line and status 2.
TEST(Calibration, MpiCalibrationWritesALoadableCostModel) {
  const std::string path = test::temp_path("calibrate-mpi.json").string();
  const auto o = mpirun_calibrate(2, "--repetitions 10 --app-runs 1 --output " + test::shell_quote(path));
  ASSERT_EQ(o.status, 0) << o.err;
  const CostModel model = make_cost_model("file:" + path);
  EXPECT_EQ(model.name, "calibrated-mpi");
  EXPECT_GT(model.poll_cost, 0);
  EXPECT_GT(model.send_overhead, 0);
  // The plan API's own costs, measured beside the engine's: rounds that take time, and a step
  // that costs more than the model's collectives (how the rest splits between the round and
  // the step depends on the machine's noise).
  EXPECT_GT(model.protocol_round + model.protocol_step, 0);
  EXPECT_EQ(model.protocol_compute, 1.0);  // the agents' computation as this machine times it
  const auto plan_api = nlohmann::json::parse(std::ifstream(path))["calibration"]["plan_api"];
  EXPECT_GT(plan_api["step_ns_51_rounds"].get<double>(), plan_api["step_ns_1_round"].get<double>());
  EXPECT_GT(plan_api["step_ns_1_round_2000_objects"].get<double>(), 0);
  const auto three = mpirun_calibrate(3, "--output " + test::shell_quote(path));
  EXPECT_EQ(three.status, 2);
  EXPECT_NE(three.err.find("3 MPI ranks; accepted: 2"), std::string::npos) << three.err;
}
#endif

}  // namespace
}  // namespace dlbkit
