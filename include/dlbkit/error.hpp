#pragma once
/// \file
/// The one exception type for bad user input: a topology spec, a parameter, a file.
/// Its message names the bad value and what would be accepted; the CLI prints it on one
/// line and exits with status 2. Broken internal invariants are asserted, not thrown.
/// And how an error on one rank reaches every rank (on_every_rank).

#include <cstddef>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace dlbkit {

class InputError : public std::invalid_argument {
public:
  explicit InputError(const std::string& what) : std::invalid_argument(what) {}
};

/// Not an error: a program's --help (RuntimeOptions::parse). what() is the usage, lines
/// ending in '\n', which print_error writes to stdout.
class HelpRequested : public std::runtime_error {
public:
  explicit HelpRequested(const std::string& usage) : std::runtime_error(usage) {}
};

/// A user's value as an error message quotes it: control characters and invalid UTF-8 as C
/// escapes (`\x1b`), at most `max_chars` characters, then "..." when cut, so that a
/// 10 000-digit spec or a binary file gives a short, printable line:
/// `throw InputError(fmt::format("unknown cost model '{}'; accepted: ...", excerpt(preset)));`
std::string excerpt(std::string_view value, std::size_t max_chars = 60);

/// For main's catch: prints `dlbkit: error: <what>` for an InputError (bad input, status 2)
/// or `dlbkit: failed: <what>` for any other exception (status 1) to stderr and returns
/// the status; for HelpRequested, its usage to stdout and status 0. Under an MPI launcher
/// only rank 0 of MPI_COMM_WORLD prints (the runtime throws the same error on every rank),
/// known from the launcher's environment (OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK), so
/// it works before MPI_Init too.
int print_error(const std::exception& error);

/// print_error on this rank whatever its rank: for an error that only this rank found.
int print_error_here(const std::exception& error);

/// This process's rank in MPI_COMM_WORLD as the launcher's environment tells it; -1 outside
/// a launcher.
int launcher_rank();

/// Collective: runs `work` on this rank, then `ranks.agree` with its exception or none
/// (ProcessGroup::agree, or any type with that member): an exception on one rank comes out
/// on every rank, so that none waits in the next collective for a rank that failed.
template <class Ranks, class Work>
void on_every_rank(const Ranks& ranks, Work&& work) {
  std::exception_ptr error;
  try {
    std::forward<Work>(work)();
  } catch (...) {
    error = std::current_exception();
  }
  ranks.agree(error);
}

}  // namespace dlbkit
