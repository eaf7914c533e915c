// dlbkit: the command-line tool. Bad input prints one line naming the problem and exits 2.

#include "commands.hpp"

#include <dlbkit/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <string_view>
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

// An error is one line whatever the user typed: control characters echoed from the input
// (a newline in a spec, an escape sequence) are written as C escapes.
std::string one_line(std::string_view message) {
  std::string out;
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

void report(const char* kind, std::string_view message) {
  fmt::print(stderr, "dlbkit: {}: {}\n", kind, one_line(message));
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
  dlbkit::cli::check_option_values(app);
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
    report("error", e.what());
    return 2;
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) {
        const int status = run();
        // What was printed reaches its file only now: a full disk must not pass for success.
        if (std::fflush(stdout) != 0)
          throw std::runtime_error(fmt::format("standard output: cannot be written ({})", std::strerror(errno)));
        return status;
      }
  } catch (const dlbkit::InputError& e) {
    report("error", e.what());
    return 2;
  } catch (const std::exception& e) {
    report("failed", e.what());
    return 1;
  }
  return 0;
}
