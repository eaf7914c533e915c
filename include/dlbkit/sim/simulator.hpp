#pragma once
/// \file
/// The discrete-event simulator of a multicomputer running one strategy.
///
/// ```
/// #include <dlbkit/workloads/builtin_workloads.hpp>   // builtin_workloads()
/// #include <dlbkit/strategies/builtin_strategies.hpp>  // builtin_strategies()
/// auto topology = dlbkit::parse_topology("hypercube:5");
/// auto workload = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "100"}}).create();
/// dlbkit::SimulationConfig config{
///     .topology = &topology,
///     .strategy = dlbkit::builtin_strategies().configure("rid", {}),
///     .workload = workload.get(),
///     .cost = dlbkit::make_cost_model("ipsc2"),
///     .seed = 1};
/// dlbkit::SimulationResult result = dlbkit::simulate(config);
/// ```
/// Events are ordered by time, ties in the order they were made, every node and the workload
/// draw from their own random streams: the same config gives the same result bit for bit. Each
/// node executes one task at a time, first come first served, or shares its processor
/// among all its tasks (Execution::processor_sharing); the cost model fixes what messages
/// cost and when a busy node looks at them. A simulation holds no global state:
/// several may run at once in different threads.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/sim/observer.hpp>
#include <dlbkit/sim/process_group.hpp>
#include <dlbkit/sim/workload.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlbkit {

/// How a node runs its tasks (docs/simulator.md).
enum class Execution : std::uint8_t {
  fcfs,               ///< one task at a time, first come first served; queued tasks may migrate
  processor_sharing,  ///< every task progresses at 1/n of the processor (time-shared
                      ///< processes); any task may migrate, carrying its remaining work
  lifo,               ///< one task at a time, the most recently queued first, as a runtime
                      ///< worker pops its stack; migrations take the oldest queued tasks
};

/// "fcfs", "processor_sharing" (also "ps") or "lifo"; anything else throws InputError.
Execution parse_execution(const std::string& text);
const char* to_string(Execution execution);

struct SimulationConfig {
  const Topology* topology = nullptr;
  StrategyChoice strategy;
  Workload* workload = nullptr;  ///< fresh for each run: workloads keep state
  CostModel cost;
  std::uint64_t seed = 1;
  std::vector<Observer*> observers;
  /// A run that handles more events than this stops with an error naming the strategy,
  /// instead of running forever (a strategy that keeps moving tasks without executing them).
  std::uint64_t event_limit = 20'000'000'000ULL;
  /// A run that takes longer than this many seconds of host time stops with
  /// EventLimitReached (checked every 65 536 events); 0: no limit.
  double wall_seconds_limit = 0;
  /// A run with more events than this, plus 64 per task created so far, at one simulated
  /// instant stops with an error (a strategy juggling tasks in zero time). 0: 64 (edges +
  /// nodes), at least ten million, far above a start-up broadcast of every node to every
  /// neighbour; the allowance per task keeps a legitimate burst of many tasks running.
  std::uint64_t instant_event_limit = 0;
  /// A run that migrates more tasks than this since the last completion anywhere stops with
  /// an error naming the strategy (tasks bouncing while none finishes). 0: 10 000
  /// migrations per unfinished task plus a million, far above what even a wasteful
  /// strategy (nna or liquid at a 1 ns period: ~1 000 per task) reaches.
  std::uint64_t stall_migration_limit = 0;
  Execution execution = Execution::fcfs;
  /// Each node's speed, a finite number > 0, or none: every node has speed 1. A node of
  /// speed s spends 1 / s of the simulated time on all its processor time: task work,
  /// message checks, sending and handling (docs/simulator.md, Nodes that differ in speed).
  std::vector<double> speeds;
  /// Threads to simulate on: the nodes in as many partitions, advancing in windows of the
  /// cost model's lookahead, with the very same result as on one (docs/simulator.md,
  /// "Parallel windows"). A run that cannot be split (SimulationResult::one_thread_because)
  /// runs on one.
  unsigned threads = 1;
  /// The processes simulating this run together (an MPI launch), each a partition of the
  /// nodes advancing in the same windows as threads do, with the same result; every process
  /// calls simulate() with the same config and gets the whole run's result. Null or one
  /// process: this process alone, on `threads`. Not with observers.
  const ProcessGroup* processes = nullptr;
};

struct NodeStats {
  SimTime busy = 0;      ///< executing tasks (simulated time: work / speed)
  SimTime overhead = 0;  ///< sending and handling messages
  SimTime finish = 0;    ///< when its last task completed
  std::uint64_t tasks_executed = 0;
  std::uint64_t tasks_sent = 0;
  std::uint64_t tasks_received = 0;
  std::uint64_t messages_sent = 0;
};

struct SimulationResult {
  SimTime makespan = 0;    ///< completion of the last task
  SimTime total_work = 0;  ///< sum of the work of every task executed (at speed 1)
  std::uint64_t tasks_created = 0;
  std::uint64_t tasks_completed = 0;
  std::uint64_t tasks_transferred = 0;  ///< task migrations (a task moved twice counts twice)
  std::uint64_t events = 0;
  std::uint64_t peak_pending_tasks = 0;
  /// The strategy's message kinds, then "task_transfer"; counts in the same order.
  std::vector<std::string> message_kinds;
  std::vector<std::uint64_t> messages_by_kind;
  std::vector<NodeStats> nodes;
  double wall_seconds = 0;  ///< host time the run took
  unsigned threads = 1;     ///< the threads it ran on
  unsigned processes = 1;   ///< the processes it ran on (SimulationConfig::processes), one thread each
  /// Why it ran on one thread though asked for more (SimulationConfig::threads), or whole
  /// in each of several processes (SimulationConfig::processes); else empty.
  std::string one_thread_because;

  std::uint64_t messages() const;
};

/// SimulationConfig::event_limit was reached before the last task completed.
struct EventLimitReached : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs the simulation to the completion of the last task. Throws InputError for an
/// unusable config (no topology or workload, a cost model that cannot carry tasks, a
/// strategy that cannot run on the topology, speeds not one per node or not > 0),
/// EventLimitReached at the event limit and std::runtime_error when another limit is
/// reached or simulated time would overflow.
SimulationResult simulate(const SimulationConfig& config);

/// The instant-event limit a simulation of `config` on `topology` applies
/// (SimulationConfig::instant_event_limit, or its default when 0).
std::uint64_t instant_event_limit(const SimulationConfig& config, const Topology& topology);

}  // namespace dlbkit
