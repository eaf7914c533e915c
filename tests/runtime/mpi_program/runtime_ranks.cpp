// Under mpirun: a program that owns MPI and a communicator of its own runs dlbkit::Runtime
// on it, a class-form tree count and a lambda-form census of serialised tasks, and every
// rank prints the typed results it got back. With --fail, a task throws on one rank, and
// every rank's run throws; with --bad-result, the result's serialiser on one rank. With --guest the program leaves MPI to dlbkit and runs two
// Runtimes in turn on MPI_COMM_WORLD; with --from-thread it makes its Runtime on a thread
// of its own under MPI_THREAD_SINGLE. mpi_runtime_test.cpp checks every rank's line.

#include "../census_app.hpp"
#include "../tree_app.hpp"

#include <dlbkit/runtime/mpi_communicator.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <cstdio>
#include <exception>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>
#include <mpi.h>

namespace {

void count(dlbkit::Runtime& runtime) {
  dlbkit::test::TreeApp tree(300, 2490);
  const dlbkit::test::TreeCount count = runtime.run(tree);
  const dlbkit::test::Census census = dlbkit::test::census(runtime);
  std::string lengths;
  for (const auto& [length, n] : census.by_length) lengths += (lengths.empty() ? "" : ",") + std::to_string(n);
  std::printf("rank %d: nodes %llu leaves %llu id_sum %llu words %s greatest %s\n", runtime.rank(),
              static_cast<unsigned long long>(count.nodes), static_cast<unsigned long long>(count.leaves),
              static_cast<unsigned long long>(count.id_sum), lengths.c_str(), census.greatest.c_str());
  std::fflush(stdout);
}

void fail(dlbkit::Runtime& runtime) {
  std::vector<int> roots(64);
  std::iota(roots.begin(), roots.end(), 0);
  try {
    runtime.run(roots, [](int v, auto&) { if (v == 41) throw std::domain_error("root 41"); }, 0, std::plus<>{});
  } catch (const std::exception& e) {
    std::printf("rank %d: the run threw\n", runtime.rank());
    std::fflush(stdout);
    throw;
  }
}

// A result that does not travel as its bytes: its own serialiser, which throws on rank 1.
struct Tally {
  std::vector<int> values;
  inline static int rank = -1;
  template <class A>
  void serialize(A& a) {
    if (rank == 1) throw std::runtime_error("rank 1's tally is bad");
    a(values);
  }
};

void bad_result(dlbkit::Runtime& runtime) {
  Tally::rank = runtime.rank();
  std::vector<int> roots(8, 1);
  try {
    runtime.run(roots, [](int v, auto& ctx) { ctx.result().values.push_back(v); }, Tally{},
                [](Tally& into, const Tally& other) { into.values.insert(into.values.end(), other.values.begin(),
                                                                        other.values.end()); });
  } catch (const std::exception& e) {
    std::printf("rank %d: the result threw\n", runtime.rank());
    std::fflush(stdout);
    throw;
  }
}

}  // namespace

int main(int argc, char** argv) try {
  bool fails = false, bad = false, guest = false, from_thread = false;
  const auto options = dlbkit::RuntimeOptions::parse(
      argc, argv, {{"--fail", fails}, {"--bad-result", bad}, {"--guest", guest}, {"--from-thread", from_thread}});
  if (guest) {  // MPI is dlbkit's: initialised by the first Runtime, finalised at exit
    for (int turn = 0; turn < 2; ++turn) {
      dlbkit::Runtime runtime(options);
      count(runtime);
    }
    return 0;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm mine;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  int status = 0;
  try {
    if (from_thread) {
      std::exception_ptr error;
      std::thread([&] {
        try {
          dlbkit::Runtime runtime(options, dlbkit::communicator(mine));
        } catch (...) {
          error = std::current_exception();
        }
      }).join();
      if (error) std::rethrow_exception(error);
    }
    dlbkit::Runtime runtime(options, dlbkit::communicator(mine));
    if (fails) fail(runtime);
    if (bad) bad_result(runtime);
    count(runtime);
  } catch (const std::exception& e) {
    status = dlbkit::print_error(e);
  }
  MPI_Comm_free(&mine);
  MPI_Finalize();
  return status;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
