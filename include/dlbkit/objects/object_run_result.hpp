#pragma once
/// \file
/// What an ObjectRuntime measured (object_runtime.hpp): each phase's time and the workers'
/// loads in it, and each balancing step's figures. The same on every rank, but for the
/// balancing steps' times (decide, migrate, balancing_seconds), which are this rank's.

#include <cstddef>
#include <vector>

namespace dlbkit {

struct ObjectPhaseFigures {
  /// Wall time of the phase: from its start until every message reached its object (the
  /// slowest process's), without the balancing after it.
  double seconds = 0;
  /// The workers' loads: each the sum of its objects' loads (measured, or as the program set
  /// them), in seconds.
  double max_load = 0, mean_load = 0;
  double imbalance = 0;   ///< max_load / mean_load - 1 (0 without load)
  /// A balancing step follows the phase: it runs when the next phase starts (none follows
  /// the last phase; finish() clears the flag there).
  bool balanced = false;
  /// The messages sent in the phase, and the bytes of those between processes (serialised,
  /// with their ids and sizes: what the exchange carried; 0 between threads).
  double messages = 0, message_bytes = 0;
  /// Wall time from the end of the last worker's work to every message at its object (the
  /// exchange under MPI, the inboxes' filling on threads).
  double delivery_seconds = 0;
  /// Each worker's speed that the balancing weighs after this phase: the declared ones, or
  /// those estimated from the phases' times up to this one (--speeds measured); empty when
  /// all are taken as equally fast.
  std::vector<double> speeds;
};

struct ObjectBalanceFigures {
  std::size_t after_phase = 0;  ///< index of the phase whose loads it balanced
  /// Imbalance of the loads balanced (the load model's prediction for the next phase: with
  /// persistence, the phase's own) under the old mapping and under the new one.
  double imbalance_before = 0, imbalance_after = 0;
  std::size_t objects_migrated = 0;
  double bytes_migrated = 0;  ///< serialised objects between processes (0 between threads)
  double decide_seconds = 0;  ///< wall: gathering the loads and running the strategy
  double migrate_seconds = 0; ///< wall: moving the objects
};

struct ObjectRunResult {
  std::vector<ObjectPhaseFigures> phases;
  std::vector<ObjectBalanceFigures> balances;
  double phase_seconds = 0;      ///< every phase's seconds together
  double balancing_seconds = 0;  ///< every balancing step's decide and migrate seconds together
  double decide_seconds = 0, migrate_seconds = 0;  ///< its two parts, each summed over the steps
  std::size_t objects_migrated = 0;
  /// Objects made and destroyed after the first phase (ObjectRuntime's add, split and merge;
  /// remove, split and merge), over every process.
  std::size_t objects_created = 0, objects_destroyed = 0;
};

}  // namespace dlbkit
