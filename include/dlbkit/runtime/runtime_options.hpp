#pragma once
/// \file
/// The choices a dlbkit::Runtime is made from: engine, strategy and its parameters,
/// topology, workers, seed, how often a busy worker looks for messages, and whether it
/// warns. Written in code, or read from a command line beside the program's own options:
///
/// ```
/// std::uint32_t n = 12;
/// bool verbose = false;
/// const dlbkit::RuntimeOptions o = dlbkit::RuntimeOptions::parse(argc, argv, {{"--n", n, 1, 20},
///                                                                             {"-v", verbose}});
/// // dlbkit's: --engine auto|threads|mpi|sequential  --strategy NAME  --param name=value
/// // (repeatable)  --topology SPEC|auto  --workers N  --seed S  --check-tasks N
/// // --poll-interval T  --record FILE  --timeline FILE  --timeline-nodes LIST  --quiet
/// // (also --name=value)
/// ```
///
/// dlbkit's options are long ones only: every short option belongs to the program. Bad
/// input throws InputError with one line naming the value and what is accepted; the same
/// on every MPI rank, so dlbkit::print_error() prints it once.

#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace dlbkit {

struct StrategyInfo;

/// One option of the program's own, read by RuntimeOptions::parse into a variable of the
/// program: `name` is its spelling ("--n", "-v"), `--name=value` works too.
class ProgramOption {
public:
  /// `name N`: an unsigned integer from `min` to `max`, else InputError.
  template <std::unsigned_integral T>
  ProgramOption(std::string name, T& value, std::uint64_t min = 0, std::uint64_t max = std::numeric_limits<T>::max())
      : name_(std::move(name)), read_([&value, min, max, spelling = name_](const std::string& text) {
          value = static_cast<T>(read_unsigned(text, spelling, min, std::min<std::uint64_t>(max, std::numeric_limits<T>::max())));
        }) {}
  /// `name TEXT`.
  ProgramOption(std::string name, std::string& value)
      : name_(std::move(name)), read_([&value](const std::string& text) { value = text; }) {}
  /// `name` alone: sets `flag`.
  ProgramOption(std::string name, bool& flag) : name_(std::move(name)), flag_(&flag) {}

  const std::string& name() const { return name_; }
  bool takes_value() const { return flag_ == nullptr; }
  /// Stores the option's value, read from `text` (a flag ignores it).
  void read(const std::string& text) const {
    if (flag_ != nullptr) *flag_ = true;
    else read_(text);
  }

private:
  static std::uint64_t read_unsigned(const std::string& text, const std::string& name, std::uint64_t min,
                                     std::uint64_t max);
  std::string name_;
  std::function<void(const std::string&)> read_;
  bool* flag_ = nullptr;
};

struct RuntimeOptions {
  /// auto: mpi when an MPI launcher started this process among several and the program
  /// links dlbkit::mpi, threads otherwise; threads; mpi (under mpirun); sequential.
  std::string engine = "auto";
  std::string strategy = "work_stealing"; ///< a name of `dlbkit list strategies`
  std::vector<std::string> params;        ///< the strategy's parameters, "name=value"
  std::string topology = "auto";          ///< one worker per node; auto: a network the strategy accepts
  std::uint64_t workers = 0;              ///< threads: 0 = one per core; mpi: the rank count (0)
  std::uint64_t seed = 1;                 ///< the workers' random streams
  std::uint32_t check_tasks = 1024;       ///< at most this many tasks and poll() calls between looks at the clock
  SimTime poll_interval = 20 * kMicrosecond;  ///< least time between a busy worker's check points
  bool quiet = false;  ///< no warnings on stderr (they stay in Runtime::last_run().warnings)
  /// Each run's task tree, with the time each task took, to this file (runtime/recording.hpp;
  /// `dlbkit simulate -w trace:PATH` replays it); under MPI on a file system the ranks share.
  /// "": none.
  std::string record;
  /// Each run as a timeline (Chrome trace JSON, for Perfetto: docs/timeline.md) to this file;
  /// under MPI rank r > 0 writes FILE.r when it runs a recorded worker. "": none.
  std::string timeline;
  std::string timeline_nodes;  ///< the workers the timeline records: all, or a list such as 0-7,12; "": the first 64
  std::string timeline_label;  ///< added to the timeline's title after the strategy and the network
  /// Where set, each worker adds the tasks it executed to this counter at its check points,
  /// for another thread to show progress (under MPI: this rank's workers).
  std::atomic<std::uint64_t>* progress = nullptr;
  /// Tests: every message a worker receives is held for a random time up to this long
  /// before it is handled (in order per sender), as if it were still in flight.
  SimTime max_delay = 0;

  /// Reads the options above and the program's own from argv[1..argc-1]; argv[0] is
  /// skipped. An argument that is none of them is an InputError naming what is accepted.
  /// A program's option of the same name as one of dlbkit's takes its place. Thread-safe.
  static RuntimeOptions parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program = {});
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

/// `--check-tasks` read from text: an integer from 1 to 2^30, else InputError.
std::uint32_t parse_check_tasks(const std::string& text);

}  // namespace dlbkit
