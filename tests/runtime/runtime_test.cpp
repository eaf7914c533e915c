// dlbkit::Runtime: typed results from the class and lambda forms on the threads and
// sequential engines, serialised (cereal) tasks and results, the options read from a
// command line beside the program's own, their errors and --help, warnings, the report.
// The MPI side: mpi_runtime_test.cpp.

#include "census_app.hpp"
#include "tree_app.hpp"

#include <dlbkit/core/registry.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace {

using dlbkit::Runtime;
using dlbkit::RuntimeOptions;

RuntimeOptions parse(std::vector<const char*> args, const std::vector<dlbkit::ProgramOption>& program = {}) {
  args.insert(args.begin(), "program");
  return RuntimeOptions::parse(static_cast<int>(args.size()), args.data(), program);
}

// The InputError's message for `args`, or "" when they parse.
std::string parse_error(std::vector<const char*> args) {
  try {
    parse(std::move(args));
  } catch (const dlbkit::InputError& e) {
    return e.what();
  }
  return "";
}

// What --help of a program prints, or "" when parse() returned.
std::string help_of(std::vector<const char*> args, const std::vector<dlbkit::ProgramOption>& program) {
  try {
    parse(std::move(args), program);
  } catch (const dlbkit::HelpRequested& help) {
    return help.what();
  }
  return "";
}

// `text` with every run of spaces made one: --help's lines without their alignment.
std::string squeezed(std::string text) {
  text.erase(std::unique(text.begin(), text.end(), [](char a, char b) { return a == ' ' && b == ' '; }), text.end());
  return text;
}

// The column where `text` starts in its line of `lines`.
std::size_t column_of(const std::string& lines, const std::string& text) {
  const std::size_t at = lines.find(text);
  return at == std::string::npos ? 0 : at - lines.rfind('\n', at);
}

// Runs the tree count of tree_app.hpp with the lambda form, on `runtime`.
dlbkit::test::TreeCount tree_by_lambdas(Runtime& runtime, const dlbkit::test::TreeApp& tree) {
  using dlbkit::test::TreeCount;
  using dlbkit::test::TreeNode;
  return runtime.run(
      std::vector{TreeNode{1, 0}},
      [&tree](const TreeNode& n, auto& ctx) {
        TreeCount& r = ctx.result();
        ++r.nodes;
        r.id_sum += n.id;
        const int k = tree.children(n);
        if (k == 0) ++r.leaves;
        for (int c = 0; c < k; ++c) ctx.spawn(dlbkit::test::TreeApp::child(n, c));
      },
      TreeCount{}, [](const TreeCount& a, const TreeCount& b) {
        return TreeCount{a.nodes + b.nodes, a.leaves + b.leaves, a.id_sum + b.id_sum};
      });
}

void expect_same(const dlbkit::test::TreeCount& a, const dlbkit::test::TreeCount& b) {
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.leaves, b.leaves);
  EXPECT_EQ(a.id_sum, b.id_sum);
}

// What print_report() writes.
std::string report_of(const Runtime& runtime) {
  std::FILE* f = std::tmpfile();
  if (f == nullptr) return "(no temporary file)";
  runtime.print_report(f);
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  return text;
}

}  // namespace

TEST(RuntimeOptions, ReadsDlbkitsLongOptions) {
  const RuntimeOptions o = parse({"--engine", "sequential", "--strategy", "rid", "--param", "retry_on_update=true",
                                  "--param=u=0.5", "--topology=ring:3", "--workers", "3", "--seed", "9",
                                  "--check-tasks", "64", "--poll-interval", "5ms", "--quiet"});
  EXPECT_EQ(o.engine, "sequential");
  EXPECT_EQ(o.strategy, "rid");
  EXPECT_EQ(o.params, (std::vector<std::string>{"retry_on_update=true", "u=0.5"}));
  EXPECT_EQ(o.topology, "ring:3");
  EXPECT_EQ(o.workers, 3u);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.check_tasks, 64u);
  EXPECT_EQ(o.poll_interval, 5 * dlbkit::kMillisecond);
  EXPECT_TRUE(o.quiet);
  const RuntimeOptions d = parse({});
  EXPECT_EQ(d.engine, "auto");
  EXPECT_EQ(d.strategy, "work_stealing");
  EXPECT_EQ(d.topology, "auto");
  EXPECT_EQ(d.check_tasks, 1024u);
  EXPECT_FALSE(d.quiet);
}

// The user's trial: `prog -n 15` started 15 workers. Short options are the program's.
TEST(RuntimeOptions, ReadsTheProgramsOwnOptionsAndLeavesItEveryShortOne) {
  std::uint32_t n = 12;
  std::uint64_t below = 0;
  std::string name;
  bool verbose = false;
  const RuntimeOptions o = parse({"-n", "15", "--workers", "2", "--below=300", "-v", "--name", "x"},
                                 {{"-n", n, 1, 20}, {"--below", below}, {"-v", verbose}, {"--name", name}});
  EXPECT_EQ(o.workers, 2u);
  EXPECT_EQ(n, 15u);
  EXPECT_EQ(below, 300u);
  EXPECT_TRUE(verbose);
  EXPECT_EQ(name, "x");
  for (const char* ours : {"-n", "-s", "-t", "-e", "-p"})
    EXPECT_NE(parse_error({ours, "1"}).find(std::string("unknown option '") + ours + "'"), std::string::npos) << ours;
  try {
    parse({"-x"}, {{"-n", n, 1, 20}, {"-v", verbose}});
    ADD_FAILURE() << "-x was accepted";
  } catch (const dlbkit::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option '-x'; accepted: -n, -v and dlbkit's --engine, --strategy"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse({"-n", "21"}, {{"-n", n, 1, 20}}), dlbkit::InputError);
  // A program's option named like one of dlbkit's is the program's.
  std::uint64_t seed = 0;
  EXPECT_EQ(parse({"--seed", "7"}, {{"--seed", seed}}).seed, 1u);
  EXPECT_EQ(seed, 7u);
}

// The porting trial: `{"--n", n}` for an int n did not compile, reals and arguments without
// a name had no place.
TEST(RuntimeOptions, ReadsSignedIntegersRealsAndPositionalArguments) {
  int shift = 0;
  std::int64_t offset = 5;
  double tolerance = 0.5;
  float scale = 1;
  std::uint32_t n = 0;
  std::string file;
  const std::vector<dlbkit::ProgramOption> program = {{"--shift", shift},
                                                      {"--offset", offset, -10, 10, "an offset"},
                                                      {"--tolerance", tolerance, 0.0, 1.0},
                                                      {"--scale", scale, "a factor"},
                                                      dlbkit::ProgramOption::positional("N", n, 1, 20),
                                                      dlbkit::ProgramOption::positional("FILE", file)};
  EXPECT_EQ(parse({"--shift", "-3", "12", "--offset=-10", "--tolerance", "0.25", "--scale", "-1e3", "out.txt",
                   "--workers", "2"},
                  program)
                .workers,
            2u);
  EXPECT_EQ(shift, -3);
  EXPECT_EQ(offset, -10);
  EXPECT_EQ(tolerance, 0.25);
  EXPECT_EQ(scale, -1000.0f);
  EXPECT_EQ(n, 12u);
  EXPECT_EQ(file, "out.txt");
  // A slot left empty keeps its value; after "--" every argument is positional.
  file = "kept";
  parse({"7"}, program);
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(file, "kept");
  parse({"--", "3", "-x"}, program);
  EXPECT_EQ(file, "-x");
  const auto error_of = [&](std::vector<const char*> args, const std::vector<dlbkit::ProgramOption>& with) {
    try {
      parse(std::move(args), with);
    } catch (const dlbkit::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::map<std::string, std::vector<const char*>> cases = {
      {"--offset: '11' is not accepted; accepted: an integer from -10 to 10", {"--offset", "11"}},
      {"--offset: '1.5' is not accepted; accepted: an integer from -10 to 10", {"--offset", "1.5"}},
      {"--shift: '2147483648' is not accepted; accepted: an integer from -2147483648 to 2147483647",
       {"--shift", "2147483648"}},
      {"--tolerance: '1.5' is not accepted; accepted: a number from 0 to 1", {"--tolerance", "1.5"}},
      {"--tolerance: 'nan' is not accepted; accepted: a number from 0 to 1", {"--tolerance", "nan"}},
      {"--scale: 'inf' is not accepted; accepted: a finite number", {"--scale", "inf"}},
      {"--scale: '1e39' is not accepted; accepted: a finite number", {"--scale", "1e39"}},
      {"N: '0' is not accepted; accepted: an integer from 1 to 20", {"0"}},
      {"N: an empty value is not accepted", {""}},
      {"unexpected argument 'c'; accepted: at most 2 beside the options: N FILE", {"1", "b", "c"}},
  };
  for (const auto& [expected, args] : cases) {
    SCOPED_TRACE(expected);
    EXPECT_EQ(error_of(args, program), expected);
  }
  EXPECT_EQ(error_of({"12"}, {{"--n", n}}),
            "unexpected argument '12'; accepted: options only: --n and dlbkit's --engine, --strategy, --param, "
            "--topology, --workers, --seed, --check-tasks, --poll-interval, --record, --timeline, --timeline-nodes, "
            "--quiet, --help");
}

TEST(RuntimeOptions, HelpListsTheProgramsOptionsThenDlbkits) {
  std::uint32_t n = 12;
  double tolerance = 0.1;
  bool verbose = false;
  std::string file;
  const std::vector<dlbkit::ProgramOption> program = {{"--n", n, 1, 20, "the board size"},
                                                      {"--tolerance", tolerance, 0.0, 1.0},
                                                      {"-v", verbose, "say more"},
                                                      dlbkit::ProgramOption::positional("FILE", file, "the input")};
  const std::string help = help_of({"--n", "3", "--help", "--bogus"}, program);
  EXPECT_TRUE(help.starts_with("usage: program [options] [FILE]\narguments:\n  FILE  ")) << help;
  for (const char* line : {"\n FILE the input\n",
                           "\noptions:\n --n N the board size: an integer from 1 to 20 (default 12)\n",
                           "\n --tolerance X a number from 0 to 1 (default 0.1)\n",
                           "\n -v say more\n",
                           "\ndlbkit's options:\n --engine NAME auto, threads, mpi or sequential",
                           "\n --strategy NAME a name of `dlbkit list strategies` (default work_stealing)\n",
                           "\n --check-tasks N at most N tasks and poll() calls between a worker's looks at the clock, "
                           "from 1 to 2^30 (default 1024)\n",
                           "\n --poll-interval T the least time between a busy worker's check points (default 20us)\n",
                           "\n --quiet no warnings on stderr\n",
                           "\n -h, --help this list\n"})
    EXPECT_NE(squeezed(help).find(line), std::string::npos) << line << "\nin\n" << help;
  EXPECT_EQ(column_of(help, "the input"), column_of(help, "this list")) << help;
  EXPECT_EQ(n, 3u);  // read before --help; what follows it is not
  EXPECT_EQ(help_of({"-h"}, program), help);
  EXPECT_EQ(help_of({"--", "--help"}, program), "");  // a positional argument
  EXPECT_NE(parse_error({"--help=yes"}).find("--help: takes no value"), std::string::npos);
  // A program's -h (or --help) is its own.
  bool h = false;
  EXPECT_EQ(help_of({"-h"}, {{"-h", h}}), "");
  EXPECT_TRUE(h);
  const std::string only_long = help_of({"--help"}, {{"-h", h}});
  EXPECT_TRUE(only_long.starts_with("usage: program [options]\noptions:\n  -h\n")) << only_long;
  EXPECT_NE(squeezed(only_long).find("\n --help this list\n"), std::string::npos) << only_long;
}

TEST(PrintError, PrintsHelpToStdoutWithStatusZero) {
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int status = dlbkit::print_error(dlbkit::HelpRequested("usage: program [options]\n"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "usage: program [options]\n");
  EXPECT_EQ(status, 0);
}

TEST(RuntimeOptions, BadInputIsOneLineNamingTheValueAndWhatIsAccepted) {
  const std::map<std::string, std::vector<const char*>> cases = {
      {"--engine 'gpu'; accepted: auto, threads, mpi, sequential", {"--engine", "gpu"}},
      {"--check-tasks: '0' is not accepted; accepted: an integer from 1 to 2^30", {"--check-tasks", "0"}},
      {"--poll-interval: ", {"--poll-interval", "soon"}},
      {"--quiet: takes no value", {"--quiet=yes"}},
      {"--workers: '0' is not accepted; accepted: an integer from 1 to 4096", {"--workers", "0"}},
      {"--workers: '-2' is not accepted; accepted: an integer from 0 to 4096", {"--workers=-2"}},
      {"--seed: 'x' is not accepted", {"--seed", "x"}},
      {"--strategy: a value is missing", {"--strategy"}},
      {"--topology: an empty value is not accepted", {"--topology="}},
      {"unknown option '--stategy'; accepted: --engine, --strategy, --param, --topology, --workers, --seed, "
       "--check-tasks, --poll-interval, --record, --timeline, --timeline-nodes, --quiet, --help",
       {"--stategy", "rid"}},
      {"--param: 'u' ", {"--param", "u"}},
  };
  for (const auto& [expected, args] : cases) {
    const std::string message = parse_error(args);
    SCOPED_TRACE(args.front());
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST(Runtime, RejectsStrategiesAndTopologiesAtConstruction) {
  const auto error_of = [](RuntimeOptions o) -> std::string {
    try {
      Runtime runtime(std::move(o));
    } catch (const dlbkit::InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error_of({.strategy = "fastest"}).find("unknown strategy 'fastest'; accepted: "), std::string::npos);
  EXPECT_NE(error_of({.topology = "ring:3", .workers = 4}).find("--workers 4 but topology ring:3 has 3 nodes"),
            std::string::npos);
  EXPECT_NE(error_of({.strategy = "hbm", .topology = "ring:3"}).find("ring:3"), std::string::npos);
  EXPECT_NE(error_of({.strategy = "rid", .params = {"nope=1"}}).find("nope"), std::string::npos);
  EXPECT_NE(error_of({.check_tasks = 0}).find("check_tasks"), std::string::npos);
#ifndef DLBKIT_MPI_ENGINE  // the runtime tests link the core library only
  EXPECT_NE(error_of({.engine = "mpi"}).find("linked without the MPI engine"), std::string::npos);
#endif
}

TEST(Runtime, ClassAndLambdaFormsGiveTheExactCountOnEveryEngine) {
  dlbkit::test::TreeApp tree(300, 2490);
  const auto expected = tree.expected();
  ASSERT_GT(expected.nodes, 10000u);
  for (const RuntimeOptions& o : {RuntimeOptions{.engine = "sequential", .workers = 2},
                                  RuntimeOptions{.workers = 1}, RuntimeOptions{.workers = 4},
                                  RuntimeOptions{.strategy = "sid", .topology = "hypercube:2"},
                                  RuntimeOptions{.strategy = "gm", .topology = "ring:3"}}) {
    SCOPED_TRACE(o.engine + " " + o.strategy + " " + o.topology + " " + std::to_string(o.workers));
    Runtime runtime(o);
    expect_same(runtime.run(tree), expected);
    expect_same(tree_by_lambdas(runtime, tree), expected);
    EXPECT_EQ(runtime.last_run().tasks_executed(), expected.nodes);
    EXPECT_EQ(runtime.last_run().workers.size(), o.engine == "sequential" ? 1u : runtime.workers());
  }
}

TEST(Runtime, ATasksExceptionReachesTheCaller) {
  for (const RuntimeOptions& o : {RuntimeOptions{.engine = "sequential"}, RuntimeOptions{.workers = 3}}) {
    Runtime runtime(o);
    std::vector<int> roots(100);
    std::iota(roots.begin(), roots.end(), 0);
    EXPECT_THROW(runtime.run(
                     roots,
                     [](int v, auto& ctx) {
                       if (v == 57) throw std::domain_error("root 57");
                       ctx.result() += v;
                     },
                     0, std::plus<>{}),
                 std::domain_error);
    // The runtime stays usable.
    EXPECT_EQ(runtime.run(roots, [](int v, auto& ctx) { ctx.result() += v; }, 0, std::plus<>{}), 4950);
  }
}

TEST(Runtime, DealsTheRootsRoundRobinAndReducesWithTheGivenOperation) {
  // The largest of 1000 values, each a root: not a sum. Every worker starts with some.
  Runtime runtime(RuntimeOptions{.strategy = "none", .workers = 3});
  std::vector<std::uint64_t> roots(1000);
  std::iota(roots.begin(), roots.end(), 0);
  const std::uint64_t largest = runtime.run(
      roots, [](std::uint64_t v, auto& ctx) { ctx.result() = std::max(ctx.result(), dlbkit::test::mix(v) % 1000003); },
      std::uint64_t{0}, [](std::uint64_t a, std::uint64_t b) { return std::max(a, b); });
  std::uint64_t expected = 0;
  for (std::uint64_t v : roots) expected = std::max(expected, dlbkit::test::mix(v) % 1000003);
  EXPECT_EQ(largest, expected);
  for (const auto& w : runtime.last_run().workers) EXPECT_GE(w.tasks_executed, 333u);  // `none` moves nothing
}

TEST(Runtime, SerialisesTasksAndResultsThatAreNotTriviallyCopyable) {
  using dlbkit::test::Census;
  static_assert(!dlbkit::travels_as_bytes<dlbkit::test::Word> && !dlbkit::travels_as_bytes<Census>);
  std::map<int, std::uint64_t> expected;
  for (int length = 0, n = 1; length <= 6; ++length, n *= 4) expected[length] = static_cast<std::uint64_t>(n);
  for (const RuntimeOptions& o : {RuntimeOptions{.engine = "sequential"}, RuntimeOptions{.workers = 4},
                                  RuntimeOptions{.strategy = "sid", .topology = "hypercube:2"},
                                  RuntimeOptions{.strategy = "gm", .params = {"max_hops=1"}, .topology = "ring:3"}}) {
    SCOPED_TRACE(o.strategy + " " + o.topology);
    Runtime runtime(o);
    const Census c = dlbkit::test::census(runtime);
    EXPECT_EQ(c.by_length, expected);
    EXPECT_EQ(c.greatest, "dddddd");
  }
}

TEST(TaskStack, SerialisedRecordsOfManyLengthsKeepTheirOrderAndHops) {
  dlbkit::detail::TaskStack s(0);
  std::vector<std::byte> bytes;
  for (int i = 0; i < 200; ++i) {
    dlbkit::to_bytes(std::string(static_cast<std::size_t>(i % 13), static_cast<char>('a' + i % 26)), bytes);
    s.push(bytes);
  }
  std::vector<std::byte> out;
  EXPECT_EQ(s.take_bottom(50, dlbkit::kNoHopLimit, out), 50u);
  dlbkit::detail::TaskStack other(0);
  other.push_records(out.data(), 50);
  // Moved once: a hop limit of 1 keeps them all.
  EXPECT_EQ(other.take_bottom(10, 1, out), 0u);
  EXPECT_EQ(other.size(), 50u);
  std::vector<std::byte> task;
  for (int i = 49; i >= 0; --i) {
    other.pop(task);
    EXPECT_EQ(dlbkit::from_bytes<std::string>(task),
              std::string(static_cast<std::size_t>(i % 13), static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(other.empty());
  for (int i = 199; i >= 50; --i) {
    s.pop(task);
    ASSERT_EQ(dlbkit::from_bytes<std::string>(task).size(), static_cast<std::size_t>(i % 13));
  }
  EXPECT_TRUE(s.empty());
}

// A worker's copy of its current task starts a cache line (the allocator rounds its length up
// to whole lines), whatever its length: two workers' copies never share one (they did, and a
// 2-worker uts run took 1.21 times as long).
TEST(TaskStack, ATaskBufferHasCacheLinesOfItsOwn) {
  dlbkit::detail::TaskStack s(0);
  std::vector<std::byte> bytes;
  for (const std::size_t length : {0, 1, 63, 64, 65, 1000}) {
    dlbkit::to_bytes(std::string(length, 'x'), bytes);
    s.push(bytes);
  }
  for (const std::size_t length : {1000, 65, 64, 63, 1, 0}) {
    dlbkit::detail::TaskBuffer task;
    s.pop(task);
    EXPECT_EQ(dlbkit::from_bytes<std::string>(task), std::string(length, 'x'));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(task.data()) % 64, 0u) << length;
  }
}

TEST(Runtime, PrintsTheReportAndTakesTheProgramsBaseline) {
  dlbkit::test::TreeApp tree(100, 2400);
  Runtime runtime(RuntimeOptions{.workers = 2});
  runtime.run(tree);
  const std::string text = report_of(runtime);
  EXPECT_NE(text.find("work_stealing on " + runtime.topology().spec() + ", threads engine, 2 workers, seed 1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("tasks executed       " + std::to_string(tree.expected().nodes)), std::string::npos) << text;
  EXPECT_NE(text.find("\n       1 "), std::string::npos) << text;  // worker 1's line
  const double t = runtime.last_run().elapsed_seconds;
  ASSERT_GT(t, 0);
  EXPECT_DOUBLE_EQ(runtime.efficiency(3 * t), 1.5);
}

TEST(Runtime, PrintErrorWritesOneLineOnRankZeroOnly) {
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  testing::internal::CaptureStderr();
  EXPECT_EQ(dlbkit::print_error(dlbkit::InputError("--engine 'gpu'; accepted: threads, mpi, sequential")), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "dlbkit: error: --engine 'gpu'; accepted: threads, mpi, sequential\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(dlbkit::print_error(std::runtime_error("task failed")), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "dlbkit: failed: task failed\n");
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  testing::internal::CaptureStderr();
  EXPECT_EQ(dlbkit::print_error(dlbkit::InputError("x")), 2);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  ::unsetenv("OMPI_COMM_WORLD_RANK");
}

namespace {

// What `f` wrote to stderr.
template <class F>
std::string stderr_of(F f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

std::size_t times_in(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

// The user's trial: a program without print_report() ran at 50 % efficiency in silence.
TEST(Runtime, WarnsOnStderrOnceUnlessQuiet) {
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  dlbkit::test::TreeApp tree(100, 2400);  // every root on worker 0: rid without retries never asks
  const RuntimeOptions rid{.strategy = "rid", .params = {"retry_on_update=false"}, .workers = 2};
  const std::string err = stderr_of([&] {
    Runtime runtime(rid);
    expect_same(runtime.run(tree), tree.expected());
    expect_same(runtime.run(tree), tree.expected());
  });
  EXPECT_EQ(times_in(err, "dlbkit: warning: rid with retry_on_update=false: 1 of the 2 workers start without tasks"),
            1u)
      << err;
  RuntimeOptions quiet = rid;
  quiet.quiet = true;
  EXPECT_EQ(stderr_of([&] {
              Runtime runtime(quiet);
              runtime.run(tree);
              EXPECT_FALSE(runtime.last_run().warnings.empty());  // still there for the program
            }),
            "");
}

// No MPI engine in this program: under a launcher of 2 processes each runs the threads
// engine, and says so once (rank 0 of the launcher's).
TEST(Runtime, TheThreadsEngineUnderALauncherWarns) {
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  ::setenv("OMPI_COMM_WORLD_RANK", "0", 1);
  const std::string err = stderr_of([] {
    Runtime runtime(RuntimeOptions{.workers = 2});
    EXPECT_EQ(runtime.engine(), "threads");
  });
  ::setenv("OMPI_COMM_WORLD_RANK", "1", 1);
  const std::string rank1 = stderr_of([] { Runtime runtime(RuntimeOptions{.workers = 2}); });
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  ::unsetenv("OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(err.find("dlbkit: warning: threads engine in each of the 2 processes mpirun started"), 0u) << err;
  EXPECT_EQ(times_in(err, "\n"), 1u) << err;
  EXPECT_EQ(rank1, "");
  const std::string alone = stderr_of([] { EXPECT_EQ(Runtime(RuntimeOptions{.workers = 2}).engine(), "threads"); });
  EXPECT_EQ(alone, "");
}

// The user's trial: the sequential engine reported P=2.
TEST(Runtime, TheSequentialEngineIsOneWorker) {
  dlbkit::test::TreeApp tree(100, 2400);
  Runtime runtime(RuntimeOptions{.engine = "sequential", .workers = 2});
  expect_same(runtime.run(tree), tree.expected());
  EXPECT_EQ(runtime.workers(), 1u);
  EXPECT_EQ(runtime.last_run().workers.size(), 1u);
  const std::string text = report_of(runtime);
  EXPECT_EQ(text.find("sequential engine, 1 worker\n"), 0u) << text;
}

// Several Runtimes in one process, in turn and at once, on every engine of this program.
TEST(Runtime, SeveralRuntimesInOneProcess) {
  dlbkit::test::TreeApp tree(100, 2400);
  for (int turn = 0; turn < 2; ++turn)
    for (const char* engine : {"threads", "sequential"}) {
      Runtime runtime(RuntimeOptions{.engine = engine, .workers = 2});
      expect_same(runtime.run(tree), tree.expected());
    }
  Runtime a(RuntimeOptions{.workers = 2}), b(RuntimeOptions{.strategy = "sid", .workers = 2});
  expect_same(a.run(tree), tree.expected());
  expect_same(b.run(tree), tree.expected());
}

// One reduce shape for both forms: Application::combine's, in place; the lambda form also
// takes a function returning the combination (std::plus<>{}).
TEST(Runtime, TheLambdaFormReducesInPlaceOrByValue) {
  static_assert(dlbkit::reduction_for<std::plus<>, int>);
  static_assert(dlbkit::reduction_for<void (*)(int&, const int&), int>);
  static_assert(!dlbkit::reduction_for<int (*)(int), int>);
  static_assert(!dlbkit::reduction_for<int (*)(int&, const int&), int>);  // neither in place nor by value
  static_assert(!dlbkit::reduction_for<std::plus<>, std::vector<int>>);
  Runtime runtime(RuntimeOptions{.workers = 3});
  std::vector<std::uint64_t> roots(1000);
  std::iota(roots.begin(), roots.end(), 0);
  const auto square = [](std::uint64_t v, auto& ctx) { ctx.result() += v * v; };
  const std::uint64_t in_place =
      runtime.run(roots, square, std::uint64_t{0}, [](std::uint64_t& into, const std::uint64_t& other) { into += other; });
  EXPECT_EQ(in_place, 332833500u);  // the sum of v^2 below 1000
  EXPECT_EQ(runtime.run(roots, square, std::uint64_t{0}, std::plus<>{}), 332833500u);
}

namespace {

// A strategy of the test's own: a worker whose queue holds 4 tasks or more sends half of
// them to its first neighbour.
class HalfToNeighbour final : public dlbkit::Strategy {
public:
  void on_load_change(dlbkit::NodeContext& ctx) override {
    if (ctx.migratable() >= 4) ctx.migrate(ctx.topology().neighbors(ctx.self())[0], ctx.migratable() / 2);
  }
};

}  // namespace

TEST(Runtime, RunsAStrategyOfTheProgramsOwn) {
  dlbkit::test::TreeApp tree(300, 2490);
  const dlbkit::StrategyInfo half{.name = "half_to_neighbour",
                                  .create = [](const dlbkit::Parameters&) { return std::make_unique<HalfToNeighbour>(); }};
  Runtime runtime(RuntimeOptions{.topology = "ring:3"}, half);
  expect_same(runtime.run(tree), tree.expected());
  EXPECT_EQ(runtime.strategy().name(), "half_to_neighbour");
  EXPECT_GT(runtime.last_run().tasks_moved(), 0u);
  for (const auto& w : runtime.last_run().workers) EXPECT_GT(w.tasks_executed, 0u);
  try {
    Runtime bad(RuntimeOptions{.params = {"u=1"}}, half);
    ADD_FAILURE() << "a parameter the strategy does not have was accepted";
  } catch (const dlbkit::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("u"), std::string::npos) << e.what();
  }
}

// docs/runtime.md's sample error lists every strategy of the registry: the line is the
// runtime's own message.
TEST(Runtime, TheDocsSampleErrorListsEveryStrategy) {
  std::ifstream docs(DLBKIT_TEST_DATA "/../../docs/runtime.md");
  ASSERT_TRUE(docs) << "docs/runtime.md";
  std::string line, sample;
  while (std::getline(docs, line))
    if (line.starts_with("dlbkit: error: unknown strategy 'fastest'")) sample = line;
  try {
    Runtime runtime(RuntimeOptions{.strategy = "fastest"});
    FAIL() << "strategy 'fastest' was accepted";
  } catch (const dlbkit::InputError& e) {
    EXPECT_EQ(sample, std::string("dlbkit: error: ") + e.what());
  }
}
