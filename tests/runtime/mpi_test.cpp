// The MPI engine through `mpirun -np P dlbkit run --engine mpi`: exact optima for every
// strategy on 2 and 4 ranks, termination with held messages, bad input. Each run has a
// time limit (timeout 120 s), so a hang fails the test instead of stalling the suite.
#ifdef DLBKIT_MPIEXEC

#include "../support/command.hpp"
#include "../support/mpirun.hpp"
#include "../support/networks.hpp"
#include "../support/temp_path.hpp"
#include "../support/trace_format.hpp"

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

namespace {

using dlbkit::test::Outcome;

// `dlbkit run --engine mpi ARGS` on `ranks` processes; `environment`: VAR=value words for them.
Outcome mpirun(int ranks, const std::string& args, const std::string& environment = "") {
  return dlbkit::test::run_mpirun(ranks, DLBKIT_CLI " run --engine mpi " + args, environment);
}

std::int64_t optimum_of(int n, std::uint64_t seed) {
  dlbkit::Rng rng(seed);
  return dlbkit::solve_tardiness(dlbkit::generate_tardiness_instance(n, rng)).tardiness;
}

std::string params_for(const std::string& strategy) {
  return strategy == "rid" ? " -p retry_on_update=true" : "";
}

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

// --record under MPI: each rank writes its worker's section, rank 0 merges them into one
// trace holding every node of the tree once.
TEST(MpiEngine, RecordWritesOneTraceOfEveryRank) {
  const std::string tree = "type=geometric,shape=fixed,b0=4,depth=5,seed=19";
  const std::string trace = (std::filesystem::temp_directory_path() / "dlbkit-mpi-record.trace").string();
  const Outcome o = mpirun(2, "--app uts --app-param tree=" + tree + " --no-sequential --json --record " + trace);
  ASSERT_EQ(o.status, 0) << o.err;
  const dlbkit::TaskTree recorded = dlbkit::load_task_trace(trace);
  EXPECT_EQ(recorded.tasks(), dlbkit::uts::count_sequential(dlbkit::uts::parse_tree(tree)).nodes);
  EXPECT_EQ(recorded.workers, 2u);
  EXPECT_EQ(recorded.roots.size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(trace + ".part1"));
  std::filesystem::remove(trace);
}

// A strategy that throws bad input in a worker (semi_distributed checks range= against the
// topology at its start) is bad input on every rank, as on the threads engine: status 2.
TEST(MpiEngine, AStrategysErrorInAWorkerIsBadInput) {
  const Outcome o = mpirun(4, "--app bnb -s semi_distributed -p range=1 --no-sequential");
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_EQ(count_of(o.err, "dlbkit: error: strategy semi_distributed: range=1 on bisectional:3"), 1) << o.err;
}

// A rank that cannot finish its output stops every rank's: rank 0's timeline on a full
// device leaves neither rank 1's PATH.1 nor the trace nor a section file.
TEST(MpiEngine, AFailedOutputLeavesNoOtherFile) {
  const std::string dir = dlbkit::test::temp_dir("mpi-outputs");
  std::filesystem::create_directories(dir);
  const Outcome o = mpirun(2, "--app bnb --no-sequential --timeline /dev/full --record " + dir + "/r.trace");
  EXPECT_EQ(o.status, 2) << o.err;
  EXPECT_NE(o.err.find("dlbkit: error: /dev/full: cannot be written (No space left on device)"), std::string::npos)
      << o.err;
  EXPECT_FALSE(std::filesystem::exists("/dev/full.1"));
  EXPECT_TRUE(std::filesystem::is_empty(dir));
  std::filesystem::remove_all(dir);
}

// --timeline under MPI: rank 0 writes PATH, rank 1 PATH.1 (docs/timeline.md), each a
// well-formed trace of its own node with its clock's offset to rank 0's; the arrows of the
// run's transfers join the two files, in one time base.
TEST(MpiEngine, TimelineWritesAWellFormedTraceOfEachRank) {
  const std::string path = dlbkit::test::temp_path("mpi-timeline.json").string();
  const std::vector<std::string> files = {path, path + ".1"};
  for (const std::string& file : files) std::filesystem::remove(file);
  const Outcome o = mpirun(2, "--app busy --app-param granularity=20 --no-sequential --json --timeline " + path);
  ASSERT_EQ(o.status, 0) << o.err;
  std::vector<nlohmann::json> traces;
  for (std::size_t rank = 0; rank < files.size(); ++rank) {
    SCOPED_TRACE(files[rank]);
    traces.push_back(dlbkit::test::read_json(files[rank]));
    // Each file on its own is a trace (checked without its arrows, whose other end is in
    // the other file) whose one track is its rank's node.
    nlohmann::json alone = traces.back();
    std::erase_if(alone["traceEvents"].get_ref<nlohmann::json::array_t&>(),
                  [](const nlohmann::json& e) { return e.value("ph", "") == "s" || e.value("ph", "") == "f"; });
    const dlbkit::test::TraceSummary s = dlbkit::test::check_format(alone);
    EXPECT_EQ(s.named_threads, std::set<int>{static_cast<int>(rank)});
    ASSERT_EQ(s.clocks.size(), 1u);
    EXPECT_EQ(s.clocks.begin()->first, static_cast<int>(rank));
    if (rank == 0) {
      EXPECT_EQ(s.clocks.at(0).offset_ns, 0);
      EXPECT_EQ(s.clocks.at(0).error_ns, 0);
    }
    ASSERT_EQ(s.span_us.size(), 1u);
    EXPECT_EQ(s.span_us.begin()->first, static_cast<int>(rank));
    EXPECT_GT(s.counters, 0u);  // the load counter, at least when the worker first waits
  }
  const dlbkit::test::TraceSummary s = dlbkit::test::check_format(traces);
  EXPECT_LE(s.arrows, nlohmann::json::parse(o.out)["messages"]["task_transfer"].get<std::size_t>());
  for (const std::string& file : files) std::filesystem::remove(file);
}

// One time base for the ranks, whatever their clocks: DLBKIT_TEST_CLOCK_SKEW_US sets rank r's
// clock back by r seconds, as clocks on other hosts may be. Each rank must measure that as
// its offset to rank 0, within the error it states; in the trace merged by the command of
// docs/timeline.md, each node's spans keep their order without overlapping and every arrow
// ends after it starts, give or take the errors of its two ends. The same trace with the
// offsets taken out again (as if every rank's clock read rank 0's) has arrows that end
// before they start (all the work comes from rank 0): the check sees a time base that is off.
TEST(MpiEngine, TimelineRanksShareRankZerosTime) {
  constexpr std::int64_t kSkewNs = 1'000'000'000;
  const std::string path = dlbkit::test::temp_path("mpi-clock.json").string();
  std::vector<std::string> files = {path};
  for (int rank = 1; rank < 4; ++rank) files.push_back(path + "." + std::to_string(rank));
  for (const std::string& file : files) std::filesystem::remove(file);
  const Outcome o = mpirun(4, "--app uts --app-param tree=type=geometric,shape=fixed,b0=4,depth=7,seed=19 "
                              "-s work_stealing --no-sequential --json --timeline " + path,
                           "DLBKIT_TEST_CLOCK_SKEW_US=" + std::to_string(kSkewNs / 1000));
  ASSERT_EQ(o.status, 0) << o.err;
  std::string merge = "jq -s '{traceEvents: map(.traceEvents) | add}'";
  for (const std::string& file : files) merge += " " + dlbkit::test::shell_quote(file);
  const Outcome merged = dlbkit::test::run_shell(merge);
  ASSERT_EQ(merged.status, 0) << merged.err;
  const nlohmann::json trace = nlohmann::json::parse(merged.out);

  const dlbkit::test::TraceSummary s = dlbkit::test::check_format(trace);
  ASSERT_EQ(s.clocks.size(), 4u);
  for (const auto& [rank, clock] : s.clocks) {
    SCOPED_TRACE(rank);
    EXPECT_LE(std::abs(clock.offset_ns - rank * kSkewNs), clock.error_ns) << "offset " << clock.offset_ns;
  }
  EXPECT_EQ(s.span_us.size(), 4u);
  EXPECT_GT(s.arrows, 0u);

  nlohmann::json undone = trace;
  for (nlohmann::json& e : undone["traceEvents"])
    if (e.contains("ts")) {
      const std::int64_t ns = dlbkit::test::nanoseconds(e["ts"]) - s.clocks.at(e["tid"].get<int>()).offset_ns;
      e["ts"] = static_cast<double>(ns) / 1000;
    }
  EXPECT_FALSE(dlbkit::test::backward_arrows({undone}, s.clocks).empty());
  for (const std::string& file : files) std::filesystem::remove(file);
}

TEST(MpiEngine, EveryStrategyFindsTheOptimumOn2And4Ranks) {
  const std::int64_t optimum = optimum_of(9, 3);
  for (int ranks : {2, 4}) {
    for (const auto& info : dlbkit::builtin_strategies().all()) {  // every strategy of the registry
      const std::string& strategy = info.name;
      const auto network = ranks == 2 ? dlbkit::test::network_for(strategy, {"hypercube:1"})
                                      : dlbkit::test::network_for(strategy, {"hypercube:2", "ring:4", "bisectional:3"});
      // Two strategies have no two-node network: nna needs a ring (three nodes or more),
      // semi_distributed a scheduler set (bisectional:3 has 4 nodes, hypercube:3 has 8).
      if (!network && ranks == 2 && (strategy == "nna" || strategy == "semi_distributed")) continue;
      ASSERT_TRUE(network) << "no network of " << ranks << " nodes for " << strategy;
      const std::string& topology = *network;
      SCOPED_TRACE(strategy + " on " + topology);
      const Outcome o = mpirun(ranks, "--app bnb --app-param n=9 --app-param instance_seed=3 --app-param m=5 --json "
                                      "--topology " + topology + " --strategy " + strategy + params_for(strategy));
      ASSERT_EQ(o.status, 0) << o.err;
      const auto j = nlohmann::json::parse(o.out);
      EXPECT_EQ(j["result"]["optimum"], optimum);
      EXPECT_TRUE(j["same_result"].get<bool>());
      EXPECT_EQ(j["workers"].size(), static_cast<std::size_t>(ranks));
      EXPECT_EQ(j["inputs"]["engine"], "mpi");
    }
  }
}

// Safra's detection with transfers in flight: each rank holds every received envelope up
// to 500 us while it may already be passive and pass the token on. An instance of 11 jobs
// runs for about 0.15 s, long enough that ranks started late still take part and tasks move.
TEST(MpiEngine, TerminatesExactlyWithDelayedMessages) {
  const std::int64_t optimum = optimum_of(11, 5);
  for (const std::string strategy : {"work_stealing", "lifeline", "sid", "gm"}) {
    SCOPED_TRACE(strategy);
    const Outcome o = mpirun(4, "--app bnb --app-param n=11 --app-param instance_seed=5 --app-param m=4 --json "
                                "--max-delay 500us --check-tasks 1 --strategy " + strategy);
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["result"]["optimum"], optimum);
    EXPECT_TRUE(j["same_result"].get<bool>());
    EXPECT_GT(j["tasks_moved"].get<std::uint64_t>(), 0u);
  }
  const Outcome busy = mpirun(2, "--app busy --app-param granularity=20 --app-param total_load=4000 --json "
                                 "--max-delay 300us --strategy work_stealing");
  ASSERT_EQ(busy.status, 0) << busy.err;
  const auto j = nlohmann::json::parse(busy.out);
  EXPECT_EQ(j["result"]["tasks"], 40);
  EXPECT_TRUE(j["same_result"].get<bool>());
}

TEST(MpiEngine, UtsCountsAsPublished) {
  const std::vector<std::tuple<int, std::string, std::string>> runs = {
      {2, "T1", "work_stealing"}, {2, "T1", "rid"}, {2, "T1", "sid"}, {2, "T1", "gm"},           {2, "T1", "hbm"},
      {2, "T1", "dem"},           {2, "T1", "none"}, {4, "T3", "work_stealing"}, {4, "T3", "sid"},
      {2, "T1", "lifeline"},      {4, "T3", "lifeline"}};
  for (const auto& [ranks, tree, strategy] : runs) {
    SCOPED_TRACE(strategy + " " + tree + " on " + std::to_string(ranks) + " ranks");
    const dlbkit::uts::PublishedTree* published = nullptr;
    for (const auto& t : dlbkit::uts::published_trees())
      if (t.name == tree) published = &t;
    ASSERT_NE(published, nullptr);
    const Outcome o = mpirun(ranks, "--app uts --app-param tree=" + tree + " --json --no-sequential --strategy " +
                                        strategy + params_for(strategy));
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["result"]["nodes"], published->nodes);
    EXPECT_EQ(j["result"]["leaves"], published->leaves);
    EXPECT_EQ(j["result"]["max_depth"], published->max_depth);
    if (strategy != "none") {
      EXPECT_GT(j["tasks_moved"].get<std::uint64_t>(), 0u);
    }
  }
}

// tasks=subtree on 2 ranks: one task holds the whole tree on rank 0 and splits when a
// strategy asks; the count is the published one and rank 1 worked on what the splits gave.
TEST(MpiEngine, UtsSubtreeTasksCountAsPublishedAndSplit) {
  const dlbkit::uts::PublishedTree* t1 = dlbkit::uts::find_published("T1");
  ASSERT_NE(t1, nullptr);
  for (const std::string strategy : {"work_stealing", "lifeline", "rid"}) {
    SCOPED_TRACE(strategy);
    const Outcome o = mpirun(2, "--app uts --app-param tree=T1 --app-param tasks=subtree --json --strategy " +
                                    strategy + params_for(strategy));
    ASSERT_EQ(o.status, 0) << o.err;
    const auto j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["same_result"].get<bool>());  // against the app's sequential run
    EXPECT_EQ(j["result"]["nodes"], t1->nodes);
    EXPECT_EQ(j["result"]["leaves"], t1->leaves);
    EXPECT_EQ(j["result"]["max_depth"], t1->max_depth);
    EXPECT_GT(j["workers"][0]["splits"].get<std::uint64_t>(), 0u);
    EXPECT_GT(j["workers"][1]["tasks_received"].get<std::uint64_t>(), 0u);
  }
}

Outcome mpi_host(int ranks, const std::string& args) {
  return dlbkit::test::run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " DLBKIT_MPIEXEC
                                 " --oversubscribe -np " + std::to_string(ranks) + " " DLBKIT_MPI_HOST " " + args);
}

// A host program posts a wildcard receive on MPI_COMM_WORLD before the run: the engine talks
// on its own duplicate, so the receive keeps the host's message, and nothing hangs (before,
// a dlbkit message matched it, and on 4 ranks the run hung). The result is on every rank.
TEST(MpiEngine, LeavesTheHostsCommunicatorAlone) {
  for (int ranks : {2, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const Outcome o = mpi_host(ranks, "etiquette");
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(count_of(o.out, ": ok receive kept"), ranks) << o.out;
  }
}

// A task throws on one rank: every rank gets a TaskFailure naming it (the cause on that
// rank only), none aborts or hangs, and WORLD still works afterwards. Rank 0 throwing on its
// first task leaves the others mid-steal; rank 1 throwing after 30 tasks leaves the others
// executing and stealing.
TEST(MpiEngine, ATasksExceptionReachesEveryRank) {
  const std::vector<std::tuple<int, int, int, std::string>> cases = {
      {2, 0, 0, "work_stealing"}, {2, 1, 30, "work_stealing"}, {4, 0, 0, "work_stealing"},
      {4, 2, 30, "work_stealing"}, {4, 1, 30, "sid"},          {4, 3, 30, "rid"},
      {4, 0, 0, "lifeline"},      {4, 2, 30, "lifeline"},     {2, 1, -1, "work_stealing"},
      {4, 2, -1, "rid"}};  // -1: the roots() of that rank throws
  for (const auto& [ranks, thrower, after, strategy] : cases) {
    SCOPED_TRACE(strategy + ": rank " + std::to_string(thrower) + " of " + std::to_string(ranks) + " after " +
                 std::to_string(after));
    const Outcome o = mpi_host(ranks, "throw " + std::to_string(thrower) + " " + std::to_string(after) + " " + strategy);
    EXPECT_EQ(o.status, 0) << o.out << o.err;  // not 124 (a hang) nor 134 (an abort)
    // How much work a rank gets depends on timing: no exception is right only when the
    // thrower never came to its task number `after` (mpi_host checks that on every rank).
    if (count_of(o.out, "no exception") > 0) {
      EXPECT_EQ(count_of(o.out, "fewer than its throw, ok"), ranks) << o.out;
      continue;
    }
    EXPECT_EQ(count_of(o.out, "caught rank " + std::to_string(thrower) + " cause ok: a task threw on rank " +
                                  std::to_string(thrower) + (after < 0 ? ": the root" : ": node ")),
              ranks)
        << o.out;
    EXPECT_EQ(count_of(o.out, "is bad"), ranks) << o.out;
  }
}

// Split on demand between ranks: one long range task on rank 0 gives parts of its range to
// thieves; the sum is exact on every rank and the other ranks executed a real share of the
// elements (work counted, not timed).
TEST(MpiEngine, ALongTaskThatSplitsOnDemandSharesItsWorkBetweenRanks) {
  for (const std::string strategy : {"work_stealing", "lifeline"}) {
    SCOPED_TRACE(strategy);
    const Outcome o = mpi_host(2, "split " + strategy);
    EXPECT_EQ(o.status, 0) << o.out << o.err;
    EXPECT_EQ(count_of(o.out, "sum ok, elements ok"), 2) << o.out;
    const std::size_t at = o.out.find("away from rank 0: ");
    ASSERT_NE(at, std::string::npos) << o.out;
    const std::uint64_t away = std::stoull(o.out.substr(at + 18));
    EXPECT_GT(away, 30000u) << o.out;  // a tenth of the 300000 elements
  }
}

TEST(MpiEngine, BadInputGivesOneErrorFromRankZeroAndEveryRankExits) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--app bnb --topology ring:4", "has 4 nodes but 2 MPI ranks run"},
      {"--app bnb --topology complete:3", "has 3 nodes but 2 MPI ranks run"},
      {"--app nope", "unknown app 'nope'"},
      {"--app uts --app-param tree=T9", "T9"},
      {"--app bnb --strategy nope", "unknown strategy 'nope'"},
      {"--app bnb --strategy hbm --topology complete:3 --no-sequential", "strategy hbm needs 2^d nodes"},
      // Command-line syntax, refused by CLI11 before MPI_Init.
      {"--app bnb --bogus", "--bogus"},
      {"--app bnb --seed", "--seed"},
      {"--strategy sid", "--app is required"},
      {"--app bnb --seed -1", "--seed: '-1'"},
      {"--app bnb --check-tasks 0", "--check-tasks: '0'"},
      {"--app bnb --max-delay 5", "--max-delay: '5'"},
      {"--app bnb --workers 2", "--workers with --engine mpi"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    const Outcome o = mpirun(args.find("complete:3 --no") != std::string::npos ? 3 : 2, args);
    EXPECT_EQ(o.status, 2) << o.err;  // not 124: no rank hung
    EXPECT_EQ(count_of(o.err, "dlbkit: error:"), 1) << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << o.err;
    EXPECT_EQ(count_of(o.err, "MPI_ABORT"), 0) << o.err;
    EXPECT_EQ(count_of(o.err, "Segmentation"), 0) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
}

// Set-up that fails on one rank only (a file it cannot read, an input only it sees): the
// ranks agree before the run, the failing rank alone reports, and every rank exits.
TEST(MpiEngine, ASetUpFailingOnOneRankEndsEveryRankWithOneError) {
  const std::string dir = dlbkit::test::temp_dir("mpi-one-rank");
  std::filesystem::create_directories(dir);
  // {ranks, the failing rank, what it sees: "missing" (no file) or a bad edge line}
  const std::vector<std::tuple<int, int, std::string>> cases = {
      {2, 1, "missing"}, {2, 0, "0 x"}, {3, 1, "0 9"}, {3, 2, "missing"}, {4, 0, "missing"}, {4, 3, "1 1"}};
  for (const auto& [ranks, failing, bad] : cases) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks, rank " + std::to_string(failing) + " sees " + bad);
    for (int r = 0; r < ranks; ++r) {
      const std::string path = dir + "/net" + std::to_string(r);
      std::filesystem::remove(path);
      if (r == failing && bad == "missing") continue;
      std::ofstream net(path);
      net << "nodes " << ranks << "\n";
      for (int v = 0; v + 1 < ranks; ++v) net << v << ' ' << v + 1 << "\n";
      if (r == failing) net << bad << "\n";
    }
    // Each rank names its own file: the shell of each rank expands OMPI_COMM_WORLD_RANK.
    const Outcome o = dlbkit::test::run_shell(
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " DLBKIT_MPIEXEC " --oversubscribe -np " +
        std::to_string(ranks) + " sh -c 'exec " DLBKIT_CLI " run --engine mpi --app bnb --no-sequential --topology file:" +
        dir + "/net$OMPI_COMM_WORLD_RANK'");
    EXPECT_EQ(o.status, 2) << o.err;  // not 124: no rank waited for the failed one
    EXPECT_EQ(count_of(o.err, "dlbkit: error:"), 1) << o.err;
    EXPECT_NE(o.err.find(dir + "/net" + std::to_string(failing)), std::string::npos) << o.err;
    EXPECT_EQ(count_of(o.err, "MPI_ABORT"), 0) << o.err;
    EXPECT_TRUE(o.out.empty()) << o.out;
  }
  std::filesystem::remove_all(dir);
}

// No --engine under mpirun: the ranks are one run of the MPI engine (dlbkit run is a client
// of dlbkit::Runtime, which takes the engine from the launcher), reported once.
TEST(MpiEngine, TheEngineIsTakenFromTheLauncher) {
  const Outcome o = dlbkit::test::run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " DLBKIT_MPIEXEC
                                            " --oversubscribe -np 2 " DLBKIT_CLI " run --app queens --app-param n=8 "
                                            "--app-param depth=2");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(count_of(o.out, "mpi engine, 2 workers"), 1) << o.out;
  EXPECT_EQ(count_of(o.out, "solutions 92"), 1) << o.out;
  EXPECT_EQ(count_of(o.out, "same as sequential   yes"), 1) << o.out;
}

#endif  // DLBKIT_MPIEXEC
