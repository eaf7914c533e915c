#pragma once
/// \file
/// vt's LB data as the phases of a run (`dlbkit phases --data`, `dlbkit advise --data`):
/// one phase balanced, or every phase replayed under the mapping a strategy keeps.
///
/// ```
/// dlbkit::VtDataSet data = dlbkit::read_vt_data("lb/run");      // what ObjectRuntime --record wrote
/// dlbkit::VtReplay replay(data);                                // every phase in turn
/// dlbkit::PhaseRunResult run = dlbkit::run_phases(greedy, replay, dlbkit::vt_topology("", data),
///                                           {.phases = data.phases.size()});
/// ```

#include <dlbkit/phases/phase_workload.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit {

/// A vt data set's phase as the run's one phase: the strategy balances its measured loads.
/// Refers to `phase`, which must outlive it.
class VtPhaseWorkload : public PhaseWorkload {
public:
  explicit VtPhaseWorkload(const Phase& phase) : phase_(phase) {}
  Phase first_phase(std::size_t /*nodes*/, std::uint64_t /*seed*/) override { return phase_; }
  void next_phase(Phase& /*phase*/) override {}  // measured loads: the same in every phase

private:
  const Phase& phase_;
};

/// Every phase of a vt data set in turn: the objects of its first phase on their ranks, then
/// each phase's measured loads, matched by object id (a run that dlbkit::ObjectRuntime
/// recorded with --record, replayed under another strategy). A copy made before a run is
/// another run from the first phase; copies share the loads. Refers to `data`, which must
/// outlive it.
class VtReplay : public PhaseWorkload {
public:
  /// Throws InputError when the data has no phase, or a phase does not hold the first phase's objects.
  explicit VtReplay(const VtDataSet& data);
  Phase first_phase(std::size_t /*nodes*/, std::uint64_t /*seed*/) override { return data_->phases.front().phase; }
  void next_phase(Phase& phase) override;

private:
  const VtDataSet* data_;
  std::shared_ptr<const std::vector<std::vector<double>>> loads_;  // by phase, by object of the first phase
  std::shared_ptr<const std::vector<std::vector<double>>> subphase_loads_;  // by phase, the same order
  std::size_t next_ = 0;
};

/// The phase of id `id`, or the first when none is given; InputError when there is none.
const VtPhase& vt_phase_or_first(const VtDataSet& data, std::optional<std::int64_t> id);

/// `spec` (complete:RANKS when empty) as the run's topology; InputError, naming -t/--topology,
/// when its nodes are not the data's ranks.
Topology vt_topology(const std::string& spec, const VtDataSet& data);

}  // namespace dlbkit
