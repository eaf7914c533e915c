// dlbkit advise --data: every phase strategy that accepts the topology ranked on vt's LB data,
// best first, each row what `dlbkit phases --data` gives for the same strategy and
// parameters: the next phase of one phase, or a replay of every phase; bad input is one line.

#include "../support/cli_json.hpp"
#include "../support/command.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;
using dlbkit::test::param_args;
using dlbkit::test::run_cli;
using dlbkit::test::with;
using nlohmann::json;

// LBAF's shipped data set of one phase, 4 ranks (tests/data/vt/README.md).
const std::string kBlocks = std::string(DLBKIT_TEST_DATA) + "/vt/synthetic-dataset-blocks";

// `dlbkit phases` with a ranking row's strategy and parameters, the inputs and `more`.
json phases_of(const json& row, const std::vector<std::string>& inputs, const std::vector<std::string>& more) {
  return cli_json(with(with({"phases", "-s", row["strategy"].get<std::string>()}, param_args(row["params"])),
                       with(inputs, more)));
}

// Three phases of 8 objects on the 4 nodes of hypercube:2, two per node, whose loads drift:
// node 0's objects heavy first, then node 3's.
std::string three_phases(const std::string& name) {
  const std::string dir = dlbkit::test::temp_dir(name);
  fs::create_directories(dir);
  std::vector<dlbkit::Phase> phases(3, dlbkit::Phase{.nodes = 4});
  for (int k = 0; k < 3; ++k)
    for (std::uint64_t i = 0; i < 8; ++i) {
      const bool heavy = k < 2 ? i < 2 : i >= 6;
      phases[k].objects.push_back({.id = 100 + i, .load = heavy ? 0.04 : 0.01 + 0.001 * static_cast<double>(i)});
      phases[k].node_of.push_back(static_cast<dlbkit::NodeId>(i / 2));
    }
  dlbkit::write_vt_phases(phases, dir + "/run");
  return dir + "/run";
}

// Every phase strategy either ranked or not run, and not run exactly when phases refuses it.
void expect_every_strategy_once(const json& advice, const std::vector<std::string>& inputs) {
  std::set<std::string> ranked, not_run;
  for (const json& row : advice["ranking"]) ranked.insert(row["strategy"].get<std::string>());
  for (const json& row : advice["not_run"]) not_run.insert(row["strategy"].get<std::string>());
  for (const dlbkit::PhaseStrategyInfo& info : dlbkit::builtin_phase_strategies().all()) {
    SCOPED_TRACE(info.name);
    EXPECT_NE(ranked.count(info.name), not_run.count(info.name));
    EXPECT_EQ(run_cli(with({"phases", "-s", info.name}, inputs)).status, ranked.count(info.name) ? 0 : 2);
  }
  const json& ranking = advice["ranking"];
  for (std::size_t i = 1; i < ranking.size(); ++i)
    EXPECT_LE(ranking[i - 1]["predicted_makespan"].get<double>(), ranking[i]["predicted_makespan"].get<double>()) << i;
  for (const json& row : ranking) {
    EXPECT_DOUBLE_EQ(row["efficiency"].get<double>(),
                     advice["optimal"].get<double>() / row["predicted_makespan"].get<double>());
    if (row["strategy"] == "none") {
      EXPECT_EQ(row["predicted_makespan"], advice["nobal_makespan"]);
    }
  }
}

}  // namespace

// One phase: each row is the next phase under the principle of persistence, its max load
// after balancing plus its messages between nodes under the new mapping plus the balancing
// step, as `dlbkit phases --data STEM` balances it.
TEST(CliAdviseData, RanksEveryPhaseStrategyByTheNextPhaseOfOne) {
  const std::vector<std::string> inputs = {"--data", kBlocks, "-t", "complete:4", "-c", "ipsc2"};
  const json advice = cli_json(with({"advise"}, with(inputs, {"--json"})));
  ASSERT_FALSE(advice["ranking"].empty());
  EXPECT_TRUE(advice["failed"].empty()) << advice["failed"].dump();
  EXPECT_EQ(advice["inputs"]["replay"], false);
  EXPECT_EQ(advice["inputs"]["phase"], 0);
  EXPECT_EQ(advice["inputs"]["objects"], 9);
  EXPECT_DOUBLE_EQ(advice["optimal"].get<double>(), 2.0);         // 8 s over 4 ranks
  // rank 1's 4 s, and the messages the data's mapping puts between ranks at ipsc2's costs
  EXPECT_GT(advice["nobal_makespan"].get<double>(), 4.0);
  EXPECT_LT(advice["nobal_makespan"].get<double>(), 4.01);
  expect_every_strategy_once(advice, inputs);
  for (const json& row : advice["ranking"]) {
    SCOPED_TRACE(row.dump());
    const json phases = phases_of(row, inputs, {"--json"});
    const json& step = phases["phases"][0];
    EXPECT_DOUBLE_EQ(row["predicted_makespan"].get<double>(), step["max_load_after"].get<double>() +
                                                                  step["communication_seconds_after"].get<double>() +
                                                                  step["protocol_seconds"].get<double>() +
                                                                  step["migration_seconds"].get<double>());
    EXPECT_EQ(row["communication_seconds"], step["communication_seconds_after"]);
    if (row["strategy"] == "none") {  // the data's own mapping puts messages between ranks: ipsc2 prices them
      EXPECT_GT(row["communication_seconds"].get<double>(), 0.0);
    }
    EXPECT_EQ(row["predicted_phase_seconds"], row["predicted_makespan"]);
    EXPECT_EQ(row["objects_migrated"], step["objects_migrated"]);
    EXPECT_EQ(row["messages"], step["messages"]);
    EXPECT_EQ(row["imbalance_after"], step["imbalance_after"]);
    EXPECT_EQ(row["imbalance_lower_bound"], step["imbalance_lower_bound"]);
    EXPECT_GE(row["imbalance_after"].get<double>(), row["imbalance_lower_bound"].get<double>());
  }
  EXPECT_LT(advice["ranking"][0]["predicted_makespan"].get<double>(), 2.01);  // a strategy balances it
  // The table says the bound once: the heaviest object, 2 s, over the mean 2 s.
  EXPECT_NE(run_cli(with({"advise"}, inputs)).out.find("no mapping has I below 0.000"), std::string::npos);
}

// With a memory group each row is `dlbkit phases --memory-group`'s; hierarchical, which plans
// each node's memory alone, fails with phases' reason.
TEST(CliAdviseData, AMemoryGroupIsPhasesOne) {
  const std::string toy = std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem";
  const std::vector<std::string> inputs = {"--data", toy, "-t", "complete:4", "-c", "ipsc2",
                                           "--memory-bound", "1.45e10", "--memory-group", "2"};
  const json advice = cli_json(with({"advise"}, with(inputs, {"--json"})));
  EXPECT_EQ(advice["inputs"]["memory_group"], 2);
  ASSERT_FALSE(advice["ranking"].empty());
  for (const json& row : advice["ranking"]) {
    SCOPED_TRACE(row.dump());
    const json step = phases_of(row, inputs, {"--json"})["phases"][0];
    EXPECT_EQ(row["objects_migrated"], step["objects_migrated"]);
    EXPECT_EQ(row["imbalance_after"], step["imbalance_after"]);
  }
  ASSERT_FALSE(advice["failed"].empty());
  for (const json& row : advice["failed"]) {
    EXPECT_EQ(row["strategy"], "hierarchical");
    EXPECT_NE(row["error"].get<std::string>().find("memory group 2 with phase strategy hierarchical"),
              std::string::npos)
        << row.dump();
  }
}

// Two or more phases: every phase replayed, as `dlbkit phases --data STEM --replay` runs it;
// --phase K predicts the next phase of K alone.
TEST(CliAdviseData, ReplaysEveryPhaseOfTheData) {
  const std::string stem = three_phases("cli-advise-replay");
  const std::vector<std::string> inputs = {"--data", stem, "-t", "hypercube:2", "-c", "ipsc2"};
  const json advice = cli_json(with({"advise"}, with(inputs, {"--json"})));
  EXPECT_TRUE(advice["failed"].empty()) << advice["failed"].dump();
  EXPECT_EQ(advice["inputs"]["replay"], true);
  EXPECT_EQ(advice["inputs"]["phases"], 3);
  EXPECT_TRUE(advice["inputs"]["phase"].is_null());
  expect_every_strategy_once(advice, inputs);
  for (const json& row : advice["ranking"]) {
    SCOPED_TRACE(row.dump());
    const json phases = phases_of(row, inputs, {"--replay", "--json"});
    EXPECT_DOUBLE_EQ(row["predicted_makespan"].get<double>(),
                     phases["application_seconds"].get<double>() + phases["balancing_seconds"].get<double>());
    EXPECT_DOUBLE_EQ(row["predicted_phase_seconds"].get<double>(), phases["mean_phase_seconds"].get<double>());
    EXPECT_EQ(row["objects_migrated"], phases["objects_migrated"]);
    EXPECT_EQ(row["messages"], phases["messages"]);
    if (row["strategy"] == "none") {
      EXPECT_EQ(row["predicted_makespan"], phases["unbalanced_seconds"]);
    }
  }
  // Balancing pays: node 0 holds 0.08 s of 0.146 s in phases 0 and 1.
  EXPECT_LT(advice["ranking"][0]["predicted_makespan"].get<double>(), 0.9 * advice["nobal_makespan"].get<double>());

  // --every and --threshold reach the replay.
  const json every = cli_json(with({"advise"}, with(inputs, {"--every", "2", "--threshold", "0.5", "--json"})));
  const json& top = every["ranking"][0];
  const json replayed = phases_of(top, inputs, {"--replay", "--every", "2", "--threshold", "0.5", "--json"});
  EXPECT_DOUBLE_EQ(top["predicted_makespan"].get<double>(),
                   replayed["application_seconds"].get<double>() + replayed["balancing_seconds"].get<double>());

  const json one = cli_json(with({"advise"}, with(inputs, {"--phase", "2", "--json"})));
  EXPECT_EQ(one["inputs"]["replay"], false);
  EXPECT_EQ(one["inputs"]["phase"], 2);
  const json& first = one["ranking"][0];
  const json balanced = phases_of(first, inputs, {"--phase", "2", "--json"});
  EXPECT_DOUBLE_EQ(first["predicted_makespan"].get<double>(),
                   balanced["phases"][0]["max_load_after"].get<double>() + balanced["balancing_seconds"].get<double>());
  fs::remove_all(fs::path(stem).parent_path());
}

// --as-protocol: each row whose strategy runs its rank protocol for its parameters is what
// `dlbkit phases --replay --as-protocol` gives; the others are the rows without it.
TEST(CliAdviseData, AsProtocolPricesTheStrategiesThatRunOneAsTheyRun) {
  const std::string stem = three_phases("cli-advise-protocol");
  const std::vector<std::string> inputs = {"--data", stem, "-t", "hypercube:2", "-c", "ipsc2"};
  const json plain = cli_json(with({"advise"}, with(inputs, {"--json"})));
  const json advice = cli_json(with({"advise"}, with(inputs, {"--as-protocol", "--json"})));
  EXPECT_EQ(advice["inputs"]["as_protocol"], true);
  EXPECT_EQ(plain["inputs"]["as_protocol"], false);
  const auto key = [](const json& row) { return row["strategy"].dump() + row["params"].dump(); };
  std::map<std::string, json> before;
  for (const json& row : plain["ranking"]) before[key(row)] = row;
  std::size_t protocols = 0;
  for (const json& row : advice["ranking"]) {
    SCOPED_TRACE(row.dump());
    std::map<std::string, std::string> params;
    for (const auto& [name, value] : row["params"].items())
      params[name] = value.is_string() ? value.get<std::string>() : value.dump();
    const auto choice = dlbkit::builtin_phase_strategies().configure(row["strategy"].get<std::string>(), params);
    if (!dlbkit::runnable_rank_protocol(choice, {})) {  // no protocol: as without the flag
      json same = row, old = before.at(key(row));
      same.erase("rank");
      old.erase("rank");
      EXPECT_EQ(same, old);
      continue;
    }
    ++protocols;
    const json replayed = phases_of(row, inputs, {"--replay", "--as-protocol", "--json"});
    EXPECT_DOUBLE_EQ(row["predicted_phase_seconds"].get<double>(), replayed["mean_phase_seconds"].get<double>());
    EXPECT_EQ(row["messages"], replayed["messages"]);
  }
  EXPECT_GE(protocols, 6u);  // diffusion, dimension_exchange, sos, chebyshev, hbm, hierarchical, tempered
  fs::remove_all(fs::path(stem).parent_path());
}

TEST(CliAdviseData, SameInputsSameOutputWhateverTheJobs) {
  const std::vector<std::string> args = {"advise", "--data", kBlocks, "-t", "complete:4", "-c", "ipsc2"};
  for (const std::vector<std::string>& base : {args, with(args, {"--json"})}) {
    const auto one = run_cli(with(base, {"--jobs", "1"}));
    const auto two = run_cli(with(base, {"--jobs", "2"}));
    ASSERT_EQ(one.status, 0) << one.err;
    EXPECT_EQ(one.out, two.out);
    EXPECT_NE(one.out.find("refine"), std::string::npos);
  }
}

TEST(CliAdviseData, BadInputIsOneLine) {
  const std::string stem = three_phases("cli-advise-bad");
  const std::vector<std::string> data = {"advise", "--data", kBlocks, "-t", "complete:4", "-c", "ipsc2"};
  expect_usage_error(with(data, {"-w", "uts"}), {"more than one of", "--data"});
  expect_usage_error({"advise", "-t", "complete:4", "-c", "ipsc2"}, {"none of", "--data"});
  for (const std::vector<std::string>& option :
       {std::vector<std::string>{"--execution", "lifo"}, {"--workload-param", "a=1"}, {"--max-events", "10"},
        {"--max-seconds", "1"}})
    expect_usage_error(with(data, option), {option[0], "with --data", "-w/--workload or --trace"});
  for (const std::vector<std::string>& option :
       {std::vector<std::string>{"--phase", "0"}, {"--every", "2"}, {"--threshold", "1"}, {"--memory-bound", "10"},
        {"--memory-group", "2"}, {"--migration-cost", "1us"}, {"--migration-byte-cost", "1ns"}, {"--as-protocol"}})
    expect_usage_error(with({"advise", "-w", "busy", "-t", "complete:2", "-c", "ideal"}, option),
                       {option[0], "without --data"});
  expect_usage_error(with(data, {"--every", "2"}), {"--every", "has one phase", "two or more phases"});
  expect_usage_error({"advise", "--data", stem, "-t", "hypercube:2", "-c", "ipsc2", "--phase", "1", "--threshold", "1"},
                     {"--threshold", "--phase balances one phase"});
  expect_usage_error({"advise", "--data", kBlocks, "-t", "complete:3", "-c", "ipsc2"}, {"3 nodes", "4 ranks"});
  expect_usage_error(with(data, {"--phase", "7"}), {"no phase 7"});
  expect_usage_error(with(data, {"--memory-bound", "-1"}), {"--memory-bound", "-1"});
  expect_usage_error(with(data, {"--memory-group", "0"}), {"--memory-group '0' is not accepted"});
  expect_usage_error(with(data, {"--memory-group", "2", "--as-protocol"}),
                     {"--as-protocol is given with --memory-group 2; accepted: one of the two"});
  expect_usage_error(with(data, {"--migration-cost", "fast"}), {"--migration-cost"});
  expect_usage_error({"advise", "--data", "", "-t", "complete:4", "-c", "ipsc2"}, {"--data"});
  expect_usage_error({"advise", "--data", kBlocks + "-none", "-t", "complete:4", "-c", "ipsc2"},
                     {kBlocks + "-none.0.json"});
  expect_usage_error({"advise", "--data", kBlocks, "-t", "complete:4"}, {"--cost"});
  fs::remove_all(fs::path(stem).parent_path());
}
