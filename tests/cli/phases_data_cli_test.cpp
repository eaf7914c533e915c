// dlbkit phases --data: a phase of vt's LB data balanced, its figures under their specified names,
// written back with --write; bad input as one line with status 2 and no file written.

#include "../support/cli_json.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

namespace {

namespace fs = std::filesystem;
using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;

// LBAF's shipped data sets (tests/data/vt/README.md).
const std::string kMemoryToyStem = std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem";
const std::string kBlocksStem = std::string(DLBKIT_TEST_DATA) + "/vt/synthetic-dataset-blocks";

TEST(CliPhasesData, BalancesAVtPhaseAndWritesItBack) {
  const std::string dir = dlbkit::test::temp_dir("cli-vt-write");
  fs::create_directories(dir);
  const auto j = cli_json({"phases", "-s", "greedy", "--data", kMemoryToyStem, "--phase", "0", "--write", dir + "/out",
                           "--json"});
  ASSERT_TRUE(j.is_object());
  // toy_mem's ranks hold 190, 20, 50 and 90 s (the sum of each file's `time`, by python3's
  // json module): max / mean - 1 = 190 / 87.5 - 1.
  EXPECT_DOUBLE_EQ(j["imbalance_before"].get<double>(), 190 / 87.5 - 1);
  EXPECT_EQ(j["inputs"]["objects"], 32);
  EXPECT_EQ(j["inputs"]["ranks"], 4);
  EXPECT_EQ(j["inputs"]["topology"], "complete:4");
  for (const char* name : {"imbalance_after", "objects_migrated", "max_memory_after", "wall_seconds"})
    EXPECT_TRUE(j.contains(name)) << name;
  EXPECT_GT(j["objects_migrated"].get<std::size_t>(), 0u);

  // The files written hold the balanced mapping: their imbalance is the one printed.
  const dlbkit::VtDataSet written = dlbkit::read_vt_data(dir + "/out");
  EXPECT_EQ(written.ranks, 4u);
  const dlbkit::Phase& phase = dlbkit::vt_phase(written, 0).phase;
  EXPECT_EQ(phase.objects.size(), 32u);
  const dlbkit::PhaseFigures figures = dlbkit::phase_figures(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(figures.imbalance, j["imbalance_after"].get<double>());
  EXPECT_DOUBLE_EQ(figures.max_memory, j["max_memory_after"].get<double>());
}

TEST(CliPhasesData, ReportsTheLowerBoundAndTheExactReference) {
  // toy_mem under a bound its ranks' own bytes nearly fill: refine stops above the mean (87.5 s),
  // where the exact reference reaches it.
  const auto j = cli_json({"phases", "-s", "refine", "--data", kMemoryToyStem, "--memory-bound", "1.45e10", "--optimal",
                           "--time-limit", "30", "--json"});
  ASSERT_TRUE(j.is_object());
  EXPECT_DOUBLE_EQ(j["imbalance_lower_bound"].get<double>(), 0);
  EXPECT_GT(j["imbalance_after"].get<double>(), 0);
  EXPECT_FALSE(j["at_lower_bound"].get<bool>());
  EXPECT_EQ(j["inputs"]["time_limit"], 30.0);
  const auto& optimum = j["phases"][0]["optimum"];
  EXPECT_TRUE(optimum["optimal"].get<bool>());
  EXPECT_TRUE(optimum["migrations_minimal"].get<bool>());
  EXPECT_FALSE(optimum["out_of_time"].get<bool>());
  EXPECT_DOUBLE_EQ(optimum["max_load"].get<double>(), 87.5);
  EXPECT_DOUBLE_EQ(optimum["gap"].get<double>(), 0);
  EXPECT_LT(optimum["wall_seconds"].get<double>(), 30);
  // Without --optimal, no reference; greedy reaches the mean, its bound.
  const auto g = cli_json({"phases", "-s", "greedy", "--data", kMemoryToyStem, "--json"});
  EXPECT_TRUE(g["at_lower_bound"].get<bool>());
  EXPECT_TRUE(g["phases"][0]["at_lower_bound"].get<bool>());
  EXPECT_FALSE(g["phases"][0].contains("optimum"));
}

TEST(CliPhasesData, CountsTheDataSetsCommunications) {
  const auto j = cli_json({"phases", "-s", "refine", "--data", kBlocksStem, "--json"});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["inputs"]["communications"], 8);
  EXPECT_EQ(j["inputs"]["objects"], 9);
  EXPECT_DOUBLE_EQ(j["imbalance_before"].get<double>(), 1.0);  // 4 s on rank 1 of 8 s over 4 ranks
  EXPECT_DOUBLE_EQ(j["phases"][0]["crossing_bytes"].get<double>(), 9.0);
  EXPECT_TRUE(j["inputs"]["write"].is_null());
}

// --replay: the phases written by write_vt_phases (what ObjectRuntime's --record writes), in
// turn: two objects on rank 0, loads 1 and 3 then 3 and 1; greedy balances after phase 0.
TEST(CliPhasesData, ReplaysEveryPhaseOfARecordedRun) {
  const std::string dir = dlbkit::test::temp_dir("cli-vt-replay");
  fs::create_directories(dir);
  std::vector<dlbkit::Phase> phases(2, dlbkit::Phase{.nodes = 2});
  for (int k = 0; k < 2; ++k) {
    phases[k].objects = {{.id = 10, .load = k == 0 ? 1.0 : 3.0}, {.id = 11, .load = k == 0 ? 3.0 : 1.0}};
    phases[k].node_of = {0, 0};
  }
  dlbkit::write_vt_phases(phases, dir + "/run");
  const auto j = cli_json({"phases", "-s", "greedy", "--data", dir + "/run", "--replay", "--json"});
  ASSERT_EQ(j["phases"].size(), 2u);
  EXPECT_DOUBLE_EQ(j["phases"][0]["max_load"].get<double>(), 4.0);  // both on rank 0
  EXPECT_DOUBLE_EQ(j["phases"][1]["max_load"].get<double>(), 3.0);  // one each after greedy
  EXPECT_DOUBLE_EQ(j["unbalanced_seconds"].get<double>(), 8.0);
  EXPECT_DOUBLE_EQ(j["mean_phase_seconds"].get<double>(),
                   (j["application_seconds"].get<double>() + j["balancing_seconds"].get<double>()) / 2);
  EXPECT_EQ(j["inputs"]["replay"], true);
  expect_usage_error({"phases", "-s", "greedy", "--data", dir + "/run", "--replay", "--phase", "0"},
                     {"--phase", "--replay"});
  expect_usage_error({"phases", "-s", "greedy", "--data", dir + "/run", "--replay", "--phases", "3"},
                     {"--phases", "--replay every phase"});
  expect_usage_error({"phases", "-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--replay"},
                     {"--replay", "without --data"});
  // Phases whose tasks differ: objects followed by id, created and destroyed.
  phases[1].objects[1].id = 12;
  dlbkit::write_vt_phases(phases, dir + "/other");
  auto other = cli_json({"phases", "-s", "greedy", "--data", dir + "/other", "--replay", "--json"});
  EXPECT_EQ(other["phases"][1]["objects_created"], 1);
  EXPECT_EQ(other["phases"][1]["objects_destroyed"], 1);
  EXPECT_EQ(other["objects_created"], 1);
  phases[1].objects.clear();  // a phase without objects
  phases[1].node_of.clear();
  dlbkit::write_vt_phases(phases, dir + "/empty");
  other = cli_json({"phases", "-s", "greedy", "--data", dir + "/empty", "--replay", "--json"});
  EXPECT_EQ(other["phases"][1]["objects"], 0);
  EXPECT_EQ(other["objects_destroyed"], 2);
}

TEST(CliPhasesData, BadInputIsOneLineAndWritesNothing) {
  const std::string dir = dlbkit::test::temp_dir("cli-vt-bad");
  fs::create_directories(dir);
  const std::string out = dir + "/out";
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "-w", "hotspot", "-t", "ring:4"},
                     {"both -w/--workload and --data"});
  expect_usage_error({"phases", "-s", "greedy"}, {"neither -w/--workload nor --data"});
  expect_usage_error({"phases", "-s", "greedy", "--data", ""}, {"--data"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--write", ""}, {"--write"});
  expect_usage_error({"phases", "-s", "greedy", "--data", dir + "/none"}, {dir + "/none.0.json"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--phase", "3", "--write", out},
                     {"no phase 3", "accepted: 0"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--phases", "2"}, {"--phases", "--data"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--workload-param", "speed=1"},
                     {"--workload-param"});
  expect_usage_error({"phases", "-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--write", out},
                     {"--write", "without --data"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "-t", "ring:5"}, {"ring:5", "4 ranks"});
  expect_usage_error({"phases", "-s", "greedy", "-w", "hotspot"}, {"-t/--topology"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--time-limit", "5"}, {"--time-limit", "--optimal"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--optimal", "--time-limit", "0"},
                     {"--time-limit: '0'", "seconds > 0"});
  fs::create_directories(out + ".2.json");  // rank 2's file cannot be written: none is
  expect_usage_error({"phases", "-s", "greedy", "--data", kBlocksStem, "--write", out}, {out + ".2.json"});
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

}  // namespace
