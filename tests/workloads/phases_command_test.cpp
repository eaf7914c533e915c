// phases_command: `dlbkit phases` as a library function: the run, its JSON, the checks of its
// inputs in the CLI's order and words, and the progress it reports.

#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/workloads/phases_command.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

std::string error_of(const PhasesInputs& in) {
  try {
    phases_command(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PhasesCommand, RunsAWorkloadAndRendersItsJson) {
  const PhasesResult r = phases_command({.strategy = "greedy", .workload = "hotspot", .topology = "torus:4x4",
                                         .phases = 4, .every = 2, .seed = 3});
  ASSERT_EQ(r.run.steps.size(), 4u);
  EXPECT_EQ(r.run.balancing_steps, 2u);  // after phases 1 and 3
  const nlohmann::json j = to_json(r);
  EXPECT_EQ(j["inputs"]["workload"], "hotspot");
  EXPECT_EQ(j["inputs"]["threshold"], "inf");
  EXPECT_EQ(j["inputs"]["seed"], 3);
  EXPECT_EQ(j["phases"].size(), 4u);
  EXPECT_FALSE(j["phases"][0]["balanced"].get<bool>());
  EXPECT_TRUE(j["phases"][1]["balanced"].get<bool>());
  EXPECT_DOUBLE_EQ(j["application_seconds"].get<double>(), r.run.application_seconds);
  EXPECT_EQ(j["objects_migrated"], r.run.objects_migrated);
}

TEST(PhasesCommand, RefusesWhatTheCliRefusesWithItsMessage) {
  const PhasesInputs workload{.strategy = "greedy", .workload = "hotspot", .topology = "ring:4"};
  PhasesInputs in = workload;
  in.data = "lb/none";
  EXPECT_NE(error_of(in).find("both -w/--workload and --data are given"), std::string::npos);
  in = workload;
  in.phases = 0;
  EXPECT_EQ(error_of(in), "--phases: '0' is not accepted; accepted: an integer from 1 to 1000000");
  in = workload;
  in.replay = true;
  EXPECT_EQ(error_of(in), "--replay is given without --data; accepted: --replay with --data STEM only");
  in = workload;
  in.topology.clear();
  EXPECT_NE(error_of(in).find("no topology"), std::string::npos);
  in = {.strategy = "greedy", .data = "lb/none", .phases = 2};
  EXPECT_NE(error_of(in).find("--phases is given with --data"), std::string::npos);
  in = {.strategy = "greedy", .data = "lb/none", .every = 2};  // --every only with a replay
  EXPECT_NE(error_of(in).find("--every is given with --data"), std::string::npos);
  in = workload;
  in.threshold = "-1";
  EXPECT_NE(error_of(in).find("--threshold '-1'"), std::string::npos);
}

// A recorded run's two phases replayed, with the progress told as it goes.
TEST(PhasesCommand, ReplaysVtDataAndReportsProgress) {
  const std::string dir = test::temp_dir("phases-command");
  std::filesystem::create_directories(dir);
  std::vector<Phase> phases(2, Phase{.nodes = 2});
  for (int k = 0; k < 2; ++k) {
    phases[k].objects = {{.id = 10, .load = k == 0 ? 1.0 : 3.0}, {.id = 11, .load = k == 0 ? 3.0 : 1.0}};
    phases[k].node_of = {0, 0};
  }
  write_vt_phases(phases, dir + "/run");
  std::vector<std::string> told;
  const PhasesResult r = phases_command(
      {.strategy = "greedy", .data = dir + "/run", .replay = true},
      {.reading = [&](const std::string& stem) { told.push_back("reading " + stem); },
       .running = [&](const std::string& s, std::size_t n) { told.push_back(s + " " + std::to_string(n)); },
       .phase_done = [&](std::size_t done) { told.push_back(std::to_string(done)); }});
  EXPECT_EQ(told, (std::vector<std::string>{"reading " + dir + "/run", "greedy 2", "1", "2"}));
  ASSERT_EQ(r.run.steps.size(), 2u);
  EXPECT_DOUBLE_EQ(r.run.steps[0].figures.max_load, 4.0);  // both objects on rank 0
  EXPECT_DOUBLE_EQ(r.run.steps[1].figures.max_load, 3.0);  // one each after greedy
  EXPECT_EQ(r.inputs["ranks"], 2);
  EXPECT_EQ(r.inputs["topology"], "complete:2");
  EXPECT_TRUE(r.inputs["phase"].is_null());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dlbkit
