// Under mpirun: a program that owns MPI and a communicator of its own runs dlbkit::Runtime
// on it, a class-form tree count and a lambda-form census of serialised tasks, and every
// rank prints the typed results it got back. mpi_runtime_test.cpp checks every rank's line.

#include "../census_app.hpp"
#include "../tree_app.hpp"

#include <dlbkit/runtime/mpi_communicator.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <cstdio>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm mine;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  int status = 0;
  try {
    dlbkit::Runtime runtime(argc, argv, dlbkit::communicator(mine));
    dlbkit::test::TreeApp tree(300, 2490);
    const dlbkit::test::TreeCount count = runtime.run(tree);
    const dlbkit::test::Census census = dlbkit::test::census(runtime);
    std::string lengths;
    for (const auto& [length, n] : census.by_length) lengths += (lengths.empty() ? "" : ",") + std::to_string(n);
    std::printf("rank %d: nodes %llu leaves %llu id_sum %llu words %s greatest %s\n", runtime.rank(),
                static_cast<unsigned long long>(count.nodes), static_cast<unsigned long long>(count.leaves),
                static_cast<unsigned long long>(count.id_sum), lengths.c_str(), census.greatest.c_str());
  } catch (const std::exception& e) {
    status = dlbkit::print_error(e);
  }
  MPI_Comm_free(&mine);
  MPI_Finalize();
  return status;
}
