// dlbkit::Runtime on the MPI engine (mpi_program/runtime_ranks.cpp under mpirun -np 2,
// with a time limit): typed results on every rank, class and lambda forms, serialised
// tasks and results, on the program's own communicator; options errors printed once.
#if defined(DLBKIT_MPIEXEC) && defined(DLBKIT_RUNTIME_RANKS)

#include "../support/command.hpp"
#include "tree_app.hpp"

#include <gtest/gtest.h>
#include <string>

namespace {

dlbkit::test::Outcome mpirun(int ranks, const std::string& args) {
  return dlbkit::test::run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 " DLBKIT_MPIEXEC
                                 " --oversubscribe -np " + std::to_string(ranks) + " " DLBKIT_RUNTIME_RANKS " " + args);
}

}  // namespace

TEST(MpiRuntime, EveryRankGetsTheTypedResults) {
  const auto expected = dlbkit::test::TreeApp(300, 2490).expected();
  const std::string results = "nodes " + std::to_string(expected.nodes) + " leaves " + std::to_string(expected.leaves) +
                              " id_sum " + std::to_string(expected.id_sum) +
                              " words 1,4,16,64,256,1024,4096 greatest dddddd\n";
  for (const std::string strategy : {"work_stealing", "sid"}) {
    SCOPED_TRACE(strategy);
    const auto o = mpirun(2, "--engine mpi --strategy " + strategy);
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.out.find("rank 0: " + results), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("rank 1: " + results), std::string::npos) << o.out;
  }
}

TEST(MpiRuntime, ATasksExceptionStopsEveryRankAndIsPrintedOnce) {
  const auto o = mpirun(2, "--engine mpi --fail");
  EXPECT_NE(o.status, 0);
  EXPECT_NE(o.out.find("rank 0: the run threw"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("rank 1: the run threw"), std::string::npos) << o.out;
  EXPECT_EQ(o.err.find("dlbkit: failed: "), 0u) << o.err;
  EXPECT_NE(o.err.find("root 41"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("dlbkit: failed: ", 1), std::string::npos) << o.err;  // once, not once per rank
}

TEST(MpiRuntime, BadOptionsArePrintedOnceByRankZero) {
  for (const std::string args : {"--engine mpi --strategy fastest", "--engine mpi --topology ring:3",
                                 "--engine mpi --workers 2", "--engine gpu"}) {
    SCOPED_TRACE(args);
    const auto o = mpirun(2, args);
    EXPECT_NE(o.status, 0);
    EXPECT_EQ(o.err.find("dlbkit: error: "), 0u) << o.err;
    EXPECT_EQ(o.err.find("dlbkit: error: ", 1), std::string::npos) << o.err;  // once, not once per rank
  }
}

#endif
