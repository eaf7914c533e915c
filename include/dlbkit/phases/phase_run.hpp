#pragma once
/// \file
/// Several phases in a row: phase k runs under the current mapping, its measured loads are
/// what the balancer sees at the synchronisation point after it, and the new mapping carries
/// over to phase k + 1, whose loads the workload then draws. The balancer is invoked after
/// every `every`-th phase, and also after any phase whose imbalance exceeds `threshold` (after
/// the last phase too: with one phase, the run is one rebalancing step). The objects may change
/// from one phase to the next (phase_workload.hpp): they are followed by id, a new one starting
/// on its origin's node, and a created or destroyed object is never counted as migrated.
///
/// ```
/// auto strategy = dlbkit::builtin_phase_strategies().configure("greedy", {});
/// auto workload = dlbkit::builtin_phase_workloads().configure("hotspot", {}).create();
/// dlbkit::PhaseRunResult run = dlbkit::run_phases(strategy, *workload, topology, {.phases = 20});
/// // run.application_seconds, run.unbalanced_seconds, run.steps[k].rebalanced ...
/// ```

#include <dlbkit/phases/phase_workload.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <functional>
#include <limits>
#include <optional>

namespace dlbkit {

struct PhaseRunOptions {
  std::size_t phases = 1;
  std::size_t every = 1;  ///< balance after every `every`-th phase
  /// Balance also after a phase whose imbalance exceeds this (infinity: only `every`).
  double threshold = std::numeric_limits<double>::infinity();
  RebalanceOptions rebalance;
  /// Called after each phase with the phases done so far (for a progress line).
  std::function<void(std::size_t)> on_phase;
  /// Called with each phase under the mapping it ran with (after = false), and again under the
  /// balancing step's mapping when one ran after it (after = true): to judge the mappings in
  /// another model (devices.hpp).
  std::function<void(const Phase& phase, bool after)> on_mapping;
};

struct PhaseStep {
  PhaseFigures figures;                   ///< the phase's loads under the mapping it ran with
  double communication_seconds = 0;       ///< what its crossing messages added to its time
  /// The same loads never balanced: each object on its node in the first phase it was in, a
  /// new one with an origin on the origin's node there.
  double unbalanced_max_load = 0;
  std::size_t objects = 0;                ///< in the phase
  /// Since the phase before (0 in the first phase).
  std::size_t objects_created = 0, objects_destroyed = 0;
  std::optional<Rebalanced> rebalanced;   ///< when the balancer ran after this phase
  double communication_seconds_after = 0; ///< when it ran: the communication under its mapping
};

struct PhaseRunResult {
  std::vector<PhaseStep> steps;
  /// Sum of the phases' times (max load + communication): the application's time.
  double application_seconds = 0;
  double communication_seconds = 0;  ///< the crossing messages' part of it
  double unbalanced_seconds = 0;     ///< the same, never balanced
  double balancing_seconds = 0;    ///< simulated: every step's protocol and migration time
  double wall_seconds = 0;         ///< this machine's time to decide, every step together
  std::size_t balancing_steps = 0;
  std::size_t objects_migrated = 0;
  std::size_t objects_created = 0, objects_destroyed = 0;  ///< every phase's together
  Phase last;                      ///< the last phase, with the mapping after it
};

/// Throws InputError for 0 phases or every = 0, for a workload's phase that check_phase()
/// refuses, that has two objects with one id or names an origin that is no object of the phase
/// before, or as rebalance() does.
PhaseRunResult run_phases(const PhaseStrategyChoice& strategy, PhaseWorkload& workload, const Topology& topology,
                    const PhaseRunOptions& options);

}  // namespace dlbkit
