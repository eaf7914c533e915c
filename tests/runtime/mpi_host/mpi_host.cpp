// A host program that uses the MPI engine as a library, run by mpi_test.cpp under mpirun.
//   mpi_host etiquette       posts a wildcard receive on MPI_COMM_WORLD, runs, checks that the
//                            receive still gets the host's own message afterwards and that the
//                            result is the same on every rank
//   mpi_host throw R K S     a task on rank R throws after that rank executed K tasks, with
//                            strategy S; every rank must catch a TaskFailure naming rank R,
//                            unless rank R executed K tasks or fewer; with K = -1 the program's
//                            roots() throws on rank R, before any task runs
//   mpi_host split S         one long range task on rank 0 that splits on demand, strategy S:
//                            each rank prints the sum and the elements executed away from rank 0
// Each rank prints one line starting "rank <r>:"; the test reads them.
#include "../tree_app.hpp"

#include <dlbkit/runtime/mpi_engine.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

namespace {

using dlbkit::test::ThrowingTree;
using dlbkit::test::TreeCount;

std::map<std::string, std::string> params_for(const std::string& strategy) {
  if (strategy == "rid") return {{"retry_on_update", "true"}};
  return {};
}

int etiquette(int rank, int size) {
  int incoming = -1;
  MPI_Request host_receive;
  MPI_Irecv(&incoming, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &host_receive);

  ThrowingTree app(-1, 0);
  const dlbkit::Topology topology = dlbkit::parse_topology("complete:" + std::to_string(size));
  const dlbkit::RuntimeConfig config{.topology = &topology,
                                     .strategy = dlbkit::builtin_strategies().configure("work_stealing", {}),
                                     .seed = 3};
  const dlbkit::RuntimeResult r = dlbkit::run_mpi(app, config);  // on MPI_COMM_WORLD
  const TreeCount expected = app.expected();
  TreeCount got;
  std::memcpy(&got, r.result.data(), sizeof got);

  int stolen = 0;
  MPI_Status status;
  MPI_Test(&host_receive, &stolen, &status);  // nothing of dlbkit's may have matched it
  MPI_Barrier(MPI_COMM_WORLD);                 // every rank has looked before any host message goes
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  const int mine = 1000 + rank;
  MPI_Send(&mine, 1, MPI_INT, to, 77, MPI_COMM_WORLD);
  if (!stolen) MPI_Wait(&host_receive, &status);
  const bool ok = !stolen && incoming == 1000 + from && status.MPI_TAG == 77 && got.nodes == expected.nodes &&
                  got.id_sum == expected.id_sum && r.workers.size() == static_cast<std::size_t>(size) &&
                  r.tasks_executed() == expected.nodes;
  std::printf("rank %d: %s receive %s, message %d tag %d, nodes %llu of %llu, moved %llu\n", rank, ok ? "ok" : "FAILED",
              stolen ? "stolen" : "kept", incoming, status.MPI_TAG, static_cast<unsigned long long>(got.nodes),
              static_cast<unsigned long long>(expected.nodes), static_cast<unsigned long long>(r.tasks_moved()));
  return ok ? 0 : 1;
}

int throwing(int rank, int size, int thrower, long after, const std::string& strategy) {
  ThrowingTree app(thrower, after);
  const dlbkit::Topology topology = dlbkit::parse_topology(
      strategy == "hbm" || strategy == "lifeline" ? "hypercube:" + std::to_string(size == 4 ? 2 : 1)
                                                  : "complete:" + std::to_string(size));
  const dlbkit::RuntimeConfig config{.topology = &topology,
                                     .strategy = dlbkit::builtin_strategies().configure(strategy, params_for(strategy)),
                                     .seed = 5};
  try {
    const dlbkit::RuntimeResult r = dlbkit::run_mpi(app, config, MPI_COMM_WORLD);
    // How much work a rank gets depends on timing: no exception is right only when the
    // thrower never came to its task number `after` (the result is the same on every rank).
    const std::uint64_t executed = r.workers.at(static_cast<std::size_t>(thrower)).tasks_executed;
    const bool right = executed <= static_cast<std::uint64_t>(after);
    std::printf("rank %d: no exception, the thrower executed %llu tasks: %s\n", rank,
                static_cast<unsigned long long>(executed), right ? "fewer than its throw, ok" : "the exception was LOST");
    return right ? 0 : 1;
  } catch (const dlbkit::TaskFailure& e) {
    bool cause_ok = (rank == e.rank()) == static_cast<bool>(e.cause());
    if (e.cause()) {
      try {
        std::rethrow_exception(e.cause());
      } catch (const std::runtime_error& original) {
        cause_ok = cause_ok && std::string(original.what()).find("is bad") != std::string::npos;
      }
    }
    std::printf("rank %d: caught rank %d cause %s: %s\n", rank, e.rank(), cause_ok ? "ok" : "WRONG", e.what());
    // The engine freed its communicator: WORLD still works for the host.
    MPI_Barrier(MPI_COMM_WORLD);
    return 0;
  }
}

int splitting(int rank, int size, const std::string& strategy) {
  constexpr std::uint64_t n = 300000;
  dlbkit::test::RangeApp app(n, true);
  const dlbkit::Topology topology = dlbkit::parse_topology("complete:" + std::to_string(size));
  const dlbkit::RuntimeConfig config{.topology = &topology,
                                     .strategy = dlbkit::builtin_strategies().configure(strategy, {}),
                                     .seed = 9};
  const dlbkit::RuntimeResult r = dlbkit::run_mpi(app, config);
  const dlbkit::test::RangeSum s = app.parse(r);
  std::uint64_t expected = 0;
  for (std::uint64_t i = 0; i < n; ++i) expected += dlbkit::test::RangeApp::element(i);
  std::uint64_t splits = 0, elements = 0;
  for (const auto& w : r.workers) splits += w.splits;
  for (int w = 0; w < size; ++w) elements += s.by_worker[w];
  std::printf("rank %d: sum %s, elements %s, away from rank 0: %llu of %llu, splits %llu, moved %llu\n", rank,
              s.sum == expected ? "ok" : "WRONG", elements == n ? "ok" : "WRONG",
              static_cast<unsigned long long>(n - s.by_worker[0]), static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(splits), static_cast<unsigned long long>(r.tasks_moved()));
  return s.sum == expected && elements == n ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  dlbkit::MpiSession mpi(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "etiquette") return etiquette(mpi.rank(), mpi.size());
  if (mode == "throw" && argc == 5)
    return throwing(mpi.rank(), mpi.size(), std::atoi(argv[2]), std::atol(argv[3]), argv[4]);
  if (mode == "split" && argc == 3) return splitting(mpi.rank(), mpi.size(), argv[2]);
  std::fprintf(stderr, "usage: mpi_host etiquette | throw RANK AFTER STRATEGY | split STRATEGY\n");
  return 2;
}
