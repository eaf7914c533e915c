// dlbkit: the command-line tool. Bad input prints one line naming the problem and exits 2.
// A signal that ends it (SIGINT, SIGTERM, SIGHUP) first removes the files it was writing
// (io/temporary_files.hpp): the library installs no handler, the command does.

#include "commands.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/io/temporary_files.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace {

extern "C" void remove_outputs_and_die(int signal) {
  dlbkit::remove_temporary_files();
  std::signal(signal, SIG_DFL);
  std::raise(signal);  // the status says which signal ended the command
}

// What reached standard output is checked at the end; a write that failed on the way
// (fmt's "cannot write to file") is said the same way.
std::string standard_output_failure(int err) {
  return fmt::format("standard output: cannot be written ({})", std::strerror(err));
}

}  // namespace

int main(int argc, char** argv) {
  for (const int signal : {SIGINT, SIGTERM, SIGHUP})
    if (std::signal(signal, remove_outputs_and_die) == SIG_IGN) std::signal(signal, SIG_IGN);  // nohup stays
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
  add(dlbkit::cli::add_phases);
  add(dlbkit::cli::add_advise);
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
        if (std::fflush(stdout) != 0) throw std::runtime_error(standard_output_failure(errno));
        return status;
      }
  } catch (const std::system_error& e) {
    if (!std::ferror(stdout)) return dlbkit::print_error(e);
    return dlbkit::print_error(std::runtime_error(standard_output_failure(e.code().value())));
  } catch (const std::exception& e) {
    return dlbkit::print_error(e);  // under mpirun: rank 0 alone
  }
  return 0;
}
