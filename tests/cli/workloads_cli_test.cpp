// The runtime's applications in `dlbkit simulate`, and `dlbkit run --record` replayed by
// `dlbkit simulate -w trace:PATH`, end to end; a bad trace file is a one-line error, status 2.

#include "../support/cli_json.hpp"
#include "../support/command.hpp"
#include "../support/file_bytes.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;
using nlohmann::json;

const std::string kTreeParams = "type=geometric,shape=fixed,b0=4,depth=5,seed=19";

using dlbkit::test::file_bytes;

}  // namespace

TEST(CliWorkloads, SimulatedUtsRunsTheTreeDlbkitUtsCounts) {
  const json counted = cli_json({"uts", "--tree", kTreeParams, "--json"});
  const json simulated =
      cli_json({"simulate", "-s", "work_stealing", "-t", "hypercube:3", "-c", "ideal", "-w", "uts", "--workload-param",
                "tree=" + kTreeParams, "--json"});
  EXPECT_EQ(simulated["tasks"], counted["nodes"]);
}

TEST(CliWorkloads, RecordedRunReplaysInTheSimulator) {
  const std::string trace = dlbkit::test::temp_path("cli-uts.trace").string();
  const json real = cli_json({"run", "--app", "uts", "--app-param", "tree=" + kTreeParams, "--workers", "2",
                              "--no-sequential", "--record", trace, "--json"});
  ASSERT_TRUE(std::filesystem::exists(trace));
  EXPECT_FALSE(std::filesystem::exists(trace + ".part0"));
  for (const char* form : {"trace:", "file="}) {
    std::vector<std::string> args = {"simulate", "-s", "rid", "-t", "torus:3x3", "--json"};
    if (std::string(form) == "trace:") args.insert(args.end(), {"-w", "trace:" + trace});
    else args.insert(args.end(), {"-w", "trace", "--workload-param", "file=" + trace});
    const json replay = cli_json(args);
    EXPECT_EQ(replay["tasks"], real["result"]["nodes"]) << form;
    EXPECT_EQ(replay["tasks"], real["tasks_executed"]) << form;
  }
  // Every truncation of the file is an error naming it, never a crash.
  const std::string bytes = file_bytes(trace);
  const std::string cut = dlbkit::test::temp_path("cli-cut.trace").string();
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{12}, bytes.size() / 2, bytes.size() - 1}) {
    std::ofstream(cut, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(n));
    expect_usage_error({"simulate", "-s", "rid", "-t", "ring:4", "-w", "trace:" + cut}, {cut});
  }
  std::filesystem::remove(cut);
  std::filesystem::remove(trace);
}

TEST(CliWorkloads, BadTraceInputIsAOneLineError) {
  const std::string missing = dlbkit::test::temp_path("no-such.trace").string();
  expect_usage_error({"simulate", "-s", "rid", "-t", "ring:4", "-w", "trace:" + missing}, {missing});
  expect_usage_error({"simulate", "-s", "rid", "-t", "ring:4", "-w", "trace:"}, {"file"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "ring:4", "-w", "trace"}, {"file"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "ring:4", "-w", "trace:x", "--workload-param", "file=y"},
                     {"trace"});
  expect_usage_error({"run", "--app", "uts", "--workers", "1", "--record", ""}, {"--record"});
  expect_usage_error({"run", "--app", "uts", "--workers", "1", "--record", "/no/such/dir/t.trace"}, {"/no/such/dir"});
}
