// End-to-end tests of the dlbkit command-line tool: each test runs the built binary
// (DLBKIT_CLI) through the shell and checks its exit status, its stdout and its stderr.
// Bad input must give exit status 2, nothing on stdout and exactly one stderr line
// "dlbkit: error: ..." that names the bad value.

#include "../support/command.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#ifndef DLBKIT_CLI
#error "DLBKIT_CLI must hold the path of the dlbkit binary"
#endif
#ifndef DLBKIT_TEST_DATA
#error "DLBKIT_TEST_DATA must hold the path of tests/data"
#endif

namespace {

using nlohmann::json;

using Output = dlbkit::test::Outcome;
using dlbkit::test::expect_usage_error;
using dlbkit::test::lines_of;
using dlbkit::test::shell_quote;
using dlbkit::test::with;

Output run(const std::vector<std::string>& args) { return dlbkit::test::run_cli(args); }

/// Parses stdout as one JSON document; a parse error fails the test.
json parse_json(const Output& o) {
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  try {
    return json::parse(o.out);
  } catch (const json::exception& e) {
    ADD_FAILURE() << "stdout is not JSON (" << e.what() << "):\n" << o.out;
    return json();
  }
}

std::string data(const std::string& relative) { return std::string(DLBKIT_TEST_DATA) + "/" + relative; }

const std::vector<std::string> kRidOnCube = {"simulate", "-s", "rid", "-t", "hypercube:5", "-g", "100", "--seed", "1", "--json"};

/// A JSON parameter value as command-line text: strings as they are, numbers as JSON writes them.
std::string as_text(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

/// The command line that repeats a run from the "inputs" object of its JSON.
std::vector<std::string> command_from_inputs(const json& in) {
  std::vector<std::string> args = {"simulate", "--json", "-t", in.at("topology").get<std::string>(),
                                   "-s", in.at("strategy").at("name").get<std::string>(),
                                   "-w", in.at("workload").at("name").get<std::string>(),
                                   "-c", in.at("cost_model").at("name").get<std::string>(),
                                   "--seed", std::to_string(in.at("seed").get<std::uint64_t>()),
                                   "--execution", in.at("execution").get<std::string>()};
  for (const auto& [name, value] : in.at("strategy").at("params").items()) {
    args.push_back("-p");
    args.push_back(name + "=" + as_text(value));
  }
  for (const auto& [name, value] : in.at("workload").at("params").items()) {
    args.push_back("--workload-param");
    args.push_back(name + "=" + as_text(value));
  }
  for (const auto& [name, value] : in.at("cost_model").items()) {
    if (name == "name") continue;
    args.push_back("--cost-param");
    args.push_back(name + "=" + as_text(value));
  }
  return args;
}

/// Reruns a run from its own JSON inputs and checks that it is the same run.
void expect_rerun_reproduces(const std::vector<std::string>& first_args) {
  const json first = parse_json(run(first_args));
  ASSERT_TRUE(first.contains("inputs"));
  const std::vector<std::string> again_args = command_from_inputs(first["inputs"]);
  std::string shown;
  for (const auto& a : again_args) shown += " " + a;
  SCOPED_TRACE("rerun: dlbkit" + shown);
  const json again = parse_json(run(again_args));
  ASSERT_TRUE(again.contains("makespan"));
  EXPECT_EQ(again["inputs"], first["inputs"]);
  EXPECT_EQ(again["makespan"].get<double>(), first["makespan"].get<double>());  // bit for bit
  EXPECT_EQ(again["nobal_makespan"], first["nobal_makespan"]);
  EXPECT_EQ(again["tasks_transferred"], first["tasks_transferred"]);
  EXPECT_EQ(again["messages"], first["messages"]);
  EXPECT_EQ(again["events"], first["events"]);
}

// ---------------------------------------------------------------------------------- list

TEST(CliList, StrategiesNamesNoneAndRidWithTheirParameters) {
  const Output o = run({"list", "strategies"});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  bool none = false, rid = false;
  for (const std::string& line : lines_of(o.out)) {
    none = none || line.rfind("  none ", 0) == 0;
    rid = rid || line.rfind("  rid ", 0) == 0;
  }
  EXPECT_TRUE(none) << o.out;
  EXPECT_TRUE(rid) << o.out;
  // rid's parameters with their defaults and accepted ranges.
  for (const char* p : {"l_low=auto", "l_threshold=1", "delta_min=1", "u=0.9", "retry_on_update=false"})
    EXPECT_NE(o.out.find(p), std::string::npos) << p << " missing:\n" << o.out;
  EXPECT_NE(o.out.find("[1e-09, 1]"), std::string::npos) << "u's range missing:\n" << o.out;
  // Only the section asked for.
  EXPECT_EQ(o.out.find("workloads"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("topologies"), std::string::npos) << o.out;
}

TEST(CliList, WithoutArgumentPrintsEverySection) {
  const Output o = run({"list"});
  ASSERT_EQ(o.status, 0) << o.err;
  for (const char* s : {"strategies", "workloads", "cost models", "topologies",  // section titles
                        "rid", "artificial", "granularity=100", "ipsc2", "ideal", "hypercube:d", "file:PATH"})
    EXPECT_NE(o.out.find(s), std::string::npos) << s << " missing:\n" << o.out;
}

TEST(CliList, UnknownSectionFails) {
  expect_usage_error({"list", "nonsense"}, {"nonsense", "strategies"});
}

// ------------------------------------------------------------------------------ topology

TEST(CliTopology, HypercubeJson) {
  const json j = parse_json(run({"topology", "hypercube:5", "--json"}));
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.value("nodes", 0), 32);
  EXPECT_EQ(j.value("edges", 0), 80);
  EXPECT_EQ(j.value("diameter", 0), 5);
  EXPECT_EQ(j.value("bipartite", false), true);
  EXPECT_EQ(j.value("spec", ""), "hypercube:5");
  EXPECT_EQ(j["degree"], (json{{"min", 5}, {"max", 5}}));
  EXPECT_FALSE(j.contains("neighbors"));
}

TEST(CliTopology, OddGraphO3IsPetersen) {
  const json j = parse_json(run({"topology", "odd:3", "--json"}));
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.value("nodes", 0), 10);
  EXPECT_EQ(j.value("edges", 0), 15);
  EXPECT_EQ(j.value("diameter", 0), 2);
  EXPECT_EQ(j.value("bipartite", true), false);
  EXPECT_EQ(j["degree"], (json{{"min", 3}, {"max", 3}}));
  // The same figures from the Petersen graph given as a file.
  const json f = parse_json(run({"topology", "file:" + data("topology/petersen.txt"), "--json"}));
  for (const char* key : {"nodes", "edges", "diameter", "bipartite", "degree"}) EXPECT_EQ(f[key], j[key]) << key;
}

// A file path is user text that need not be UTF-8: --json prints it with U+FFFD in place of
// the bad byte, instead of failing with exit status 1.
TEST(CliTopology, JsonOfAPathThatIsNotUtf8) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "dlbkit-cli-\xff.txt";
  std::filesystem::copy_file(data("topology/petersen.txt"), file, std::filesystem::copy_options::overwrite_existing);
  const json j = parse_json(run({"topology", "file:" + file.string(), "--json"}));
  std::filesystem::remove(file);
  EXPECT_EQ(j.value("nodes", 0), 10);
  EXPECT_NE(j.value("spec", "").find("dlbkit-cli-\xef\xbf\xbd.txt"), std::string::npos) << j.dump();
}

TEST(CliTopology, NeighborsInBitOrder) {
  // Text: node 0's five neighbours, in the order of the bit flipped.
  const Output o = run({"topology", "hypercube:5", "--neighbors"});
  ASSERT_EQ(o.status, 0) << o.err;
  const auto lines = lines_of(o.out);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "  0: 1 2 4 8 16"), lines.end()) << o.out;
  EXPECT_NE(std::find(lines.begin(), lines.end(), "  31: 30 29 27 23 15"), lines.end()) << o.out;

  // JSON: every node's list, neighbour i differing in bit i.
  const json j = parse_json(run({"topology", "hypercube:5", "--json", "--neighbors"}));
  ASSERT_TRUE(j.contains("neighbors"));
  ASSERT_EQ(j["neighbors"].size(), 32u);
  EXPECT_EQ(j["neighbors"][0], (json{1, 2, 4, 8, 16}));
  for (unsigned v = 0; v < 32; ++v) {
    ASSERT_EQ(j["neighbors"][v].size(), 5u) << v;
    for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(j["neighbors"][v][i].get<unsigned>(), v ^ (1u << i)) << v << " " << i;
  }
}

TEST(CliTopology, BadSpecsAreOneLineErrorsNamingTheValue) {
  for (const char* spec : {"hypercube:0", "hypercube:40", "torus:1x0", "ring:2"}) {
    const std::string line = expect_usage_error({"topology", spec}, {spec});
    EXPECT_NE(line.find("accepted"), std::string::npos) << line;
  }
  expect_usage_error({"topology", "nonsense:3"}, {"nonsense:3"});
}

TEST(CliTopology, BadFilesAreOneLineErrorsNamingTheFileAndTheProblem) {
  expect_usage_error({"topology", "file:" + data("topology/bad_self_loop.txt")},
                     {"bad_self_loop.txt", "self-loop", "2 2"});
  expect_usage_error({"topology", "--json", "file:" + data("topology/bad_disconnected.txt")},
                     {"bad_disconnected.txt", "disconnected"});
  expect_usage_error({"topology", "file:" + data("topology/no_such_file.txt")}, {"no_such_file.txt"});
}

// ------------------------------------------------------------------------------ simulate

TEST(CliSimulate, JsonReportsTheFiguresAndTheInputs) {
  const json j = parse_json(run(kRidOnCube));
  ASSERT_TRUE(j.is_object());
  for (const char* key : {"makespan", "optimal", "nobal_makespan", "speedup", "pi", "tasks", "tasks_transferred",
                          "messages", "events", "events_per_second", "inputs"})
    EXPECT_TRUE(j.contains(key)) << key;
  ASSERT_TRUE(j["messages"].is_object());
  EXPECT_TRUE(j["messages"].contains("total"));
  const json& in = j["inputs"];
  ASSERT_TRUE(in.is_object());
  EXPECT_EQ(in.value("topology", ""), "hypercube:5");
  EXPECT_EQ(in["strategy"]["name"], "rid");
  ASSERT_TRUE(in["strategy"]["params"].is_object());
  EXPECT_EQ(in["strategy"]["params"].size(), 5u);
  EXPECT_EQ(in["strategy"]["params"]["u"], 0.9);
  EXPECT_EQ(in["workload"]["name"], "artificial");
  EXPECT_EQ(in["workload"]["params"]["granularity"], 100);
  EXPECT_EQ(in["cost_model"]["name"], "ipsc2");
  EXPECT_EQ(in["seed"], 1);

  EXPECT_EQ(j["tasks"], 3200);
  EXPECT_GT(j["speedup"].get<double>(), 1.2);
  const double makespan = j["makespan"].get<double>(), optimal = j["optimal"].get<double>();
  EXPECT_GE(makespan, optimal);
  EXPECT_LE(makespan, j["nobal_makespan"].get<double>());
  EXPECT_NEAR(j["speedup"].get<double>(), j["nobal_makespan"].get<double>() / makespan, 1e-12);
  EXPECT_GT(j["tasks_transferred"].get<long long>(), 0);
  EXPECT_EQ(j["messages"]["task_transfer"], j["tasks_transferred"]);  // one task per iPSC/2 message
  long long sum = 0;
  for (const auto& [kind, count] : j["messages"].items())
    if (kind != "total") sum += count.get<long long>();
  EXPECT_EQ(j["messages"]["total"].get<long long>(), sum);
  EXPECT_GT(j["events"].get<long long>(), 3200);
}

TEST(CliSimulate, MaxEventsStopsARunWithTheFiguresSoFar) {
  const Output o = run({"simulate", "-s", "rid", "-t", "hypercube:3", "--max-events", "1000"});
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("stopped after 1000 events"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("tasks not completed"), std::string::npos) << o.err;
  EXPECT_EQ(run({"simulate", "-s", "rid", "-t", "hypercube:3", "--max-events", "-1"}).status, 2);
  EXPECT_EQ(run({"simulate", "-s", "rid", "-t", "hypercube:3", "--max-seconds", "x"}).status, 2);
}

TEST(CliSimulate, AnUndefinedFigureIsPrintedAsUndefinedWithTheReason) {
  // One loop of work in all: NOBAL is already optimal (Pi was printed -inf).
  const Output o = run({"simulate", "-s", "rid", "-t", "hypercube:3", "--workload-param", "total_load=1"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("Pi (eq. 36)          undefined (NOBAL is already optimal"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("inf"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("nan"), std::string::npos) << o.out;
}

TEST(CliSimulate, SameSeedSameBytes) {
  const auto strip = [](const Output& o) {
    EXPECT_EQ(o.status, 0) << o.err;
    std::string kept;
    int removed = 0;
    for (const std::string& line : lines_of(o.out)) {
      if (line.find("\"wall_seconds\"") != std::string::npos || line.find("\"events_per_second\"") != std::string::npos) {
        ++removed;
        continue;
      }
      kept += line + "\n";
    }
    EXPECT_EQ(removed, 2) << o.out;
    return kept;
  };
  const std::string a = strip(run(kRidOnCube));
  const std::string b = strip(run(kRidOnCube));
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  // ... and the seed matters.
  std::vector<std::string> other = kRidOnCube;
  other[8] = "2";
  ASSERT_EQ(kRidOnCube[7], "--seed");
  const json j1 = json::parse(run(kRidOnCube).out), j2 = json::parse(run(other).out);
  EXPECT_NE(j1["makespan"], j2["makespan"]);
}

TEST(CliSimulate, RerunFromJsonInputsGivesTheSameRun) {
  // Non-default values everywhere, so that a forgotten input changes the run.
  const std::vector<std::string> args = {
      "simulate", "--json", "-s", "rid", "-t", "torus:4x4", "-p", "u=0.8", "-p", "delta_min=2", "-p", "l_threshold=0.5",
      "--workload-param", "granularity=40", "--workload-param", "block=5e5", "-c", "ipsc2",
      "--cost-param", "latency=250us", "--cost-param", "poll_interval=65us", "--cost-param", "send_overhead=120us",
      "--seed", "7"};
  expect_rerun_reproduces(args);
  // The defaults give another run: the rerun above really depended on the inputs.
  const json plain = parse_json(run({"simulate", "--json", "-s", "rid", "-t", "torus:4x4", "-g", "40", "--seed", "7"}));
  const json tuned = parse_json(run(args));
  EXPECT_NE(plain["makespan"], tuned["makespan"]);
  // The default run and the rid on the cube, too.
  expect_rerun_reproduces(kRidOnCube);
}

TEST(CliSimulate, RerunFromJsonKeepsDurationsExactly) {
  // Durations that do not fit in four significant digits must survive the JSON unrounded.
  expect_rerun_reproduces({"simulate", "--json", "-s", "direct_neighbor", "-p", "w=0.5", "-t", "mesh:4x4", "-w",
                           "dynamic_load", "--workload-param", "duration=1s", "-c", "meiko-cs1", "--execution", "ps"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", "--execution", "sjf"},
                     {"sjf", "fcfs", "processor_sharing", "lifo"});
  expect_rerun_reproduces({"simulate", "--json", "-s", "rid", "-t", "hypercube:4", "-g", "30", "--seed", "2",
                           "--cost-param", "poll_interval=123456ns", "--cost-param", "send_overhead=123456ns"});
}

TEST(CliSimulate, BadStrategyAndParameters) {
  expect_usage_error({"simulate", "-s", "bogus", "-t", "hypercube:5"}, {"bogus", "none", "rid"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-p", "bogus=1"},
                     {"bogus", "l_low", "l_threshold", "delta_min", "u", "retry_on_update"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-p", "u=2"}, {"u=2", "[1e-09, 1]"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-p", "delta_min=1.5"}, {"delta_min=1.5", "integer"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-p", "u"}, {"'u'", "name=value"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-p", "u=0.5", "-p", "u=0.6"}, {"'u'", "twice"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-w", "nope"}, {"nope", "artificial"});
}

TEST(CliSimulate, BadCostModel) {
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "--cost", "ipsc9"}, {"ipsc9", "ideal", "ipsc2"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "--cost-param", "latency=-1us"},
                     {"latency=-1us", ">= 0"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "--cost-param", "poll=1us"},
                     {"poll", "poll_interval", "tasks_per_message"});
}

TEST(CliSimulate, BadGranularity) {
  for (const char* g : {"0", "-5"}) {
    const std::string line = expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "--granularity", g}, {"granularity"});
    if (!line.empty()) {
      EXPECT_TRUE(std::regex_search(line, std::regex(std::string("granularity.*[^0-9.]") + g + "([^0-9.]|$)"))) << line;
    }
  }
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:5", "-g", "abc"}, {"abc"});
}

TEST(CliSimulate, BadSeed) {
  // An unsigned seed must not wrap round (-1) or saturate (2^64).
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", "--seed", "-1"}, {"-1"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", "--seed", "18446744073709551616"},
                     {"18446744073709551616"});
}

TEST(CliSimulate, MissingRequiredOptions) {
  expect_usage_error({"simulate", "-t", "hypercube:5"}, {"--strategy"});
  expect_usage_error({"simulate", "-s", "rid"}, {"--topology"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:0"}, {"hypercube:0"});
  expect_usage_error({}, {"subcommand"});
}

TEST(CliSimulate, PerNodeTimesAddUpToTheMakespan) {
  const json j = parse_json(run(with(kRidOnCube, {"--per-node"})));
  ASSERT_TRUE(j.contains("per_node"));
  ASSERT_EQ(j["per_node"].size(), 32u);
  const double makespan = j["makespan"].get<double>();
  ASSERT_GT(makespan, 0);
  long long executed = 0;
  for (std::size_t v = 0; v < 32; ++v) {
    const json& n = j["per_node"][v];
    const double busy = n["busy"].get<double>(), overhead = n["overhead"].get<double>(), idle = n["idle"].get<double>();
    EXPECT_GE(busy, 0) << v;
    EXPECT_GE(overhead, 0) << v;
    EXPECT_GE(idle, 0) << v;
    EXPECT_LE(std::abs(busy + overhead + idle - makespan), 1e-9 * makespan)
        << "node " << v << ": busy " << busy << " + overhead " << overhead << " + idle " << idle << " != makespan "
        << makespan;
    executed += n["tasks_executed"].get<long long>();
  }
  EXPECT_EQ(executed, 3200);
  // Without --per-node there is no list.
  EXPECT_FALSE(parse_json(run(kRidOnCube)).contains("per_node"));
}

TEST(CliReproduce, ScoreboardTakesNoRuns) {
  // Each reproduction runs at its own default: the case of the paper's numbers.
  expect_usage_error({"reproduce", "scoreboard", "--runs", "3"}, {"--runs 3", "scoreboard"});
}

// ---------------------------------------------------------------------------------- demo

TEST(CliDemo, PrintsThePapersValuesBesideOurs) {
  const std::string out_dir = dlbkit::test::temp_path("cli-demo").string();
  std::filesystem::remove_all(out_dir);
  const Output o = run({"demo", "--runs", "2", "--out", out_dir});
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  std::string paper, ours;
  for (const std::string& line : lines_of(o.out)) {
    if (line.rfind("T (s), paper", 0) == 0) paper = line;
    if (line.rfind("T (s), dlbkit", 0) == 0) ours = line;
  }
  EXPECT_NE(paper.find("66.3"), std::string::npos) << o.out;  // NOBAL, WLR93 Table IV
  EXPECT_NE(paper.find("44.1"), std::string::npos) << o.out;  // RID
  ASSERT_FALSE(ours.empty()) << o.out;
  // Our row has a number in each column: optimal, NOBAL and the seven strategy columns.
  std::vector<double> values;
  const std::regex number(R"([0-9]+\.[0-9]+)");
  for (auto it = std::sregex_iterator(ours.begin(), ours.end(), number); it != std::sregex_iterator(); ++it)
    values.push_back(std::stod(it->str()));
  ASSERT_EQ(values.size(), 9u) << ours;
  for (std::size_t c = 2; c < values.size(); ++c) EXPECT_GT(values[c], values[0]) << "column " << c;  // > optimal
  EXPECT_GT(values[1], 50.0);  // NOBAL near the paper's 66.3 s
  EXPECT_LT(values[1], 80.0);
  EXPECT_TRUE(std::filesystem::exists(out_dir + "/wlr93-table4/wlr93-table4.csv"));

  expect_usage_error({"demo", "--runs", "0"}, {"--runs", "0"});
}

}  // namespace
