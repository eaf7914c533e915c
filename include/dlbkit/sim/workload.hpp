#pragma once
/// \file
/// Where tasks come from: a static pool at time 0 (WLR93), tasks created when others
/// complete (tree searches), and arrivals from outside over time (open systems).
/// A workload object serves one simulation run; create a fresh one per run.

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/core/task.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/sim/deferred_tasks.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>

namespace dlbkit {

/// Receives the tasks a workload creates; the engine assigns the task ids.
class TaskSink {
public:
  virtual void add(NodeId node, SimTime work, std::uint32_t tag = 0) = 0;

protected:
  ~TaskSink() = default;
};

struct Arrival {
  SimTime time;
  NodeId node;
  SimTime work;
  std::uint32_t tag = 0;
};

class Workload {
public:
  virtual ~Workload() = default;
  /// The tasks present at time 0. `rng` is the workload's own stream.
  virtual void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) = 0;
  /// The same tasks, drawn when the engine takes them (sim/deferred_tasks.hpp), in place of
  /// initial_tasks(), or none where the workload cannot defer them. Leaves `rng` where
  /// initial_tasks() would.
  virtual std::unique_ptr<DeferredTasks> defer_initial_tasks(const Topology& /*topology*/, const CostModel& /*cost*/,
                                                             Rng& /*rng*/) {
    return nullptr;
  }
  /// Tasks created when `done` completes on `node` (children in a tree search).
  virtual void on_completed(const Task& /*done*/, NodeId /*node*/, Rng& /*rng*/, TaskSink& /*sink*/) {}
  /// The next arrival from outside at or after `now`, or none: called once at the start and
  /// again each time the previous arrival has happened.
  virtual std::optional<Arrival> next_arrival(SimTime /*now*/, Rng& /*rng*/) { return std::nullopt; }
  /// True when initial_tasks() gives every task and the two calls above create none
  /// (artificial, bnb with its static placements): NOBAL then needs no simulation (sim/nobal.hpp).
  virtual bool closed() const { return false; }
  /// True when on_completed() creates tasks only at the completing node, draws nothing from
  /// the workload's stream and changes no state but its tasks' own (below), and
  /// next_arrival() gives none: the simulator may then run partitions of the nodes at once
  /// (SimulationConfig::threads, processes).
  virtual bool runs_apart() const { return closed(); }

  /// Tasks whose state the workload keeps (a tree search's pending nodes, named by the
  /// task's tag): the state's size in bytes, 0 for none. In a run of partitions the state
  /// travels with a task that crosses to another partition, through the two calls below.
  virtual std::size_t task_state_bytes() const { return 0; }
  /// Before initial_tasks() in a run of partitions: partition p holds the nodes
  /// [bounds[p], bounds[p + 1]), and each keeps its tasks' states apart from the others'
  /// (the partitions run on threads of their own).
  virtual void split(std::span<const NodeId> /*bounds*/) {}
  /// A task of partition `part` leaving it: its state into `out` (task_state_bytes()),
  /// forgotten there.
  virtual void export_state(const Task& /*task*/, unsigned /*part*/, std::span<std::byte> /*out*/) {}
  /// A task arriving in partition `part` with `state`: its tag there.
  virtual std::uint32_t import_state(unsigned /*part*/, std::span<const std::byte> /*state*/) { return 0; }
  /// True when a task calls poll() as it runs, as WLR93's processes check messages (V-B),
  /// so that an engine looks at its messages inside the task; false for the tasks of an app
  /// that never polls (uts nodes, a recorded run whose tasks made no poll() call). With the
  /// cost model's checks = engines a task that does not poll is looked into only at its end.
  /// Asked after initial_tasks().
  virtual bool tasks_poll() const { return true; }
};

/// In a run of partitions (Workload::split's bounds), the partition that holds node v.
inline std::size_t partition_of(std::span<const NodeId> bounds, NodeId v) {
  return static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), v) - bounds.begin()) - 1;
}

struct WorkloadInfo {
  static constexpr const char* kind = "workload";
  std::string name;
  std::string description;
  std::string source;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Workload>(const Parameters&)> create;
};

/// The registry entry of a workload class W, which declares itself once, in static members
/// (name, description, source, params()), and is built from its validated Parameters.
template <class W>
WorkloadInfo workload_info() {
  return {.name = W::name,
          .description = W::description,
          .source = W::source,
          .params = W::params(),
          .create = [](const Parameters& p) -> std::unique_ptr<Workload> { return std::make_unique<W>(p); }};
}

using WorkloadRegistry = Registry<WorkloadInfo>;
using WorkloadChoice = Choice<WorkloadInfo>;

}  // namespace dlbkit
