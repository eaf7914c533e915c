// dlbkit phases --lbaf-config: LBAF's configuration run as the explicit options would run it,
// each key left out one "ignored:" line on stderr, the options given over the file's, and what
// dlbkit does not run refused on one line with status 2.

#include "../support/cli_json.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;
using dlbkit::test::lines_of;
using dlbkit::test::run_cli;

const std::string kData = DLBKIT_TEST_DATA;
const std::string kMemoryToy = kData + "/lbaf/user-defined-memory-toy-problem.yaml";

/// A JSON document of `dlbkit phases` without what differs from run to run or names the file.
nlohmann::json figures(nlohmann::json j) {
  j.erase("wall_seconds");
  j["inputs"].erase("lbaf_config");
  for (auto& p : j["phases"]) p.erase("wall_seconds");
  return j;
}

TEST(CliLbafConfig, RunsTheFileAsTheExplicitOptionsAndSaysWhatItLeavesOut) {
  const dlbkit::test::Outcome o = run_cli({"phases", "--lbaf-config", kMemoryToy, "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const std::string outputs = "(LBAF's output files; dlbkit writes the balanced phase with --write STEM)";
  EXPECT_EQ(lines_of(o.err),
            (std::vector<std::string>{
                "ignored: check_schema (LBAF's check of the data against vt's schema; dlbkit's reader checks "
                "every file)",
                "ignored: output_dir " + outputs, "ignored: output_file_stem " + outputs,
                "ignored: write_JSON " + outputs, "ignored: visualization (LBAF's pictures, by vt-tv)"}));
  const nlohmann::json from_file = nlohmann::json::parse(o.out);
  EXPECT_EQ(from_file["inputs"]["lbaf_config"]["file"], kMemoryToy);
  EXPECT_EQ(figures(from_file),
            figures(cli_json({"phases", "-s", "tempered", "-p", "n_iterations=4", "-p", "n_rounds=2", "-p", "fanout=2",
                              "-p", "order_strategy=arbitrary", "-p", "transfer_strategy=Clustering", "-p",
                              "max_objects_per_transfer=32", "-p", "deterministic_transfer=true", "-p", "peers=LBAF",
                              "--data", kData + "/vt/toy_mem", "--phase", "0", "--memory-bound", "8000000000.0",
                              "--json"})));

  // An option given wins over the file, inf over its upper bound too.
  const nlohmann::json unbounded = cli_json({"phases", "--lbaf-config", kMemoryToy, "--memory-bound", "inf", "-p",
                                             "n_iterations=1", "--json"});
  EXPECT_EQ(unbounded["inputs"]["memory_bound"], "inf");
  EXPECT_EQ(unbounded["inputs"]["params"]["n_iterations"], 1);
  EXPECT_EQ(unbounded["inputs"]["params"]["n_rounds"], 2);
}

// LBAF's ranks_per_node under its upper bound: the bound on each node's ranks together.
TEST(CliLbafConfig, RanksPerNodeUnderABoundIsTheMemoryGroup) {
  const nlohmann::json j = cli_json({"phases", "--lbaf-config", kData + "/lbaf/synthetic-blocks.yaml", "--json"});
  EXPECT_EQ(j["inputs"]["memory_group"], 2);
  EXPECT_LE(j["max_group_memory_after"].get<double>(), 45);
  EXPECT_EQ(figures(j),
            figures(cli_json({"phases", "-s", "tempered", "-p", "n_iterations=8", "-p", "n_rounds=2", "-p", "fanout=2",
                              "-p", "order_strategy=arbitrary", "-p", "transfer_strategy=Clustering", "-p",
                              "max_subclusters=4", "-p", "max_objects_per_transfer=8", "-p",
                              "deterministic_transfer=true", "-p", "peers=LBAF", "--data",
                              kData + "/vt/synthetic-dataset-blocks", "--phase", "0", "--memory-bound", "45.0",
                              "--memory-group", "2", "--work-model", "delta=0.1", "--json"})));
  expect_usage_error({"phases", "-s", "hierarchical", "--lbaf-config", kData + "/lbaf/synthetic-blocks.yaml"},
                     {"memory group 2 with phase strategy hierarchical, which plans each node's memory alone",
                      "accepted: 1, or one of"});
  expect_usage_error({"phases", "-s", "greedy", "--data", kData + "/vt/toy_mem", "--memory-group", "0"},
                     {"--memory-group '0' is not accepted; accepted: an integer >= 1 (nodes)"});
}

TEST(CliLbafConfig, RefusesWhatDlbkitDoesNotRunOnOneLine) {
  expect_usage_error({"phases", "--lbaf-config", kData + "/lbaf/none.yaml"}, {"--lbaf-config", "none.yaml"});
  expect_usage_error({"phases", "--data", kData + "/vt/toy_mem"}, {"no strategy", "--lbaf-config FILE"});
}

}  // namespace
