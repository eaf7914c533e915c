// dlbkit advise: the ranking holds every strategy that accepts the topology (and only those),
// best first, and each row is what `dlbkit simulate` predicts for the same strategy and
// parameters; bad input is the same one-line error as simulate's.

#include "../support/cli_json.hpp"
#include "../support/command.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;
using dlbkit::test::param_args;
using dlbkit::test::run_cli;
using dlbkit::test::with;
using nlohmann::json;

// A UTS tree of a few hundred nodes: every run takes milliseconds.
const std::string kTree = "tree=type=geometric,shape=fixed,b0=4,depth=5,seed=19";

}  // namespace

TEST(CliAdvise, RanksEveryStrategyThatAcceptsTheTopologyAsSimulatePredictsIt) {
  const std::vector<std::string> inputs = {"-t", "hypercube:3", "-c", "ipsc2", "-w", "uts", "--workload-param", kTree};
  const json advice = cli_json(with({"advise"}, with(inputs, {"--json"})));
  const json& ranking = advice["ranking"];
  ASSERT_TRUE(ranking.is_array());
  ASSERT_FALSE(ranking.empty());
  EXPECT_TRUE(advice["failed"].empty()) << advice["failed"].dump();

  // Best first.
  for (std::size_t i = 1; i < ranking.size(); ++i)
    EXPECT_LE(ranking[i - 1]["predicted_makespan"].get<double>(), ranking[i]["predicted_makespan"].get<double>()) << i;

  // Each strategy is either ranked or not run, and not run only when simulate refuses it
  // on this topology; no strategy and parameters twice.
  std::set<std::string> ranked, not_run;
  std::set<std::string> rows;
  for (const json& row : ranking) {
    ranked.insert(row["strategy"].get<std::string>());
    EXPECT_TRUE(rows.insert(row["strategy"].dump() + row["params"].dump()).second) << row.dump();
  }
  for (const json& row : advice["not_run"]) not_run.insert(row["strategy"].get<std::string>());
  EXPECT_TRUE(ranked.count("none")) << "NOBAL is the reference row";
  EXPECT_TRUE(not_run.count("nna")) << "nna runs on rings only";
  for (const dlbkit::StrategyInfo& info : dlbkit::builtin_strategies().all()) {
    SCOPED_TRACE(info.name);
    EXPECT_NE(ranked.count(info.name), not_run.count(info.name));
    const auto simulated = run_cli(with({"simulate", "-s", info.name}, with(inputs, {"--json"})));
    EXPECT_EQ(simulated.status, ranked.count(info.name) ? 0 : 2) << simulated.err;
    if (simulated.status != 0) continue;
    // The strategy's defaults are among its rows.
    const json defaults = json::parse(simulated.out)["inputs"]["strategy"]["params"];
    bool found = false;
    for (const json& row : ranking) found = found || (row["strategy"] == info.name && row["params"] == defaults);
    EXPECT_TRUE(found) << "no row with the defaults " << defaults.dump();
  }

  // The first row, the last and NOBAL's, rerun by simulate with the same parameters: the same figures.
  for (const json& row : {ranking.front(), ranking.back()}) {
    SCOPED_TRACE(row.dump());
    const json simulated =
        cli_json(with({"simulate", "-s", row["strategy"].get<std::string>()}, with(param_args(row["params"]), with(inputs, {"--json"}))));
    EXPECT_EQ(simulated["makespan"], row["predicted_makespan"]);
    EXPECT_EQ(simulated["tasks_transferred"], row["tasks_transferred"]);
    EXPECT_EQ(simulated["messages"]["total"], row["messages"]);
    EXPECT_EQ(simulated["nobal_makespan"], advice["nobal_makespan"]);
    EXPECT_EQ(simulated["speedup"], row["speedup"]);
    EXPECT_DOUBLE_EQ(simulated["optimal"].get<double>() / simulated["makespan"].get<double>(),
                     row["efficiency"].get<double>());
  }
  for (const json& row : ranking) {
    if (row["strategy"] == "none") {
      EXPECT_EQ(row["predicted_makespan"], advice["nobal_makespan"]);
    }
  }
}

TEST(CliAdvise, ARunStoppedAtALimitIsListedAsFailedAndTheOthersRanked) {
  // NOBAL on this tree takes about 4000 events; strategies that send many messages take more.
  const std::vector<std::string> args = {"advise", "-t", "hypercube:3", "-c", "ipsc2", "-w", "uts", "--workload-param",
                                         kTree, "--max-events", "6000", "--json"};
  const json advice = cli_json(args);
  ASSERT_FALSE(advice["failed"].empty());
  ASSERT_FALSE(advice["ranking"].empty());
  for (const json& row : advice["failed"]) {
    EXPECT_NE(row["error"].get<std::string>().find("6000 events"), std::string::npos) << row.dump();
    for (const json& ranked : advice["ranking"])
      EXPECT_FALSE(ranked["strategy"] == row["strategy"] && ranked["params"] == row["params"]) << row.dump();
  }
  // A limit NOBAL itself reaches fails the command.
  const auto o = run_cli({"advise", "-t", "hypercube:3", "-c", "ipsc2", "-w", "uts", "--workload-param", kTree,
                          "--max-events", "100"});
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err.rfind("dlbkit: failed: ", 0), 0u) << o.err;
}

TEST(CliAdvise, SameInputsSameOutputWhateverTheJobs) {
  const std::vector<std::string> args = {"advise", "-t", "complete:2", "-c", "ideal", "-w", "busy",
                                         "--workload-param", "total_load=2000"};
  const auto one = run_cli(with(args, {"--jobs", "1"}));
  const auto two = run_cli(with(args, {"--jobs", "2"}));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_NE(one.out.find("rank"), std::string::npos);
  const auto json_one = run_cli(with(args, {"--jobs", "1", "--json"}));
  const auto json_two = run_cli(with(args, {"--jobs", "2", "--json"}));
  EXPECT_EQ(json_one.out, json_two.out);
}

TEST(CliAdvise, RanksARecordedRun) {
  const std::string trace = dlbkit::test::temp_path("advise-uts.trace").string();
  const json real = cli_json({"run", "--app", "uts", "--app-param", kTree, "--workers", "2", "--no-sequential",
                              "--record", trace, "--json"});
  ASSERT_TRUE(std::filesystem::exists(trace));
  const json advice = cli_json({"advise", "--trace", trace, "-t", "complete:2", "-c", "ideal", "--json"});
  ASSERT_FALSE(advice["ranking"].empty());
  EXPECT_EQ(advice["inputs"]["workload"]["name"], "trace");
  // The same as -w trace:PATH.
  EXPECT_EQ(advice, cli_json({"advise", "-w", "trace:" + trace, "-t", "complete:2", "-c", "ideal", "--json"}));
  const json simulated = cli_json({"simulate", "-s", "none", "-t", "complete:2", "-c", "ideal", "-w", "trace:" + trace,
                                   "--json"});
  EXPECT_EQ(simulated["tasks"], real["tasks_executed"]);
  EXPECT_EQ(advice["nobal_makespan"], simulated["makespan"]);
  std::filesystem::remove(trace);
}

TEST(CliAdvise, BadInputIsSimulatesError) {
  const std::vector<std::string> good = {"-c", "ideal", "-w", "uts", "--workload-param", kTree};
  expect_usage_error(with({"advise", "-t", "complete:2", "--trace", "x.trace"}, good), {"--trace", "--workload"});
  expect_usage_error({"advise", "-t", "complete:2", "-c", "ideal"}, {"--trace", "--workload"});
  expect_usage_error({"advise", "-t", "complete:2", "-w", "uts"}, {"--cost"});
  // The same line as simulate's for the same bad value.
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"-t", "hypercube:x", "-c", "ideal", "-w", "uts"},
        std::vector<std::string>{"-t", "complete:2", "-c", "nosuch", "-w", "uts"},
        std::vector<std::string>{"-t", "complete:2", "-c", "ideal", "-w", "nosuch"},
        std::vector<std::string>{"-t", "complete:2", "-c", "ideal", "-w", "uts", "--workload-param", "node_time=-1"},
        std::vector<std::string>{"-t", "complete:2", "-c", "ideal", "-w", "uts", "--seed", "0x10"}}) {
    std::string advise = expect_usage_error(with({"advise"}, bad), {});
    const std::string simulate = expect_usage_error(with({"simulate", "-s", "none"}, bad), {});
    // An option's own check names the command's help.
    if (const auto at = advise.find("dlbkit advise --help"); at != std::string::npos)
      advise.replace(at, 13, "dlbkit simulate");
    EXPECT_EQ(advise, simulate);
  }
  const std::string missing = dlbkit::test::temp_path("no-such.trace").string();
  expect_usage_error({"advise", "-t", "complete:2", "-c", "ideal", "--trace", missing}, {missing});
}

namespace {

// A search as an ordered JSON: {name: {"axes": [[param, [values]], ...], "runs": n}}.
json search_entry(json axes, long long runs) { return {{"axes", std::move(axes)}, {"runs", runs}}; }

// The search every component of `all` declares: its parameters with a search, in declaration
// order, each with its default first.
template <class Info>
json declared_search(const std::vector<Info>& all) {
  json out = json::object();
  for (const Info& info : all) {
    json axes = json::array();
    long long runs = 1;
    for (const dlbkit::ParamSpec& spec : info.params) {
      if (spec.search.empty()) continue;
      json values = json::array({spec.default_value});
      for (const std::string& v : spec.search) values.push_back(v);
      runs *= static_cast<long long>(values.size());
      axes.push_back({spec.name, values});
    }
    out[info.name] = search_entry(axes, runs);
  }
  return out;
}

// docs/cli.md's table under `header`, in the same form: every row names its strategies, its
// values ("`p` v1, v2 x `q` w1, w2", or "defaults") and its runs ("4", "3 each").
json documented_search(const std::string& header) {
  std::ifstream in(DLBKIT_TEST_DATA "/../../docs/cli.md");
  EXPECT_TRUE(in) << "docs/cli.md not found";
  json documented = json::object();
  bool inside = false;
  const std::regex name("`([a-z_0-9]+)`");
  for (std::string line; std::getline(in, line);) {
    if (line == header) inside = true;
    else if (inside && !line.starts_with("|")) break;
    if (!inside || line == header || line.starts_with("|---")) continue;
    const auto cell1 = line.find('|', 1), cell2 = line.find('|', cell1 + 1);
    const std::string strategies = line.substr(1, cell1 - 1), values = line.substr(cell1 + 1, cell2 - cell1 - 1);
    json axes = json::array();
    std::size_t at = 0;
    while ((at = values.find('`', at)) != std::string::npos) {  // each `param` and the values after it
      const auto end = values.find('`', at + 1);
      const std::string param = values.substr(at + 1, end - at - 1);
      const auto next = std::min(values.find(" x ", end), values.size());
      std::string list = values.substr(end + 1, next - end - 1);
      json vs = json::array();
      for (std::size_t from = 0; from < list.size();) {
        const auto comma = std::min(list.find(',', from), list.size());
        std::string v = list.substr(from, comma - from);
        v.erase(0, v.find_first_not_of(' '));
        v.erase(v.find_last_not_of(' ') + 1);
        vs.push_back(v);
        from = comma + 1;
      }
      axes.push_back({param, vs});
      at = next;
    }
    const long long runs = std::stoll(line.substr(cell2 + 1));
    for (auto it = std::sregex_iterator(strategies.begin(), strategies.end(), name); it != std::sregex_iterator();
         ++it) {
      const std::string strategy = (*it)[1].str();
      EXPECT_FALSE(documented.contains(strategy)) << strategy << " twice in the table " << header;
      documented[strategy] = search_entry(axes, runs);
    }
  }
  EXPECT_FALSE(documented.empty()) << "no table '" << header << "' in docs/cli.md";
  return documented;
}

// A search as advise's JSON writes it: {name: {param: [values]}}, the names without one left out.
json as_written(const json& search) {
  json out = json::object();
  for (const auto& [component, entry] : search.items())
    for (const json& axis : entry["axes"]) out[component][axis[0].get<std::string>()] = axis[1];
  return out;
}

}  // namespace

// docs/cli.md's tables of the search are the parameters' declarations, in their order (the first
// varies slowest), with their runs, and advise runs them: a value changed in one place only
// fails here.
TEST(CliAdvise, TheSearchIsTheOneDeclaredAndDocumented) {
  const json tasks = declared_search(dlbkit::builtin_strategies().all());
  const json phases = declared_search(dlbkit::builtin_phase_strategies().all());
  EXPECT_EQ(documented_search("| strategy | values tried | runs |"), tasks);
  EXPECT_EQ(documented_search("| phase strategy | values tried | runs |"), phases);
  const json advice = cli_json({"advise", "-t", "complete:2", "-c", "ideal", "-w", "busy", "--workload-param",
                               "total_load=2000", "--json"});
  EXPECT_EQ(advice["search"], as_written(tasks));
  const json on_data = cli_json({"advise", "--data", DLBKIT_TEST_DATA "/vt/synthetic-dataset-blocks", "-t",
                                 "complete:4", "-c", "ideal", "--json"});
  EXPECT_EQ(on_data["search"], as_written(phases));
}

// Each value searched is one its parameter accepts, other than the default and the other values.
TEST(CliAdvise, EverySearchedValueIsAcceptedAndNew) {
  const auto check = [](const auto& registry) {
    for (const auto& info : registry.all())
      for (const dlbkit::ParamSpec& spec : info.params) {
        SCOPED_TRACE(info.name + " " + spec.name);
        std::set<std::string> values = {spec.default_value};
        for (const std::string& value : spec.search) {
          EXPECT_NO_THROW(registry.configure(info.name, {{spec.name, value}})) << value;
          EXPECT_TRUE(values.insert(value).second) << value << " twice";
        }
      }
  };
  check(dlbkit::builtin_strategies());
  check(dlbkit::builtin_phase_strategies());
}

// dlbkit list names the values advise tries beside each parameter's accepted ones.
TEST(CliAdvise, ListNamesTheValuesTried) {
  const auto strategies = run_cli({"list", "strategies"});
  ASSERT_EQ(strategies.status, 0) << strategies.err;
  EXPECT_NE(strategies.out.find("; dlbkit advise also tries 0.5, 0.7)"), std::string::npos) << strategies.out;
  EXPECT_NE(strategies.out.find("(true or false; dlbkit advise also tries true)"), std::string::npos) << strategies.out;
  const auto phases = run_cli({"list", "phase-strategies"});
  ASSERT_EQ(phases.status, 0) << phases.err;
  EXPECT_NE(phases.out.find("dlbkit advise also tries Clustering)"), std::string::npos) << phases.out;
}

// A cost model calibrated on an engine (checks = engines) describes workers that run their
// newest task first: simulate and advise say so on stderr when they would run fcfs only by
// default, and never when --execution is given or the model is a preset.
TEST(CliAdvise, AnEnginesCostModelWithDefaultFcfsIsWarned) {
  const std::string cost = dlbkit::test::temp_path("engines-cost.json").string();
  std::ofstream(cost) << json{{"name", "engine-like"},   {"loop_time", "1us"},   {"poll_interval", "20us"},
                              {"poll_cost", "50ns"},      {"send_overhead", "100ns"}, {"handle_cost", "20ns"},
                              {"latency", "500ns"},       {"per_hop", "0ns"},     {"per_task", "10ns"},
                              {"tasks_per_message", 1000000}, {"transfer", "fixed"}, {"checks", "engines"}}
                             .dump();
  const std::vector<std::string> simulate = {"simulate", "-s", "work_stealing", "-t", "hypercube:1", "-w", "uts",
                                             "--workload-param", kTree};
  const auto warned = [](const dlbkit::test::Outcome& o) {
    EXPECT_EQ(o.status, 0) << o.err;
    return o.err.find("--execution lifo") != std::string::npos;
  };
  EXPECT_TRUE(warned(run_cli(with(simulate, {"-c", "file:" + cost}))));
  EXPECT_FALSE(warned(run_cli(with(simulate, {"-c", "file:" + cost, "--execution", "lifo"}))));
  EXPECT_FALSE(warned(run_cli(with(simulate, {"-c", "file:" + cost, "--execution", "fcfs"}))));
  EXPECT_FALSE(warned(run_cli(with(simulate, {"-c", "ipsc2"}))));
  EXPECT_TRUE(warned(run_cli({"advise", "-t", "hypercube:1", "-w", "uts", "--workload-param", kTree, "-c",
                              "file:" + cost, "--json"})));
  std::filesystem::remove(cost);
}
