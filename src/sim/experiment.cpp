#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/nobal.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlbkit {

namespace {

SimulationResult run_once(const ExperimentSetup& s, const StrategyChoice& strategy,
                          const std::vector<Observer*>& observers = {}) {
  auto workload = s.workload.create();
  SimulationConfig config{.topology = &s.topology, .strategy = strategy, .workload = workload.get(), .cost = s.cost, .seed = s.seed,
                          .observers = observers, .event_limit = s.event_limit,
                          .wall_seconds_limit = s.wall_seconds_limit, .execution = s.execution, .speeds = s.speeds,
                          .threads = s.threads, .processes = s.processes};
  return simulate(config);
}


}  // namespace

ExperimentResult run_experiment(const ExperimentSetup& setup) {
  ExperimentResult r;
  r.balanced = run_once(setup, setup.strategy, setup.observers);
  if (is_nobal(setup.strategy)) {
    r.nobal = r.balanced;
  } else if (setup.nobal != nullptr) {
    r.nobal = *setup.nobal;
  } else {
    r.nobal = simulate_nobal({.topology = &setup.topology, .strategy = builtin_strategies().configure("none", {}),
                              .cost = setup.cost, .seed = setup.seed, .event_limit = setup.event_limit,
                              .wall_seconds_limit = setup.wall_seconds_limit, .execution = setup.execution,
                              .speeds = setup.speeds, .threads = setup.threads},
                             setup.workload);
  }
  const double t_bal = to_seconds(r.balanced.makespan);
  const double t_nobal = to_seconds(r.nobal.makespan);
  const double capacity = setup.speeds.empty() ? static_cast<double>(setup.topology.size())
                                               : std::accumulate(setup.speeds.begin(), setup.speeds.end(), 0.0);
  r.optimal = to_seconds(r.balanced.total_work) / capacity;
  r.speedup = t_nobal / t_bal;
  r.pi = (t_nobal - t_bal) / (t_nobal - r.optimal);  // eq. (36)
  if (t_bal == 0) r.speedup_undefined = "the run took no time: the workload has no work";
  if (t_nobal == r.optimal)
    r.pi_undefined = t_nobal == 0 ? "the workload has no work"
                                  : "NOBAL is already optimal: there was no imbalance to remove";
  return r;
}

NodeTimes node_times(const SimulationResult& r) {
  NodeTimes t;
  if (r.nodes.empty()) return t;
  t.busy_min = 1e300;
  const double makespan = to_seconds(r.makespan), count = static_cast<double>(r.nodes.size());
  for (const NodeStats& n : r.nodes) {
    const double busy = to_seconds(n.busy), overhead = to_seconds(n.overhead);
    t.busy_min = std::min(t.busy_min, busy);
    t.busy_max = std::max(t.busy_max, busy);
    t.busy_mean += busy / count;
    t.overhead_mean += overhead / count;
    t.idle_mean += (makespan - busy - overhead) / count;
  }
  return t;
}

nlohmann::json to_json(const ExperimentSetup& s, const ExperimentResult& r, bool per_node) {
  using nlohmann::json;
  const SimulationResult& b = r.balanced;
  json messages = json::object();
  for (std::size_t k = 0; k < b.message_kinds.size(); ++k) messages[b.message_kinds[k]] = b.messages_by_kind[k];
  messages["total"] = b.messages();

  json nodes = json::array();
  if (per_node)
    for (const NodeStats& n : b.nodes) {
      const double busy = to_seconds(n.busy), overhead = to_seconds(n.overhead);
      nodes.push_back({{"busy", busy}, {"overhead", overhead}, {"idle", to_seconds(b.makespan) - busy - overhead},
                       {"finish", to_seconds(n.finish)}, {"tasks_executed", n.tasks_executed},
                       {"tasks_sent", n.tasks_sent}, {"tasks_received", n.tasks_received},
                       {"messages_sent", n.messages_sent}});
    }
  const NodeTimes times = node_times(b);

  json j;
  j["inputs"] = {
      {"topology", s.topology.spec()},
      {"strategy", {{"name", s.strategy.name()}, {"params", s.strategy.params.to_json()}}},
      {"workload", {{"name", s.workload.name()}, {"params", s.workload.params.to_json()}}},
      {"cost_model", s.cost.to_json()},
      {"seed", s.seed},
      {"execution", to_string(s.execution)},
  };
  if (!s.speeds.empty()) j["inputs"]["speeds"] = s.speeds;
  j["makespan"] = to_seconds(b.makespan);
  j["optimal"] = r.optimal;
  j["nobal_makespan"] = to_seconds(r.nobal.makespan);
  // An undefined figure is null, with the reason beside it.
  j["speedup"] = r.speedup_undefined.empty() ? json(r.speedup) : json(nullptr);
  if (!r.speedup_undefined.empty()) j["speedup_undefined"] = r.speedup_undefined;
  j["pi"] = r.pi_undefined.empty() ? json(r.pi) : json(nullptr);
  if (!r.pi_undefined.empty()) j["pi_undefined"] = r.pi_undefined;
  j["tasks"] = b.tasks_completed;
  j["tasks_transferred"] = b.tasks_transferred;
  j["messages"] = messages;
  j["events"] = b.events;
  j["wall_seconds"] = b.wall_seconds;
  j["events_per_second"] = b.wall_seconds > 0 ? static_cast<double>(b.events) / b.wall_seconds : 0.0;
  j["nodes"] = {{"busy_mean", times.busy_mean}, {"busy_min", times.busy_min}, {"busy_max", times.busy_max},
                {"idle_mean", times.idle_mean}, {"overhead_mean", times.overhead_mean}};
  if (per_node) j["per_node"] = nodes;
  return j;
}

}  // namespace dlbkit
