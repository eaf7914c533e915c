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

#include <dlbkit/core/registry.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstddef>
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

/// The network of a run, the one check that `dlbkit run` and dlbkit::Runtime share: `spec`
/// parsed, or for "auto" the first network `strategy` accepts (auto_topology). `ranks` > 0
/// is an MPI run on that many ranks: the network must have that many nodes, and `workers`
/// must be 0. Otherwise `workers` (0: one per core) must match a network given by name.
/// Throws InputError naming the value and what is accepted.
Topology resolve_topology(const std::string& spec, const StrategyInfo& strategy, std::uint64_t workers,
                          std::size_t ranks);

/// `--workers` read from text: an integer from 1 to 4096, else InputError.
std::uint64_t parse_workers(const std::string& text);

}  // namespace dlbkit
