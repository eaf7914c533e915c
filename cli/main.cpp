// dlbkit: the command-line tool. Bad input prints one line naming the problem and exits 2.

#include "commands.hpp"

#include <dlbkit/error.hpp>

#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <utility>
#include <vector>

namespace {

// This process's rank under an MPI launcher, else -1. A command line that does not parse
// stops before MPI_Init, so the rank comes from the variable the launcher sets (OpenMPI:
// OMPI_COMM_WORLD_RANK; MPICH's Hydra, Intel MPI: PMI_RANK; PMIx: PMIX_RANK). Calling
// MPI_Init to ask would need this test first anyway (in a plain run it would start an MPI
// singleton). Under a launcher that sets none of them every rank reports, as before.
int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dlbkit: dynamic load balancing strategies on simulated and real multicomputers"};
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, dlbkit::cli::Run>> commands;
  const auto add = [&](dlbkit::cli::Run (*adder)(CLI::App&)) {
    dlbkit::cli::Run run = adder(app);
    commands.emplace_back(app.get_subcommands({}).back(), std::move(run));
  };
  add(dlbkit::cli::add_list);
  add(dlbkit::cli::add_topology);
  add(dlbkit::cli::add_simulate);
  add(dlbkit::cli::add_demo);
  add(dlbkit::cli::add_reproduce);
  add(dlbkit::cli::add_tardiness);
  add(dlbkit::cli::add_analyze);
  add(dlbkit::cli::add_rounds);
  add(dlbkit::cli::add_spheres);
  add(dlbkit::cli::add_uts);
  add(dlbkit::cli::add_run);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every rank of `mpirun dlbkit run ...` finds the same error: rank 0 reports it and exits 2,
    // the others leave quietly with 0, as run.cpp does for an InputError.
    if (launcher_rank() > 0) return 0;
    fmt::print(stderr, "dlbkit: error: {}\n", e.what());
    return 2;
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const dlbkit::InputError& e) {
    fmt::print(stderr, "dlbkit: error: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "dlbkit: failed: {}\n", e.what());
    return 1;
  }
  return 0;
}
