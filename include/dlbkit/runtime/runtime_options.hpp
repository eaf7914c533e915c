#pragma once
/// \file
/// The choices a dlbkit::Runtime is made from: engine, strategy and its parameters,
/// topology, workers, seed, how often a busy worker looks for messages, and whether it
/// warns. Written in code, or read from a command line beside the program's own options:
///
/// ```
/// std::uint32_t n = 12;
/// double tolerance = 0.1;
/// bool verbose = false;
/// std::string file;
/// const dlbkit::RuntimeOptions o = dlbkit::RuntimeOptions::parse(argc, argv, {
///     {"--n", n, 1, 20, "the board size"},  // an integer from 1 to 20, described in --help
///     {"--tolerance", tolerance, 0.0, 1.0},  // a real (finite) from 0 to 1
///     {"-v", verbose},                       // a flag
///     dlbkit::ProgramOption::positional("FILE", file)});  // `program [options] [FILE]`
/// // dlbkit's: --engine auto|threads|mpi|sequential  --strategy NAME  --param name=value
/// // (repeatable)  --topology SPEC|auto  --workers N  --seed S  --check-tasks N
/// // --poll-interval T  --record FILE  --timeline FILE  --timeline-nodes LIST  --quiet
/// // --help (and -h, unless the program has a -h)
/// ```
///
/// dlbkit's options are long ones only: every short option belongs to the program. Bad
/// input throws InputError with one line naming the value and what is accepted; the same
/// on every MPI rank, so dlbkit::print_error() prints it once. `--help` throws
/// HelpRequested (error.hpp), whose what() lists the program's options and dlbkit's: the
/// usual `catch (const std::exception& e) { return dlbkit::print_error(e); }` in main prints
/// it to stdout, once under MPI, and returns 0.

#include <dlbkit/core/number.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

#include <atomic>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlbkit {

struct StrategyInfo;

/// A number a ProgramOption reads: an integer (not bool) or a real.
template <class T>
concept option_number = (std::integral<T> && !std::same_as<T, bool>) || std::floating_point<T>;

/// One argument of the program's own, read by RuntimeOptions::parse into a variable of the
/// program. An option: `name` is its spelling ("--n", "-v"), `--name=value` works too. A
/// positional slot (positional()): the arguments that are no option fill the slots in the
/// order declared, and `--` makes every later argument positional (a negative number, say);
/// a slot left empty keeps its variable's value, an argument beyond the last slot is an
/// InputError. `description`, optional, is its line in --help, which adds what is accepted
/// and the variable's value at declaration as the default.
class ProgramOption {
public:
  /// `name N`: a number from `min` to `max` (a real: finite, in decimal), else InputError.
  template <option_number T>
  ProgramOption(std::string name, T& value, std::type_identity_t<T> min = std::numeric_limits<T>::lowest(),
                std::type_identity_t<T> max = std::numeric_limits<T>::max(), std::string description = {})
      : name_(std::move(name)), description_(std::move(description)), value_name_(std::integral<T> ? "N" : "X"),
        accepted_(std::integral<T> ? integers(text_of(min), text_of(max))
                                   : reals(min == std::numeric_limits<T>::lowest() ? "" : text_of(min),
                                           max == std::numeric_limits<T>::max() ? "" : text_of(max))),
        default_(text_of(value)), read_([&value, min, max](const std::string& text) {
          T v{};
          if (!parse_number(text, v) || v < min || v > max) return false;
          value = v;
          return true;
        }) {}
  /// The same, of any value of T.
  template <option_number T>
  ProgramOption(std::string name, T& value, std::string description)
      : ProgramOption(std::move(name), value, std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(),
                      std::move(description)) {}
  /// `name TEXT`.
  ProgramOption(std::string name, std::string& value, std::string description = {})
      : name_(std::move(name)), description_(std::move(description)), value_name_("TEXT"), default_(value),
        read_([&value](const std::string& text) {
          value = text;
          return true;
        }) {}
  /// `name` alone: sets `flag`.
  ProgramOption(std::string name, bool& flag, std::string description = {})
      : name_(std::move(name)), description_(std::move(description)), flag_(&flag) {}

  /// A positional slot named `name` in --help ("N", "FILE") of a number or a text, declared
  /// as an option is: positional("N", n, 1, 20, "the board size").
  template <class T, class... Rest>
    requires(!std::same_as<T, bool>)
  static ProgramOption positional(std::string name, T& value, Rest&&... range_and_description) {
    ProgramOption slot(std::move(name), value, std::forward<Rest>(range_and_description)...);
    slot.positional_ = true;
    return slot;
  }

  const std::string& name() const { return name_; }
  bool takes_value() const { return flag_ == nullptr; }
  bool is_positional() const { return positional_; }
  /// How --help shows it: "--n N", "-v", "FILE".
  std::string synopsis() const;
  /// Its line in --help: the description, what is accepted, the default.
  std::string help() const;
  /// Stores the value read from `text` (a flag ignores it); throws InputError naming the text
  /// and what is accepted.
  void read(const std::string& text) const;

private:
  template <option_number T>
  static std::string text_of(T x) {  // the shortest decimal that reads back as x
    char text[64];
    return std::string(text, std::to_chars(text, text + sizeof text, x).ptr);
  }
  static std::string integers(const std::string& min, const std::string& max);
  static std::string reals(const std::string& min, const std::string& max);  // "": no bound

  std::string name_, description_;
  std::string value_name_, accepted_, default_;  // "N", "an integer from 1 to 20" ("" for a text), "12"
  std::function<bool(const std::string&)> read_;  // false: the text is not accepted
  bool* flag_ = nullptr;
  bool positional_ = false;
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

  /// Reads the options above and the program's own from argv[1..argc-1]; argv[0] is the
  /// program's name in --help. An argument that is none of them is an InputError naming what
  /// is accepted. A program's option of the same name as one of dlbkit's takes its place.
  /// Throws HelpRequested for --help (or -h). Thread-safe.
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
