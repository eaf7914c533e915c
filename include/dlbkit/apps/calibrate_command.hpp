#pragma once
/// \file
/// One run of `dlbkit calibrate` from its inputs as a user writes them: the engine's costs
/// (runtime/calibration.hpp), the `busy` app's loop and an application's time per task,
/// measured on this machine, as a simulator cost model (docs/predict.md). The CLI and the
/// Python module both call calibrate_command(), so that they accept and refuse the same
/// values with the same messages; to_json() is the cost model file `dlbkit calibrate`
/// writes (and prints with --json), which `dlbkit simulate --cost file:PATH` reads.
///
/// ```
/// std::optional<dlbkit::CalibrationResult> r = dlbkit::calibrate_command(
///     {.app = "uts", .app_params = {"tree=T1"}, .output = "threads.json"});
/// // r->model.latency, r->costs.one_way_message, r->app["ns_per_task"] ...
/// ```

#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The inputs as the CLI's options hold them. Errors name them as the CLI's options.
struct CalibrateInputs {
  std::string engine = "threads";       ///< threads, or mpi with the MPI engine's runs (below)
  std::string app = "busy";             ///< the application whose time per task is measured
  std::vector<std::string> app_params;  ///< its parameters, "name=value"
  std::string name;                     ///< the cost model's name ("": calibrated-ENGINE)
  int repetitions = 200;                ///< round trips, bursts and poll batches per figure: 2 to 100000
  int app_runs = 3;                     ///< sequential runs of the application: 1 to 1000
  std::string poll_interval = "20us";   ///< the runtime's check interval, written to the model
  std::string output;                   ///< the cost model file to write ("": none)
};

struct CalibrationResult {
  EngineCosts costs;    ///< the engine's figures
  double loop_ns = 0;   ///< one busy loop of the `busy` app (the median over repetitions)
  /// The application's figures, sequential runs' medians: name, params, runs, tasks,
  /// result, statistic, ns_per_task and, where its result counts them, ns_per_step,
  /// ns_per_loop or ns_per_node.
  nlohmann::json app;
  /// costs.model() with loop_time from loop_ns, and the app's time per unit as the
  /// parameter of the simulator's workload of the same name (bnb's step_time, busy's
  /// loop_time, uts's node_time).
  CostModel model;
};

/// Measures (and writes `output`). `run` is the engine's runs: empty for the threads engine;
/// under MPI, run_mpi on a session of two ranks (runtime/mpi_engine.hpp), with every rank
/// calling calibrate_command with its `rank`: rank 0 alone then times the application and
/// returns the result, the others std::nullopt. Throws InputError naming the first value
/// refused, in the CLI's order.
std::optional<CalibrationResult> calibrate_command(const CalibrateInputs& in, const EngineRun& run = {}, int rank = 0);

/// The cost model file: the model's fields, and beside them `calibration`, the engine's and
/// the app's figures and the method, for people.
nlohmann::json to_json(const CalibrationResult& result);

}  // namespace dlbkit
