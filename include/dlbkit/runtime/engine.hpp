#pragma once
/// \file
/// Running an application for real: the sequential run, the threads engine (one worker
/// thread per virtual processor of a topology) and what they report. The MPI engine
/// (runtime/mpi_engine.hpp) takes the same configuration and gives the same report.
///
/// ```
/// auto topology = dlbkit::parse_topology("ring:4");
/// dlbkit::RuntimeConfig config{.topology = &topology,
///                              .strategy = dlbkit::builtin_strategies().configure("work_stealing", {})};
/// dlbkit::RuntimeResult parallel = dlbkit::run_threads(app, config);
/// dlbkit::RuntimeResult sequential = dlbkit::run_sequential(app, topology.size());
/// ```
///
/// Each worker runs the same Strategy objects as the simulator through a NodeContext of
/// real time (ns since the run started): load() is the tasks it holds, the executing one
/// included; migrate() ships the tasks it would execute last (the bottom of its stack).
/// A worker reaches a check point when `poll_interval` has passed since the previous one
/// (it looks at the clock after a number of tasks and poll() calls that it adapts so that a
/// look comes about every poll_interval / 8, at most `check_tasks`), at once when the
/// threads engine sees mail, and while idle: there it reads its mailbox,
/// fires timers and calls on_load_change when its load differs from the previous check
/// point.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/runtime/any_application.hpp>
#include <dlbkit/runtime/run_result.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/topology/topology.hpp>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

struct RuntimeConfig {
  const Topology* topology = nullptr;  ///< one worker per node
  StrategyChoice strategy;
  std::uint64_t seed = 1;              ///< the workers' random streams (Rng(seed, worker + 1))
  std::uint32_t check_tasks = 1024;    ///< at most this many tasks and poll() calls between looks at the clock
  SimTime poll_interval = 20 * kMicrosecond;  ///< least time between check points while busy
  /// Tests: every message a worker receives is held for a random time in [0, max_delay]
  /// before it is handled (in order per sender), as if it were still in flight.
  SimTime max_delay = 0;
  /// Where set, each worker adds the tasks it executed to this counter at its check points,
  /// for another thread to show progress (the MPI engine: this rank's tasks only).
  std::atomic<std::uint64_t>* progress = nullptr;
  /// Where set, the workers it records write their spans (busy, idle, overhead: check
  /// points that handled messages or timers), their load and their task transfers to it,
  /// each from a buffer of its own (docs/timeline.md). The MPI engine: this rank's workers,
  /// in rank 0's time (with the offset of this rank's clock to rank 0's and its error).
  Timeline* timeline = nullptr;
};

/// Every task on one thread, no strategy: the baseline of efficiency. The tasks are the
/// roots of all `workers` workers.
RuntimeResult run_sequential(detail::ByteApplication& app, std::size_t workers);

/// One thread per node of config.topology. Throws InputError for a missing topology or a
/// strategy that refuses the topology. When a task throws, every worker stops at its next
/// check point and the first exception thrown is rethrown here, as it was thrown.
RuntimeResult run_threads(detail::ByteApplication& app, const RuntimeConfig& config);

/// What the strategy knows before a run to keep workers idle, given the roots each worker
/// starts with (StrategyInfo::start_warning: `rid` with retry_on_update=false while a worker
/// starts without tasks, since it never asks). Empty when nothing is known.
std::vector<std::string> start_warnings(const detail::ByteApplication& app, const RuntimeConfig& config);

/// Efficiency of a parallel run against the sequential one: T_seq / (P T_par).
double efficiency(const RuntimeResult& sequential, const RuntimeResult& parallel);

/// The same from processor time, which other programs on the machine do not inflate:
/// sequential CPU / the workers' total CPU. It shows the engine's overhead (balancing,
/// spinning while idle) but not the waiting while a worker sleeps for work.
double cpu_efficiency(const RuntimeResult& sequential, const RuntimeResult& parallel);

/// The figures of a run for people: tasks executed and moved, messages by kind, then one
/// line per worker (busy, idle, CPU and idle CPU seconds, tasks executed,
/// sent, received, splits on demand). Lines end with '\n' and start with two spaces.
std::string format_figures(const RuntimeResult& result);

/// Whether the parallel result equals the sequential one on the application's exact keys.
bool same_result(const AnyApplication& app, const RuntimeResult& sequential, const RuntimeResult& parallel);

}  // namespace dlbkit
