#include "node_speed.hpp"

#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <chrono>

namespace dlbkit {

namespace {

// Sums each node's tasks as the workload gives them, their work (at speed 1) and their time
// at the node's speed; notes what the simulation would refuse (it then runs and says why).
class NodeSums final : public TaskSink {
public:
  NodeSums(std::size_t nodes, const std::vector<double>& speeds) : stats(nodes), speeds_(speeds) {}
  void add(NodeId node, SimTime work, std::uint32_t) override {
    if (node >= stats.size() || work < 0 || work > 1'000'000 * kSecond) {
      refused = true;
      return;
    }
    const SimTime time = speeds_.empty() ? work : time_at_speed(work, speeds_[node]);
    NodeStats& s = stats[node];
    if (time < 0 || __builtin_add_overflow(s.busy, time, &s.busy)) refused = true;
    total_work += work;
    ++s.tasks_executed;
  }
  std::vector<NodeStats> stats;
  SimTime total_work = 0;
  bool refused = false;

private:
  const std::vector<double>& speeds_;
};

}  // namespace

bool is_nobal(const StrategyChoice& strategy) { return strategy.info == &builtin_strategies().find("none"); }

std::optional<SimulationResult> nobal_by_node(const SimulationConfig& config, bool* consumed) {
  if (consumed != nullptr) *consumed = false;
  if (config.topology == nullptr || config.workload == nullptr || !is_nobal(config.strategy) ||
      !config.workload->closed() || config.execution != Execution::fcfs || !config.observers.empty() ||
      config.cost.tasks_per_message < 1 ||
      (!config.speeds.empty() &&
       (config.speeds.size() != config.topology->size() || first_bad_speed(config.speeds) != config.speeds.size())))
    return std::nullopt;
  const auto wall_start = std::chrono::steady_clock::now();
  const Topology& topology = *config.topology;
  NodeSums sums(topology.size(), config.speeds);
  Rng rng(config.seed, 0);  // the workload's stream, as the simulator seeds it
  if (consumed != nullptr) *consumed = true;
  config.workload->initial_tasks(topology, config.cost, rng, sums);
  SimulationResult r;
  for (NodeStats& s : sums.stats) {
    // One event per task: its completion, at the sum of the times before it and its own.
    if (s.tasks_executed > 0) s.finish = s.busy;
    r.makespan = std::max(r.makespan, s.finish);
    r.tasks_created += s.tasks_executed;
  }
  r.total_work = sums.total_work;
  // The simulation's guard it could hit: more events than the limit. (One event per task
  // never exceeds the instant limit, which allows 64 events per task.)
  if (sums.refused || r.tasks_created > config.event_limit) return std::nullopt;
  r.tasks_completed = r.events = r.peak_pending_tasks = r.tasks_created;
  r.message_kinds = config.strategy.info->message_kinds;
  r.message_kinds.push_back("task_transfer");
  r.messages_by_kind.assign(r.message_kinds.size(), 0);
  r.nodes = std::move(sums.stats);
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

SimulationResult simulate_nobal(const SimulationConfig& config, const WorkloadChoice& workload) {
  SimulationConfig c = config;
  auto w = workload.create();
  c.workload = w.get();
  bool consumed = false;
  if (auto r = nobal_by_node(c, &consumed)) return std::move(*r);
  if (consumed) {
    w = workload.create();
    c.workload = w.get();
  }
  return simulate(c);
}

}  // namespace dlbkit
