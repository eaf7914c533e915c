#pragma once
/// \file
/// One measured comparison, as WLR93 Table IV reports it: a strategy and NOBAL on the same
/// tasks (same workload and seed), with the optimal time, the speedup over NOBAL and the
/// normalised performance Pi of eq. (36).

#include <dlbkit/sim/simulator.hpp>

#include <nlohmann/json.hpp>

#include <string>

namespace dlbkit {

struct ExperimentSetup {
  Topology topology;
  StrategyChoice strategy;
  WorkloadChoice workload;
  CostModel cost;
  std::uint64_t seed = 1;
  std::uint64_t event_limit = SimulationConfig{}.event_limit;  ///< of each run: SimulationConfig's
  double wall_seconds_limit = 0;                               ///< of each run: SimulationConfig's
  Execution execution = Execution::fcfs;
  std::vector<double> speeds;        ///< each node's speed; none: every node at speed 1 (SimulationConfig's)
  unsigned threads = 1;              ///< of each run: SimulationConfig's
  const ProcessGroup* processes = nullptr;  ///< of the strategy's run: SimulationConfig's
  std::vector<Observer*> observers;  ///< watch the strategy's run (not NOBAL's)
  /// NOBAL's run of this same setup, when the caller has it already (`dlbkit advise` runs
  /// many strategies on one setup): run_experiment takes it instead of simulating it again.
  const SimulationResult* nobal = nullptr;
};

struct ExperimentResult {
  SimulationResult balanced;
  SimulationResult nobal;
  /// T_op = T_uni / N in seconds: the total work spread evenly; with speeds, T_uni over the
  /// sum of the speeds (each node busy until the same time).
  double optimal = 0;
  double speedup = 0;  ///< T_nobal / T_bal
  double pi = 0;       ///< (T_nobal - T_bal) / (T_nobal - T_op), eq. (36)
  /// Why speedup or pi is undefined for this input (a division by zero), or empty when it
  /// is a number; an undefined figure is printed as `undefined` with the reason.
  std::string speedup_undefined, pi_undefined;
};

ExperimentResult run_experiment(const ExperimentSetup& setup);

/// How the nodes spent the run, in seconds: busy executing tasks, overhead sending and
/// handling messages, idle the rest of the makespan.
struct NodeTimes {
  double busy_mean = 0, busy_min = 0, busy_max = 0, overhead_mean = 0, idle_mean = 0;
};
NodeTimes node_times(const SimulationResult& result);

/// The inputs (enough to rerun) and the figures, as printed by `dlbkit simulate --json`.
nlohmann::json to_json(const ExperimentSetup& setup, const ExperimentResult& result, bool per_node = false);

}  // namespace dlbkit
