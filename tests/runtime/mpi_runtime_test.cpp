// dlbkit::Runtime on the MPI engine (mpi_program/runtime_ranks.cpp under mpirun -np 2,
// with a time limit): typed results on every rank, class and lambda forms, serialised
// tasks and results, on the program's own communicator; options errors and --help printed
// once; the engine taken from the launcher; several Runtimes in turn; the MPI thread level
// checked.
#if defined(DLBKIT_MPIEXEC) && defined(DLBKIT_RUNTIME_RANKS)

#include "../support/command.hpp"
#include "../support/mpirun.hpp"
#include "tree_app.hpp"

#include <gtest/gtest.h>
#include <string>

namespace {

dlbkit::test::Outcome launch(int ranks, const std::string& args) {
  return dlbkit::test::run_mpirun(ranks, DLBKIT_RUNTIME_RANKS " " + args);
}

// What every rank prints for runtime_ranks' counts.
std::string results() {
  const auto expected = dlbkit::test::TreeApp(300, 2490).expected();
  return "nodes " + std::to_string(expected.nodes) + " leaves " + std::to_string(expected.leaves) + " id_sum " +
         std::to_string(expected.id_sum) + " words 1,4,16,64,256,1024,4096 greatest dddddd\n";
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(MpiRuntime, EveryRankGetsTheTypedResults) {
  for (const std::string strategy : {"work_stealing", "sid"}) {
    SCOPED_TRACE(strategy);
    const auto o = launch(2, "--engine mpi --strategy " + strategy);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("rank 0: " + results()), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("rank 1: " + results()), std::string::npos) << o.out;
  }
}

// No --engine: mpirun's two processes are one run of the mpi engine, not two copies of the
// threads engine (which would both print "rank 0").
TEST(MpiRuntime, TheEngineIsTakenFromTheLauncher) {
  const auto o = launch(2, "");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(occurrences(o.out, "rank 0: " + results()), 1u) << o.out;
  EXPECT_EQ(occurrences(o.out, "rank 1: " + results()), 1u) << o.out;
  // No warning about the engine (a busy machine may still give "no task moved": a run of
  // work_stealing that ended before a steal, a warning about the balancing, not the engine).
  EXPECT_EQ(o.err.find("engine"), std::string::npos) << o.err;
}

// --engine threads under mpirun: two copies, as asked, and one line saying so.
TEST(MpiRuntime, TheThreadsEngineUnderMpirunWarnsOnce) {
  const auto o = launch(2, "--engine threads --workers 2");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(occurrences(o.out, "rank 0: " + results()), 2u) << o.out;
  EXPECT_EQ(occurrences(o.err, "dlbkit: warning: threads engine in each of the 2 processes mpirun started"), 1u)
      << o.err;
}

// --engine mpi without mpirun: one rank, the right count, and one line saying so.
TEST(MpiRuntime, TheMpiEngineWithoutALauncherWarns) {
  const auto o = dlbkit::test::run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 "
                                         DLBKIT_RUNTIME_RANKS " --engine mpi --guest");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(occurrences(o.out, "rank 0: " + results()), 2u) << o.out;
  EXPECT_EQ(occurrences(o.err, "dlbkit: warning: mpi engine on a single process"), 2u) << o.err;  // once per Runtime
}

// MPI left to dlbkit: the first Runtime initialises it, the second runs after the first
// is destroyed, and MPI is finalised once, at exit.
TEST(MpiRuntime, SeveralRuntimesRunInTurnWhenDlbkitOwnsMpi) {
  const auto o = launch(2, "--guest");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(occurrences(o.out, "rank 0: " + results()), 2u) << o.out;
  EXPECT_EQ(occurrences(o.out, "rank 1: " + results()), 2u) << o.out;
}

// MPI_Init gives MPI_THREAD_SINGLE: a Runtime on another thread is refused, with the level
// named, on every rank and printed once.
TEST(MpiRuntime, AThreadLevelTooLowIsAClearError) {
  const auto o = launch(2, "--from-thread");
  EXPECT_EQ(o.status, 2);
  EXPECT_EQ(o.err.find("dlbkit: error: MPI thread level MPI_THREAD_SINGLE with dlbkit::Runtime on a thread other than "
                       "the main one; accepted: MPI_Init_thread with MPI_THREAD_SERIALIZED"),
            0u)
      << o.err;
  EXPECT_EQ(occurrences(o.err, "dlbkit: error: "), 1u) << o.err;
}

TEST(MpiRuntime, ATasksExceptionStopsEveryRankAndIsPrintedOnce) {
  const auto o = launch(2, "--engine mpi --fail");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.out.find("rank 0: the run threw"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("rank 1: the run threw"), std::string::npos) << o.out;
  EXPECT_EQ(o.err.find("dlbkit: failed: "), 0u) << o.err;
  EXPECT_NE(o.err.find("root 41"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("dlbkit: failed: ", 1), std::string::npos) << o.err;  // once, not once per rank
}

TEST(MpiRuntime, AResultsSerialiserThatThrowsOnOneRankStopsEveryRank) {
  const auto o = launch(2, "--engine mpi --bad-result");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.out.find("rank 0: the result threw"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("rank 1: the result threw"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("rank 1's tally is bad"), std::string::npos) << o.err;
}

TEST(MpiRuntime, BadOptionsArePrintedOnceByRankZero) {
  for (const std::string args : {"--engine mpi --strategy fastest", "--engine mpi --topology ring:3",
                                 "--engine mpi --workers 2", "--engine gpu"}) {
    SCOPED_TRACE(args);
    const auto o = launch(2, args);
    EXPECT_NE(o.status, 0);
    EXPECT_EQ(o.err.find("dlbkit: error: "), 0u) << o.err;
    EXPECT_EQ(o.err.find("dlbkit: error: ", 1), std::string::npos) << o.err;  // once, not once per rank
  }
}

// --help under mpirun: the usage once, on stdout, and every rank exits 0.
TEST(MpiRuntime, HelpIsPrintedOnceByRankZero) {
  const auto o = launch(2, "--help");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(occurrences(o.out, "usage: "), 1u) << o.out;
  EXPECT_NE(o.out.find("\noptions:\n  --fail\n"), std::string::npos) << o.out;  // the program's own
  EXPECT_EQ(o.err, "");
}

#endif
