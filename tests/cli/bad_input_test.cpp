// Bad input through the command line, as a hostile user would try it: every case ends with
// status 2, nothing on stdout and one line "dlbkit: error: <value>: ...; accepted: ...".

#include "../support/command.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using dlbkit::test::expect_usage_error;
using dlbkit::test::Outcome;
using dlbkit::test::run_cli;
using dlbkit::test::with;

const std::vector<std::string> kCommands = {"list",   "topology", "simulate", "demo", "reproduce", "tardiness",
                                            "analyze", "rounds",   "spheres",  "uts",  "run"};

/// The options of `command` that take a value, read from its --help ("--alpha TEXT ..."),
/// and its positional arguments ("name TEXT").
std::vector<std::string> valued_options(const std::string& command) {
  const Outcome help = run_cli({command, "--help"});
  EXPECT_EQ(help.status, 0) << help.err;
  std::vector<std::string> out;
  const std::regex option(R"(^\s+(?:-\w,)?(--[a-z][a-z-]*)(?:,-\w)? (?:TEXT|INT|UINT|FLOAT)\b)");
  const std::regex positional(R"(^  ([a-z][a-z-]*) (?:TEXT|INT|UINT|FLOAT)\b)");
  for (const std::string& line : dlbkit::test::lines_of(help.out))
    if (std::smatch m; std::regex_search(line, m, option) || std::regex_search(line, m, positional)) out.push_back(m[1]);
  return out;
}

std::string file_with(const std::string& name, const std::string& text) {
  const std::string path = dlbkit::test::temp_path(name).string();
  std::ofstream(path) << text;
  return path;
}

std::string repeated(const std::string& line, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += line + "\n";
  return text;
}

const std::vector<std::string> kRounds = {"rounds", "--algorithm", "diffusion", "--topology", "ring:8", "--until", "steps:5"};

}  // namespace

// Issue item 1: an empty threshold ran a decomposition against a garbage threshold.
TEST(CliBadInput, EmptyThresholdIsAnError) {
  expect_usage_error({"tardiness", "--generate", "6", "--threshold", "", "--task-dimension", "6"},
                     {"--threshold", "''", "accepted:"});
}

// Item 3: an empty value is an error for every option of every command, never a default.
TEST(CliBadInput, EveryOptionOfEveryCommandRejectsAnEmptyValue) {
  std::size_t checked = 0;
  for (const std::string& command : kCommands) {
    for (const std::string& option : valued_options(command)) {
      const bool positional = option.front() != '-';
      expect_usage_error(positional ? std::vector<std::string>{command, ""} : std::vector<std::string>{command, option, ""},
                         {option, "'' is empty", "accepted:"});
      ++checked;
    }
  }
  EXPECT_GE(checked, 55u) << "the --help pages list fewer options than dlbkit has";
}

TEST(CliBadInput, TheIssuesEmptyValuesAreErrors) {
  for (const std::string option : {"--alpha", "--lambda", "--arrivals", "--condition", "--nna-transfer", "--nna-time"})
    expect_usage_error(with(kRounds, {"--init", "spike", option, ""}), {option, "''"});
  for (const std::string option : {"--tardiness-factor", "--due-date-range", "--write"})
    expect_usage_error({"tardiness", "--generate", "6", option, ""}, {option, "''"});
  expect_usage_error({"run", "--app", "bnb", "--workers", ""}, {"--workers", "''"});
  expect_usage_error({"spheres", "--topology", "hypercube:3", "--range", ""}, {"--range", "''"});
}

// Item 2: non-finite loads and totals that overflow.
TEST(CliBadInput, InitialLoadFilesMustBeFiniteWithAFiniteTotal) {
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"inf", "inf"}, {"nan", "nan"}, {"overflow", "1e400"}, {"hex", "0x10"}, {"plus", "+1"}}) {
    SCOPED_TRACE(name);
    const std::string path = file_with("load-" + name, repeated(value, 8));
    expect_usage_error(with(kRounds, {"--init", "file:" + path}), {path, "'" + value + "'", "accepted:"});
  }
  const std::string huge = file_with("load-huge", repeated("1.7e308", 8));
  expect_usage_error(with(kRounds, {"--init", "file:" + huge}), {"file:" + huge, "totals", "accepted:"});
  expect_usage_error(with(kRounds, {"--init", "uniform:1e300"}), {"uniform:1e300", "totals", "accepted:"});
  expect_usage_error(with(kRounds, {"--init", "file:" + huge, "--integer"}), {huge, "1.7e308"});
}

// Item 4: a failed write is an error, down to the last flush.
TEST(CliBadInput, AFailedWriteIsAnError) {
  expect_usage_error({"tardiness", "--generate", "6", "--write", "/dev/full"}, {"/dev/full", "No space left", "accepted:"});
  const Outcome json = dlbkit::test::run_shell(std::string(DLBKIT_CLI) + " tardiness --generate 6 --json >/dev/full");
  EXPECT_EQ(json.status, 1);
  EXPECT_EQ(json.err, "dlbkit: failed: standard output: cannot be written (No space left on device)\n");
}

// Item 5.
TEST(CliBadInput, ReproduceWithoutANameIsOneErrorLine) {
  expect_usage_error({"reproduce"}, {"no reproduction named", "accepted:", "wlr93-table4"});
  expect_usage_error({"reproduce", ""}, {"''", "accepted:"});
}

// A reproduction's own options are checked before it runs.
TEST(CliBadInput, ReproduceParametersAreChecked) {
  expect_usage_error({"reproduce", "predict-runtime", "-p", "at_1e6=true"}, {"at_1e6", "accepted: at_65536"});
  expect_usage_error({"reproduce", "predict-runtime", "-p", "at_65536=maybe"}, {"at_65536=maybe", "accepted:"});
  expect_usage_error({"reproduce", "wlr93-table4", "-p", "at_65536=true"}, {"at_65536", "accepted: none"});
  expect_usage_error({"reproduce", "scoreboard", "-p", "at_65536=true"}, {"at_65536=true", "accepted: none"});
}

// Item 6: what is echoed never breaks the error over two lines.
TEST(CliBadInput, ControlCharactersAreEscaped) {
  expect_usage_error({"topology", "hypercube:3\n"}, {"hypercube:3\\n"});
  expect_usage_error({"topology", "ring:\r8\x1b[2J"}, {"ring:\\r8\\x1b[2J"});
  expect_usage_error(with(kRounds, {"--init", "spike:1\n2"}), {"'1\\n2'"});
}

// Item 7: service_mean was accepted up to 1e6 s, and a task past 1e6 s then failed the run.
TEST(CliBadInput, ServiceMeanIsBoundedAtTheEdge) {
  expect_usage_error({"simulate", "-s", "none", "-t", "hypercube:3", "-w", "poisson", "--cost", "ahmad91",
                      "--workload-param", "service_mean=1e6s"},
                     {"service_mean=1e6s", "accepted:", "1e+04s"});
  const Outcome top = run_cli({"simulate", "-s", "none", "-t", "hypercube:3", "-w", "poisson", "--cost", "ahmad91",
                               "--workload-param", "service_mean=1e4s", "--workload-param", "tasks=20000"});
  EXPECT_EQ(top.status, 0) << top.err;
}

// Item 8: an endless line is an error, whichever command reads the file; /dev/zero, once one
// endless line, is refused as a device before it is read.
TEST(CliBadInput, EndlessLinesAreAnError) {
  const std::string long_line = file_with("long-line", std::string(5000, '1') + "\n");
  const auto reads = [](const std::string& path) {
    return std::vector<std::vector<std::string>>{
        {"topology", "file:" + path},
        with(kRounds, {"--init", "file:" + path}),
        {"rounds", "--algorithm", "diffusion", "--topology", "file:" + path, "--init", "spike", "--until", "steps:5"},
        with(kRounds, {"--init", "spike", "--alpha", "file:" + path}),
        {"simulate", "-s", "none", "-t", "file:" + path},
        {"tardiness", "--instance", path}};
  };
  for (const auto& args : reads(long_line)) expect_usage_error(args, {long_line + ":1", "longer than 4096", "accepted:"});
  for (const auto& args : reads("/dev/zero")) expect_usage_error(args, {"/dev/zero", "a device", "accepted:"});
  std::filesystem::remove(long_line);
}

// Item 9.
TEST(CliBadInput, NumbersAreDecimalWithoutBlanks) {
  expect_usage_error({"tardiness", "--generate", "0x6"}, {"--generate", "'0x6'", "accepted:"});
  expect_usage_error({"tardiness", "--generate", " 6"}, {"--generate", "' 6'"});
  expect_usage_error({"tardiness", "--generate", "6 "}, {"--generate", "'6 '"});
  expect_usage_error({"tardiness", "--generate", "6", "--tardiness-factor", "0x1p-1"}, {"--tardiness-factor", "0x1p-1"});
  expect_usage_error({"tardiness", "--generate", "6", "--tardiness-factor", "inf"}, {"--tardiness-factor", "'inf'"});
  expect_usage_error({"tardiness", "--generate", "6", "--seed", "0x1"}, {"--seed", "'0x1'", "accepted:"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", "-p", "l_low=0x1"}, {"l_low=0x1", "accepted:"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", "-p", "l_low= 1"}, {"l_low= 1", "accepted:"});
  expect_usage_error({"topology", "hypercube: 3"}, {"' 3'", "accepted:"});
}

TEST(CliBadInput, EmptyParameterValuesAreErrors) {
  for (const std::string option : {"-p", "--workload-param", "--cost-param"})
    expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:3", option, "latency="}, {"'latency='", "accepted:"});
}

TEST(CliBadInput, PerUnitTimesAcceptFractionsOnly) {
  const std::vector<std::string> bnb = {"simulate", "-s", "none", "-t", "hypercube:1", "-w", "bnb", "--workload-param",
                                        "n=6", "--workload-param", "m=4", "--workload-param"};
  for (const std::string bad : {"-1ns", "abc", "6.3", "0.5ns"})
    expect_usage_error(with(bnb, {"step_time=" + bad}), {"step_time=" + bad, "accepted:"});
  expect_usage_error(with(bnb, {"step_time="}), {"'step_time='", "accepted:"});
  expect_usage_error({"simulate", "-s", "none", "-t", "hypercube:1", "-w", "uts", "--workload-param", "node_time=x"},
                     {"node_time=x", "accepted:"});
  expect_usage_error({"simulate", "-s", "none", "-t", "hypercube:1", "-w", "busy", "--workload-param", "loop_time=-2us"},
                     {"loop_time=-2us", "accepted:"});
  const Outcome fine = run_cli(with(bnb, {"step_time=6.3ns"}));
  EXPECT_EQ(fine.status, 0) << fine.err;
}

TEST(CliBadInput, HbmSizeErrorSaysWhatIsAccepted) {
  expect_usage_error({"simulate", "-s", "hbm", "-t", "complete:3"}, {"complete:3", "2^d nodes", "accepted:"});
}

TEST(CliBadInput, UtsKeysThatDoNotApplyToTheTreeTypeAreErrors) {
  expect_usage_error({"uts", "--tree", "T1,q=0.5"}, {"T1,q=0.5", "q=0.5 does not apply to type=geometric", "accepted:"});
  expect_usage_error({"uts", "--tree", "T3,depth=3"}, {"depth=3", "type=binomial", "accepted:"});
  expect_usage_error({"uts", "--tree", "type=binomial,shift=0.5"}, {"shift=0.5", "accepted:"});
  const Outcome hybrid = run_cli({"uts", "--tree", "type=hybrid,depth=4,q=0.1,m=2,shift=0.5"});
  EXPECT_EQ(hybrid.status, 0) << hybrid.err;
}

// Issue 30: valid inputs that would not end in practice were accepted silently; those whose
// size is known up front are refused with the estimate, in every command that takes them.
TEST(CliBadInput, RunsThatWouldNotEndAreRefusedWithTheEstimate) {
  expect_usage_error({"run", "--app", "busy", "--app-param", "total_load=1e15"}, {"total_load=1e+15", "1e+09 s"});
  expect_usage_error({"run", "--app", "uts", "--app-param", "tree=T1,depth=64"}, {"depth=64", "1e+13 nodes"});
  expect_usage_error({"uts", "--tree", "type=binomial,b0=2000,m=2,q=0.49999999999"}, {"q=0.49999999999", "1e+13 nodes"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:2", "-w", "uts", "--workload-param", "tree=T4,depth=60"},
                     {"depth=60", "1e+13 nodes"});
}

// Issue 30: a directory given as an input file was read as an empty file and blamed for its
// content ("0 loads for 8 nodes", "not JSON"); every file the CLI reads names it as such.
TEST(CliBadInput, ADirectoryGivenAsAnInputFileIsNamedAsSuch) {
  const std::string dir = dlbkit::test::temp_dir("input-dir");
  std::filesystem::create_directory(dir);
  expect_usage_error({"topology", "file:" + dir}, {dir, "a directory"});
  expect_usage_error(with(kRounds, {"--init", "file:" + dir}), {dir, "a directory"});
  expect_usage_error(with(kRounds, {"--init", "spike", "--alpha", "file:" + dir}), {dir, "a directory"});
  expect_usage_error({"tardiness", "--instance", dir}, {dir, "a directory"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:2", "--cost", "file:" + dir}, {dir, "a directory"});
  expect_usage_error({"simulate", "-s", "rid", "-t", "hypercube:2", "-w", "trace:" + dir}, {dir, "a directory"});
  std::filesystem::remove_all(dir);
}

// Issue 30: an empty alpha file was accepted with every alpha 0 (M = I: no load ever moves).
TEST(CliBadInput, AnAlphaFileThatMovesNoLoadIsRefused) {
  const std::string empty = file_with("alpha-empty", "# nothing\n");
  expect_usage_error(with(kRounds, {"--init", "spike", "--alpha", "file:" + empty}), {empty, "no edge has an alpha > 0"});
  const std::string zeros = file_with("alpha-zeros", "0 1 0\n");
  expect_usage_error({"analyze", "diffusion", "--topology", "ring:8", "--alpha", "file:" + zeros}, {"no edge has an alpha > 0"});
  std::filesystem::remove(empty);
  std::filesystem::remove(zeros);
}
