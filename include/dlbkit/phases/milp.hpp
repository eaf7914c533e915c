#pragma once
/// \file
/// The exact reference of a small phase (hundreds of objects, tens of nodes): the mapping of
/// least max load within the memory bound (where the phase has alphas, of least makespan: the
/// busiest node's time, alpha x load; "max load" below means that), and among those the one
/// that moves the fewest objects, by a mixed-integer program solved with COIN-OR CBC under a
/// time limit (docs/phases.md, "How far from the best"). A solver out of time gives its best
/// mapping and a proven lower bound, never a claim of optimality.
///
/// ```
/// dlbkit::MilpResult best = dlbkit::solve_milp(phase, {.memory_bound = 1e9, .time_limit = 60});
/// // best.optimal, best.max_load, best.max_load_lower_bound, best.mapping ...
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstddef>
#include <limits>
#include <vector>

namespace dlbkit {

struct MilpOptions {
  double memory_bound = std::numeric_limits<double>::infinity();  ///< bytes per node
  /// The bound holds for each group of this many consecutive nodes together (PhaseContext).
  std::size_t memory_group = 1;
  double time_limit = 60;  ///< seconds of this machine's time, both objectives together
  /// A mapping to start from (a strategy's answer), used when it is within the bound and has a
  /// lower max load than the phase's own; empty: the phase's.
  std::vector<NodeId> start;
};

struct MilpResult {
  bool found = false;       ///< a mapping within the memory bound was found (else mapping is the phase's)
  bool infeasible = false;  ///< proven: no mapping keeps every node (group) within the memory bound
  bool optimal = false;     ///< max_load proven the least possible
  bool migrations_minimal = false;  ///< and objects_migrated proven the fewest at that max load
  bool out_of_time = false;         ///< the time limit stopped the solver (in either objective)
  std::vector<NodeId> mapping;
  double max_load = 0;
  /// Proven: no mapping within the bound has a lower max load (lower_bound.hpp's bound, or
  /// the solver's when higher; the max load itself when optimal).
  double max_load_lower_bound = 0;
  std::size_t objects_migrated = 0;
  double wall_seconds = 0;
};

/// The most object-node pairs solve_milp() takes (its variables).
inline constexpr std::size_t kMilpMaxPairs = 1'000'000;

/// Throws InputError for a phase with more than kMilpMaxPairs objects x nodes, a time limit
/// not above 0, a memory group of 0 nodes, or as check_phase() does.
MilpResult solve_milp(const Phase& phase, const MilpOptions& options);

}  // namespace dlbkit
