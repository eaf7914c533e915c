#pragma once
/// \file
/// Measuring a runtime engine's own costs on this machine, for the simulator's cost model
/// (`dlbkit calibrate`, docs/predict.md). Every figure comes from runs of the engine itself
/// on two workers, through the same worker, mailbox or MPI code a `dlbkit run` uses: probe
/// applications and probe strategies time ping-pongs, bursts and polls from inside, with
/// both workers busy (each runs a task that polls), as the simulator's latency means.
///
/// ```
/// dlbkit::EngineCosts costs = dlbkit::measure_engine_costs(
///     "threads", [](dlbkit::AnyApplication& app, const dlbkit::RuntimeConfig& c) { return dlbkit::run_threads(app, c); },
///     {.repetitions = 200});
/// dlbkit::CostModel model = costs.model("calibrated", 24);   // tasks of 24-byte records
/// ```
/// Under MPI every rank calls it (each probe is a collective run); the figures are rank 0's.

#include <dlbkit/core/time.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace dlbkit {

/// One run of an engine: run_threads, or run_mpi on a communicator of two ranks.
using EngineRun = std::function<RuntimeResult(AnyApplication&, const RuntimeConfig&)>;

struct CalibrationOptions {
  int repetitions = 200;                      ///< round trips, bursts and poll batches per figure
  int burst = 64;                             ///< messages per burst (send and handle costs)
  int tasks = 32;                             ///< tasks per transfer in the task ping-pongs
  SimTime poll_interval = 20 * kMicrosecond;  ///< the runtime's check interval, written to the model
};

/// The medians of the probes, in nanoseconds (doubles: some are below one).
struct EngineCosts {
  std::string engine;
  CalibrationOptions options;
  double one_way_message = 0;  ///< half a strategy message's round trip between two polling workers
  int round_trips_lost = 0;    ///< round trips not sampled because a worker lost its processor meanwhile
  double send = 0;             ///< sender's time per strategy message, from bursts
  double handle = 0;           ///< receiver's time per message, from bursts handled at one check point
  double one_way_task = 0;     ///< half the round trip of one task of 16 bytes
  double one_way_tasks = 0;    ///< half the round trip of `tasks` tasks of 16 bytes
  double per_task = 0;         ///< each further task of 16 bytes: (one_way_tasks - one_way_task) / (tasks - 1), paired
  double per_big_task = 0;     ///< the same for tasks of 4096 bytes
  double check = 0;            ///< one poll() that looks at the clock and makes a check point
  std::size_t small_record = 0, big_record = 0;  ///< bytes a 16-byte and a 4096-byte task take in a transfer

  /// Time per byte of a transferred task: (per_big_task - per_task) / (big_record - small_record).
  double per_byte() const;
  /// The cost model: send_overhead, handle_cost, latency = one_way_message - send - handle,
  /// per_task = per_task + per_byte (record_bytes - small_record) for tasks whose
  /// records take `record_bytes`, per_byte = per_byte(), poll_cost = check, poll_interval from the options,
  /// per_hop 0 (every worker reaches every other directly), tasks_per_message 1e6 (the
  /// engines move any number of tasks in one envelope); loop_time is left at 1.3 us for the
  /// caller to set. Negative differences (noise) are 0.
  CostModel model(const std::string& name, std::size_t record_bytes) const;
  /// Every figure, with the method and the repetitions.
  nlohmann::json to_json() const;
};

/// Runs the probes (each a run of `run` on two workers, hypercube:1). Throws InputError for
/// repetitions, burst or tasks below 2.
EngineCosts measure_engine_costs(const std::string& engine, const EngineRun& run, const CalibrationOptions& options);

}  // namespace dlbkit
