#pragma once
/// \file
/// One run of `dlbkit run` from its inputs as a user writes them: an application of
/// builtin_apps() executed for real by dlbkit::Runtime (threads, MPI or sequential engine),
/// beside the sequential run of the same tasks. The CLI and the Python module both call
/// run_command(), so that they accept and refuse the same values with the same messages and
/// report the same figures; to_json() is the document of `dlbkit run --json`.
///
/// ```
/// dlbkit::RunResult r = dlbkit::run_command({.app = "bnb", .app_params = {"n=10"}, .workers = "4"});
/// // r.same_result, r.efficiency, r.parallel.elapsed_seconds, dlbkit::to_json(r)["tasks_moved"] ...
/// ```
///
/// Under an MPI launcher (a program that links dlbkit::mpi, engine auto or mpi) every rank
/// calls it: an input that one rank refuses is thrown on every rank, and rank 0 alone runs
/// the sequential baseline, so its result alone has the comparison.

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>  // a program linking dlbkit::mpi gets the MPI engine
#include <dlbkit/runtime/run_result.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The inputs as the CLI's options hold them: texts, which the JSON document repeats as given
/// and errors name as the CLI's options (--seed ...).
struct RunInputs {
  std::string app;                      ///< a name of builtin_apps()
  std::vector<std::string> app_params;  ///< its parameters, "name=value"
  std::string strategy = "work_stealing";
  std::vector<std::string> params;  ///< the strategy's parameters, "name=value"
  std::string topology = "auto";    ///< one worker per node; auto: a network the strategy accepts
  std::string engine = "auto";      ///< auto, threads, mpi or sequential (RuntimeOptions::engine)
  std::string workers;              ///< threads with topology auto: the worker count ("": one per core)
  std::string seed = "1";
  std::string check_tasks = "1024";
  std::string poll_interval = "20us";
  std::string max_delay = "0";  ///< tests: hold every received message up to this long
  bool sequential = true;       ///< run the sequential baseline too (not with engine sequential)
  /// The runtime's outputs and warnings (RuntimeOptions): the parallel run's task tree and
  /// its timeline ("": none), the workers the timeline records ("": the first 64); quiet
  /// keeps the warnings off stderr (they stay in the result).
  std::string record, timeline, timeline_nodes;
  bool quiet = false;
};

/// Told how a run goes, for a progress line; the callbacks are called on rank 0 only, and
/// each may be empty.
struct RunProgress {
  std::function<void()> sequential;  ///< before the sequential run
  /// Before the run on the engine: "threads engine", "sequential engine" or "MPI engine
  /// (rank 0's count)", the count of tasks_executed.
  std::function<void(const std::string& engine)> parallel;
  std::atomic<std::uint64_t>* tasks_executed = nullptr;  ///< counts the tasks the workers (of this rank) executed
};

struct RunResult {
  nlohmann::json inputs;  ///< what ran, defaults resolved: the "inputs" of `dlbkit run --json`
  AppChoice app;          ///< the application with its parameters
  StrategyChoice strategy;
  int rank = 0;            ///< this process's rank under MPI, else 0
  RuntimeResult parallel;  ///< the run on the engine (every rank's figures, on every rank)
  nlohmann::json result;   ///< the application's result, as its report
  /// The sequential baseline where it ran (rank 0), its result and the comparison with it:
  /// whether the results are the same, T_seq / (P T_par) and sequential CPU / workers' CPU.
  std::optional<RuntimeResult> sequential;
  nlohmann::json sequential_result;
  bool same_result = true;
  double efficiency = 0, cpu_efficiency = 0;
};

/// Runs it. Throws InputError naming the first value refused, in the CLI's order; a task's
/// exception comes out as it was thrown (runtime/runtime.hpp).
RunResult run_command(const RunInputs& in, const RunProgress& progress = {});

/// The document of `dlbkit run --json`: the inputs, the result, the figures and every
/// worker's; with the sequential run, its figures and the comparison.
nlohmann::json to_json(const RunResult& result);

}  // namespace dlbkit
