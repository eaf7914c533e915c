#pragma once
/// \file
/// The choices a dlbkit::Runtime is made from: engine, strategy and its parameters,
/// topology, workers, seed. Written in code, or read from a command line with the spelling
/// of `dlbkit run`:
///
/// ```
/// dlbkit::RuntimeOptions o = dlbkit::RuntimeOptions::parse(argc, argv);
/// // --engine threads|mpi|sequential  --strategy NAME  -p name=value (repeatable)
/// // --topology SPEC|auto  --workers N  --seed S   (also -e -s -t -n, and --name=value)
/// ```
///
/// Bad input throws InputError with one line naming the value and what is accepted; the
/// same on every MPI rank, so dlbkit::print_error() prints it once.

#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

struct RuntimeOptions {
  std::string engine = "threads";         ///< threads, mpi (under mpirun) or sequential
  std::string strategy = "work_stealing"; ///< a name of `dlbkit list strategies`
  std::vector<std::string> params;        ///< the strategy's parameters, "name=value"
  std::string topology = "auto";          ///< one worker per node; auto: a network the strategy accepts
  std::uint64_t workers = 0;              ///< threads: 0 = one per core; mpi: the rank count (0)
  std::uint64_t seed = 1;                 ///< the workers' random streams

  /// Reads the options above from argv[1..argc-1]. An argument that is none of them is an
  /// InputError, unless `rest` is given: then it is appended there (with its value, when
  /// it is `--name value`: anything not starting with '-' that follows it), for the
  /// program's own options. argv[0] is skipped. Thread-safe.
  static RuntimeOptions parse(int argc, const char* const* argv, std::vector<std::string>* rest = nullptr);
};

}  // namespace dlbkit
