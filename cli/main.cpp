// dlbkit: the command-line tool. Bad input prints one line naming the problem and exits 2.

#include "commands.hpp"

#include <dlbkit/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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
  add(dlbkit::cli::add_calibrate);
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
    const int status = dlbkit::print_error(dlbkit::InputError(e.what()));
    return dlbkit::launcher_rank() > 0 ? 0 : status;
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
  } catch (const std::exception& e) {
    return dlbkit::print_error(e);  // under mpirun: rank 0 alone
  }
  return 0;
}
