// dlbkit: the command-line tool. Bad input prints one line naming the problem and exits 2.

#include "commands.hpp"

#include <dlbkit/error.hpp>

#include <fmt/format.h>
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Every rank of `mpirun dlbkit run ...` finds the same error: rank 0 reports it and exits 2,
    // the others leave quietly with 0, as run.cpp does for an InputError.
    if (dlbkit::launcher_rank() > 0) return 0;
    fmt::print(stderr, "dlbkit: error: {}\n", e.what());
    return 2;
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const std::exception& e) {
    return dlbkit::print_error(e);  // under mpirun: rank 0 alone
  }
  return 0;
}
