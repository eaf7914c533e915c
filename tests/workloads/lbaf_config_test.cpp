// LBAF's YAML configurations read as `dlbkit phases` inputs: LBAF's own files (tests/data/lbaf),
// the caller's inputs over them, what is refused and why, and the same run as the explicit options.

#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/workloads/lbaf_config.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace dlbkit {
namespace {

const std::string kData = DLBKIT_TEST_DATA;
const std::string kHundreds = kData + "/lbaf/challenging-toy-hundreds-tasks.yaml";
const std::string kMemoryToyConfig = kData + "/lbaf/user-defined-memory-toy-problem.yaml";
const std::string kRecursive = kData + "/lbaf/conf.yaml";
const std::string kBlocksConfig = kData + "/lbaf/synthetic-blocks.yaml";

bool has(const std::vector<std::string>& ignored, const std::string& prefix) {
  return std::ranges::any_of(ignored, [&](const std::string& line) { return line.rfind(prefix, 0) == 0; });
}

/// The message with which with_lbaf_config refuses the file, "" when it does not.
std::string config_error(const PhasesInputs& in) {
  try {
    with_lbaf_config(in);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// LBAF's memory toy configuration (tests/data/lbaf) with its lines `from` replaced by `to`,
/// written to a file of its own.
std::string variant(const std::string& name, const std::string& from, const std::string& to) {
  std::ifstream in(kMemoryToyConfig);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  const std::string path = test::temp_path(name + ".yaml").string();
  std::ofstream(path) << text;
  return path;
}

TEST(LbafConfig, ReadsLbafsShippedConfigurations) {
  LbafConfig c = with_lbaf_config({.lbaf_config = kHundreds});
  EXPECT_EQ(c.inputs.strategy, "tempered");
  const std::map<std::string, std::string> hundreds{
      {"n_iterations", "4"},         {"n_rounds", "3"},          {"fanout", "4"},
      {"order_strategy", "arbitrary"}, {"transfer_strategy", "Clustering"}, {"max_subclusters", "0"},
      {"cluster_swap_rtol", "0.05"}, {"max_objects_per_transfer", "500"}, {"deterministic_transfer", "false"},
      {"peers", "LBAF"}};
  EXPECT_EQ(c.inputs.params, hundreds);
  // The stem relative to the file's folder, as LBAF resolves it (the data itself is not read).
  EXPECT_EQ(c.inputs.data, kData + "/data/challenging_toy_hundreds_tasks/toy");
  EXPECT_EQ(c.inputs.phase, 0);
  EXPECT_EQ(c.inputs.rebalance.memory_bound, "8000000000.0");
  EXPECT_EQ(c.inputs.rebalance.work_model, "load");  // beta, gamma and delta 0
  for (const char* key : {"check_schema (", "overwrite_validator (", "output_dir (", "output_file_stem ("})
    EXPECT_TRUE(has(c.ignored, key)) << key;
  EXPECT_EQ(c.ignored.size(), 4u);

  c = with_lbaf_config({.lbaf_config = kRecursive});
  EXPECT_EQ(c.inputs.params.at("transfer_strategy"), "Recursive");
  EXPECT_EQ(c.inputs.params.at("order_strategy"), "element_id");
  EXPECT_EQ(c.inputs.params.at("deterministic_transfer"), "true");
  EXPECT_EQ(c.inputs.data, kData + "/vt/synthetic-dataset-blocks");
  EXPECT_FALSE(c.inputs.rebalance.memory_bound);  // no upper bound in its work model
  EXPECT_TRUE(has(c.ignored, "write_JSON ("));

  c = with_lbaf_config({.lbaf_config = kMemoryToyConfig});
  EXPECT_EQ(c.inputs.params.at("max_objects_per_transfer"), "32");
  EXPECT_TRUE(has(c.ignored, "visualization ("));
  EXPECT_FALSE(c.inputs.rebalance.memory_group);

  // ranks_per_node under an upper bound: LBAF bounds each node's ranks together.
  c = with_lbaf_config({.lbaf_config = kBlocksConfig});
  EXPECT_EQ(c.inputs.rebalance.memory_group, 2);
  EXPECT_EQ(c.inputs.rebalance.memory_bound, "45.0");
  EXPECT_EQ(c.inputs.rebalance.work_model, "delta=0.1");
  EXPECT_EQ(c.inputs.params.at("max_subclusters"), "4");
  c = with_lbaf_config({.rebalance = {.memory_group = 1}, .lbaf_config = kBlocksConfig});
  EXPECT_EQ(c.inputs.rebalance.memory_group, 1);  // the caller's
  // Without one, LBAF's nodes group ranks in its statistics only.
  const std::string nodes = variant("lbaf-nodes", "phase_ids:", "ranks_per_node: 4\n  phase_ids:");
  std::ifstream in(nodes);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.erase(text.find("    upper_bounds:"), std::string("    upper_bounds:\n      max_memory_usage: 8000000000.0\n").size());
  std::ofstream(nodes) << text;
  c = with_lbaf_config({.lbaf_config = nodes});
  EXPECT_FALSE(c.inputs.rebalance.memory_group);
  EXPECT_FALSE(c.inputs.rebalance.memory_bound);
  EXPECT_TRUE(has(c.ignored, "from_data.ranks_per_node (LBAF's nodes only group ranks in its statistics"));
  std::filesystem::remove(nodes);

  // The AffineCombination's terms are the work model (phases/work_model.hpp).
  const std::string weighed = variant("lbaf-weighed", "beta: 0.0\n    gamma: 0.0", "beta: 1.0e-08\n    gamma: 2");
  c = with_lbaf_config({.lbaf_config = weighed});
  EXPECT_EQ(c.inputs.rebalance.work_model, "beta=1e-08,gamma=2");
  std::filesystem::remove(weighed);
}

TEST(LbafConfig, TheCallersInputsWin) {
  LbafConfig c = with_lbaf_config({.strategy = "tempered",
                                   .params = {{"n_iterations", "2"}, {"peers", "vt"}},
                                   .data = "elsewhere",
                                   .phase = 3,
                                   .rebalance = {.memory_bound = "1e9", .work_model = "delta=3"},
                                   .lbaf_config = kMemoryToyConfig});
  EXPECT_EQ(c.inputs.params.at("n_iterations"), "2");
  EXPECT_EQ(c.inputs.params.at("peers"), "vt");
  EXPECT_EQ(c.inputs.params.at("n_rounds"), "2");  // the file's
  EXPECT_EQ(c.inputs.data, "elsewhere");
  EXPECT_EQ(c.inputs.phase, 3);
  EXPECT_EQ(c.inputs.rebalance.memory_bound, "1e9");
  EXPECT_EQ(c.inputs.rebalance.work_model, "delta=3");

  // Another strategy leaves the file's algorithm out, even one dlbkit does not run.
  const std::string stepper = variant("lbaf-stepper", "name: InformAndTransfer", "name: PhaseStepper");
  c = with_lbaf_config({.strategy = "greedy", .lbaf_config = stepper});
  EXPECT_EQ(c.inputs.strategy, "greedy");
  EXPECT_TRUE(c.inputs.params.empty());
  EXPECT_TRUE(has(c.ignored, "algorithm (PhaseStepper; -s greedy runs instead)"));
  EXPECT_EQ(c.inputs.rebalance.memory_bound, "8000000000.0");
  std::filesystem::remove(stepper);
}

TEST(LbafConfig, RefusesWhatWouldChangeTheResultNamingTheKey) {
  const std::string stepper = variant("lbaf-stepper", "name: InformAndTransfer", "name: PhaseStepper");
  EXPECT_EQ(config_error({.lbaf_config = stepper}),
            "--lbaf-config " + stepper + ": algorithm.name 'PhaseStepper' is not supported; accepted: "
            "InformAndTransfer (dlbkit's tempered), or -s STRATEGY for another of dlbkit's");
  const std::map<std::string, std::pair<std::string, std::string>> refused{
      {"'outptu_dir' is not a key of LBAF's configuration; accepted: from_data, work_model, algorithm, ",
       {"output_dir:", "outptu_dir:"}},
      {"algorithm.parameters.criterion 'StrictLocalizing' is not supported; accepted: Tempered",
       {"criterion: Tempered", "criterion: StrictLocalizing"}},
      {"work_model.parameters.beta -1 is not accepted; accepted: a number >= 0", {"beta: 0.0", "beta: -1.0"}},
      {"'algorithm.parameters.n_iteration' is not a parameter of LBAF's InformAndTransfer; accepted: n_iterations, ",
       {"n_iterations:", "n_iteration:"}},
      {"algorithm.parameters: phase strategy tempered: parameter fanout=0 is not accepted",
       {"fanout: 2", "fanout: 0"}},
      {"algorithm.phase_id 1 is not among from_data.phase_ids", {"phase_id: 0", "phase_id: 1"}},
      {"algorithm.phase_id 0 is not among from_data.phase_ids", {"phase_ids:\n  - 0", "phase_ids: 2-5"}},
      {"'work_model.parameters.upper_bounds.load' is not supported; accepted: max_memory_usage",
       {"max_memory_usage:", "load:"}},
      {"from_samplers (LBAF's sampled loads) is not supported; accepted: from_data", {"from_data:", "from_samplers:"}},
      {"line 3, column 11: illegal map value; accepted: LBAF's YAML configuration", {"  data_stem", "\tdata_stem"}}};
  for (const auto& [message, edit] : refused) {
    const std::string path = variant("lbaf-refused", edit.first, edit.second);
    const std::string error = config_error({.lbaf_config = path});
    EXPECT_EQ(error.rfind("--lbaf-config " + path + ": " + message, 0), 0u) << error;
    std::filesystem::remove(path);
  }
  std::filesystem::remove(stepper);
  EXPECT_NE(config_error({.lbaf_config = kData + "/lbaf/none.yaml"}), "");
}

// The same JSON as the explicit options, but for the decision's wall time and the file's name.
TEST(LbafConfig, RunsAsTheExplicitOptions) {
  const auto figures = [](const PhasesInputs& in) {
    nlohmann::json j = to_json(phases_command(in));
    j.erase("wall_seconds");
    j["inputs"].erase("lbaf_config");
    for (auto& p : j["phases"]) p.erase("wall_seconds");
    return j;
  };
  const std::map<std::string, std::string> memory_toy{
      {"n_iterations", "4"},          {"n_rounds", "2"},
      {"fanout", "2"},                {"order_strategy", "arbitrary"},
      {"transfer_strategy", "Clustering"}, {"max_objects_per_transfer", "32"},
      {"deterministic_transfer", "true"},  {"peers", "LBAF"}};
  const nlohmann::json explicit_options = figures({.strategy = "tempered",
                                                   .params = memory_toy,
                                                   .data = kData + "/vt/toy_mem",
                                                   .phase = 0,
                                                   .rebalance = {.memory_bound = "8000000000.0"},
                                                   .seed = 3});
  EXPECT_EQ(figures({.seed = 3, .lbaf_config = kMemoryToyConfig}), explicit_options);
  EXPECT_GT(explicit_options["objects_migrated"].get<std::size_t>(), 0u);

  const PhasesResult r = phases_command({.lbaf_config = kRecursive});
  EXPECT_EQ(r.inputs["lbaf_config"]["file"], kRecursive);
  EXPECT_EQ(r.inputs["lbaf_config"]["ignored"].size(), 4u);  // check_schema and the outputs
  EXPECT_EQ(to_json(phases_command({.strategy = "greedy", .data = kData + "/vt/toy_mem"}))["inputs"]["lbaf_config"],
            nullptr);
}

}  // namespace
}  // namespace dlbkit
