// --timeline and --plot-load, end to end: the file each engine writes is checked against the
// trace-event format (docs/timeline.md), and the simulator's spans against its own figures.
// (The MPI engine's files, one per rank: tests/runtime/mpi_test.cpp.)

#include "../support/command.hpp"
#include "../support/temp_path.hpp"
#include "../support/trace_format.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using dlbkit::test::check_format;
using dlbkit::test::read_json;
using dlbkit::test::TraceSummary;
using nlohmann::json;

std::string cli(const std::string& args) { return "timeout 300 " DLBKIT_CLI " " + args; }

}  // namespace

TEST(Timeline, SimulatedRunIsAWellFormedTraceWithTheEnginesBusyTime) {
  const std::string path = dlbkit::test::temp_path("sim-timeline.json").string();
  const auto o = dlbkit::test::run_shell(
      cli("simulate -s gm -t hypercube:3 -w artificial -g 20 --json --per-node --timeline " + path));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err, "");
  const json result = json::parse(o.out);
  const TraceSummary s = check_format(read_json(path));
  EXPECT_EQ(s.named_threads, (std::set<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_GT(s.counters, 8u);
  EXPECT_EQ(s.arrows, result["tasks_transferred"].get<std::size_t>());  // one arrow per migrated task
  EXPECT_GT(s.arrows, 0u);
  const double makespan_us = result["makespan"].get<double>() * 1e6;
  for (int v = 0; v < 8; ++v) {
    SCOPED_TRACE(v);
    const auto& spans = s.span_us.at(v);
    const json& node = result["per_node"][static_cast<std::size_t>(v)];
    // The spans are the engine's own accounting: busy exactly, overhead at least the part
    // within the makespan (the report leaves out what comes after the last task).
    EXPECT_NEAR(spans.at("busy"), node["busy"].get<double>() * 1e6, 1e-3);
    EXPECT_GE(spans.at("overhead") + 1e-3, node["overhead"].get<double>() * 1e6);
    double covered = 0;
    for (const auto& [name, us] : spans) covered += us;
    EXPECT_GE(covered + 1e-3, makespan_us);  // busy, overhead and idle cover the whole run
  }
}

TEST(Timeline, ThreadsRunIsAWellFormedTrace) {
  const std::string path = dlbkit::test::temp_path("threads-timeline.json").string();
  const auto o = dlbkit::test::run_shell(cli("run --app busy --app-param granularity=20 --workers 3 --no-sequential "
                                             "--json --timeline " + path));
  ASSERT_EQ(o.status, 0) << o.err;
  const json result = json::parse(o.out);
  const TraceSummary s = check_format(read_json(path));
  EXPECT_EQ(s.named_threads, (std::set<int>{0, 1, 2}));
  EXPECT_GT(s.counters, 0u);
  for (int v = 0; v < 3; ++v) {
    SCOPED_TRACE(v);
    ASSERT_TRUE(s.span_us.count(v));
    EXPECT_GT(s.span_us.at(v).count("busy") + s.span_us.at(v).count("idle"), 0u);
  }
  // Each transfer is one arrow when both workers are recorded: no more than the messages.
  EXPECT_LE(s.arrows, result["messages"]["task_transfer"].get<std::size_t>());
}

TEST(Timeline, ChosenNodesOnlyAndTheDefaultIsSaid) {
  const std::string path = dlbkit::test::temp_path("chosen-timeline.json").string();
  auto o = dlbkit::test::run_shell(
      cli("simulate -s rid -t hypercube:4 -g 5 --timeline-nodes 0-2,9 --timeline " + path));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(check_format(read_json(path)).named_threads, (std::set<int>{0, 1, 2, 9}));
  // 128 nodes: the first 64 by default, and stderr says so.
  o = dlbkit::test::run_shell(cli("simulate -s rid -t hypercube:7 -g 2 --timeline " + path));
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("the timeline records nodes 0-63 of 128"), std::string::npos) << o.err;
  EXPECT_EQ(check_format(read_json(path)).named_threads.size(), 64u);
}

TEST(Timeline, BadNodeListsAreRefused) {
  const std::string path = dlbkit::test::temp_path("bad-timeline.json").string();
  for (const std::string list : {"8", "0-8", "5-2", "x", "1,,2", "1-", "all,1", "0x2"})
    dlbkit::test::expect_usage_error(
        {"simulate", "-s", "gm", "-t", "hypercube:3", "--timeline", path, "--timeline-nodes", list},
        {"--timeline-nodes", "accepted"});
  dlbkit::test::expect_usage_error({"run", "--app", "busy", "--workers", "2", "--timeline", path, "--timeline-nodes", "2"},
                                   {"--timeline-nodes '2'", "accepted"});
}

TEST(PlotLoad, DrawsAPictureOrSaysGnuplotIsMissing) {
  const std::string png = dlbkit::test::temp_path("load.png").string();
  // Without gnuplot on the PATH: a usage error before any simulation.
  const auto missing = dlbkit::test::run_shell("timeout 300 env PATH=/nonexistent " DLBKIT_CLI " " + std::string("simulate -s gm -t mesh:4x4 --plot-load " + png));
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("gnuplot is not installed"), std::string::npos) << missing.err;
  if (dlbkit::test::run_shell("command -v gnuplot").status != 0) GTEST_SKIP() << "gnuplot is not installed";
  const auto o = dlbkit::test::run_shell(cli("simulate -s gm -t mesh:4x4 -g 10 --plot-load " + png));
  ASSERT_EQ(o.status, 0) << o.err;
  std::ifstream in(png, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  // The data beside it: one row per node and interval, loads never negative, some above 0.
  std::ifstream csv(png + ".csv");
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "time_s,node,load");
  std::size_t rows = 0;
  double total = 0;
  while (std::getline(csv, line)) {
    const double load = std::stod(line.substr(line.rfind(',') + 1));
    EXPECT_GE(load, 0.0);
    total += load;
    ++rows;
  }
  EXPECT_EQ(rows % 16, 0u);
  EXPECT_GE(rows / 16, 128u);  // between bins/2 and bins intervals
  EXPECT_GT(total, 0.0);
}
