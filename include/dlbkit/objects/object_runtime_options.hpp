#pragma once
/// \file
/// The choices a dlbkit::ObjectRuntime is made from (object_runtime.hpp): engine, phase
/// strategy and its parameters, topology, workers, seed, when to balance, and what to record.
/// Written in code, or read from a command line beside the program's own options:
///
/// ```
/// std::uint32_t phases = 100;
/// const auto o = dlbkit::ObjectRuntimeOptions::parse(argc, argv, {{"--phases", phases, 1, 100000}});
/// // dlbkit's: --engine auto|threads|mpi|sequential  --strategy NAME  --param name=value
/// // (repeatable)  --topology SPEC|auto  --workers N  --seed S  --every K  --threshold I
/// // --load-model persistence|linear  --load-window N  --work-model M  --speeds S0,S1,...|measured  --record STEM
/// // --timeline FILE  --quiet
/// // --help (and -h, unless the program has a -h)   (also --name=value)
/// ```
///
/// The program's options and positional arguments are declared as for RuntimeOptions::parse
/// (ProgramOption, runtime_options.hpp). Bad input throws InputError with one line naming
/// the value and what is accepted; --help throws HelpRequested, which print_error prints.

#include <dlbkit/runtime/runtime_options.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dlbkit {

struct ObjectRuntimeOptions {
  /// auto: mpi when an MPI launcher started this process among several and the program links
  /// dlbkit::mpi, threads otherwise; threads; mpi; sequential (one worker, no balancing).
  std::string engine = "auto";
  /// refine by default: the best across the examples and LBAF's data (docs/objects.md, "Which strategy")
  std::string strategy = "refine";  ///< a name of `dlbkit list phase-strategies`; none: never move
  std::vector<std::string> params;  ///< the strategy's parameters, "name=value"
  std::string topology = "auto";    ///< one worker per node; auto: complete:P
  std::uint64_t workers = 0;        ///< threads: 0 = one per core; mpi: the rank count (0)
  std::uint64_t seed = 1;           ///< the strategy's random stream
  /// Balance after every `every`-th phase; 0: no periodic balancing (balance() and
  /// `threshold` only).
  std::size_t every = 1;
  /// Balance also after a phase whose imbalance max/mean - 1 of the workers' measured times
  /// exceeds this (infinity: only `every`).
  double threshold = std::numeric_limits<double>::infinity();
  /// The loads the strategy balances, predicted for the next phase from the phases measured
  /// (DARMA vt's load models): persistence, the last phase's (vt's NaivePersistence, the
  /// principle of persistence); linear, a least-squares line through each object's last
  /// `load_window` phases, read one phase on (vt's LinearModel), never below 0.
  std::string load_model = "persistence";
  std::size_t load_window = 5;  ///< linear: the phases it fits (vt's default_past_len)
  /// What the strategy's criterion weighs (phases/work_model.hpp): load, or LBAF's work
  /// beta=B,gamma=G,delta=D; with beta, the runtime counts the messages between objects.
  std::string work_model = "load";
  /// Each worker's declared speed (phases/speeds.hpp; --speeds S0,S1,...): a worker of speed s
  /// runs in 1 / s seconds what takes 1 s on a worker of speed 1. An object's load is then its
  /// measured time x the speed of the worker where it ran, and the strategy, one that weighs
  /// speeds (every built-in one but tempered and hbm), balances times, load / speed
  /// (docs/objects.md, Workers that differ in speed). Empty: all equally fast.
  std::vector<double> speeds;
  /// Each worker's speed estimated from the phases' times in place of declared ones
  /// (--speeds measured; objects/speed_estimate.hpp), then weighed as declared ones are.
  bool measure_speeds = false;
  /// vt LB data stem: STEM.R.json for each worker R, each phase written as it ends, the files
  /// put in place at finish(); "": none
  std::string record;
  std::string timeline;  ///< Chrome trace-event JSON of phases and migrations at finish(); "": none
  bool quiet = false;    ///< no warnings on stderr

  /// Reads the options above and the program's own from argv[1..argc-1]; argv[0] is the
  /// program's name in --help.
  static ObjectRuntimeOptions parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program = {});
};

}  // namespace dlbkit
