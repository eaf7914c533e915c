// Atomic outputs through the command line: a command that fails leaves none of its files
// (no temporary, no half of a set) and every file it would have replaced as it was.

#include "../support/command.hpp"
#include "../support/temp_path.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using dlbkit::test::run_cli;

std::string text_of(const fs::path& path) {
  std::stringstream back;
  back << std::ifstream(path).rdbuf();
  return back.str();
}

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

struct OutputFiles : ::testing::Test {
  fs::path dir = dlbkit::test::temp_dir("cli-outputs");
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
};

// The picture cannot be written (its path is a directory): its CSV table and script are
// not left behind, and the timeline written in the same run does not replace the old one.
TEST_F(OutputFiles, AFailedPlotLeavesNoFileAndTheOldTimeline) {
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  std::ofstream(dir / "t.json") << "old\n";
  fs::create_directories(dir / "pic");
  const auto o = run_cli({"simulate", "-s", "gm", "-t", "hypercube:3", "--timeline", (dir / "t.json").string(),
                          "--plot-load", (dir / "pic").string()});
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_NE(o.err.find("Is a directory"), std::string::npos) << o.err;
  EXPECT_EQ(text_of(dir / "t.json"), "old\n");
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"t.json", "pic"}));
  // The same run with a writable picture replaces the timeline and writes the set.
  const auto ok = run_cli({"simulate", "-s", "gm", "-t", "hypercube:3", "--timeline", (dir / "t.json").string(),
                           "--plot-load", (dir / "p.png").string()});
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(text_of(dir / "t.json"), "old\n");
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"t.json", "pic", "p.png", "p.png.csv", "p.png.gp"}));
}

// The trace cannot be written (a full device): no section file is left beside it, and the
// timeline of the same run does not replace the old one.
TEST_F(OutputFiles, AFailedRecordLeavesNoSectionAndTheOldTimeline) {
  std::ofstream(dir / "t.json") << "old\n";
  const auto o = run_cli({"run", "--app", "bnb", "--workers", "2", "--no-sequential", "--record", "/dev/full",
                          "--timeline", (dir / "t.json").string()});
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(o.err, "dlbkit: error: /dev/full: cannot be written (No space left on device); accepted: a path to a "
                   "writable file\n");
  EXPECT_EQ(text_of(dir / "t.json"), "old\n");
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"t.json"}));
  for (const char* part : {"/dev/full.part0", "/dev/full.part1"}) EXPECT_FALSE(fs::exists(part)) << part;
}

// The run's own timeline on a full device: the system's reason, not a later call's errno.
TEST_F(OutputFiles, AFullTimelineSaysNoSpace) {
  const auto o = run_cli({"run", "--app", "bnb", "--workers", "2", "--no-sequential", "--timeline", "/dev/full"});
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(o.err, "dlbkit: error: /dev/full: cannot be written (No space left on device); accepted: a path to a "
                   "writable file\n");
}

// SIGTERM in the middle of a run: the files it was writing are removed, the old timeline
// is left as it was, and the command dies of the signal.
TEST_F(OutputFiles, ASignalRemovesThePartialFiles) {
  std::ofstream(dir / "t.json") << "old\n";
  const std::string command = std::string("cd ") + dlbkit::test::shell_quote(dir.string()) + " && { " DLBKIT_CLI
                              " run --app busy --app-param total_load=1e8 --workers 2 --no-sequential "
                              "--timeline t.json --record r.trace >/dev/null & pid=$!; sleep 1; kill -TERM $pid; "
                              "wait $pid; echo $?; }";
  const auto o = dlbkit::test::run_shell(command);
  EXPECT_EQ(o.out, "143\n") << o.err;
  EXPECT_EQ(text_of(dir / "t.json"), "old\n");
  EXPECT_EQ(names_in(dir), (std::set<std::string>{"t.json"}));
}

// A full standard output: one line naming it, status 1, whether the failed write shows at
// the final flush (a short report) or on the way (a long one, fmt's exception).
TEST(StandardOutput, AFailedWriteIsOneLine) {
  for (const char* command : {" list strategies", " tardiness --generate 6 --json"}) {
    const auto o = dlbkit::test::run_shell(std::string(DLBKIT_CLI) + command + " >/dev/full");
    EXPECT_EQ(o.status, 1) << command;
    EXPECT_EQ(o.err, "dlbkit: failed: standard output: cannot be written (No space left on device)\n") << command;
  }
}

}  // namespace
