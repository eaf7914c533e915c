#pragma once
// vt's LB data as the phases of a run, as `dlbkit phases --data` and `dlbkit advise --data`
// read it: one phase balanced, or every phase replayed; and the options that price a
// rebalancing step.

#include <dlbkit/phases/phase_workload.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit::cli {

/// A vt data set's phase as the run's one phase: the strategy balances its measured loads.
class DataPhase : public PhaseWorkload {
public:
  explicit DataPhase(const Phase& phase) : phase_(phase) {}
  Phase first_phase(std::size_t /*nodes*/, std::uint64_t /*seed*/) override { return phase_; }
  void next_phase(Phase& /*phase*/) override {}  // measured loads: the same in every phase

private:
  const Phase& phase_;
};

/// Every phase of a vt data set in turn: the objects of its first phase on their ranks, then
/// each phase's measured loads, matched by object id (a run that dlbkit::ObjectRuntime
/// recorded with --record, replayed under another strategy). A copy made before a run is
/// another run from the first phase; copies share the loads.
class DataReplay : public PhaseWorkload {
public:
  /// Throws InputError when a phase does not hold the first phase's objects.
  explicit DataReplay(const VtDataSet& data);
  Phase first_phase(std::size_t /*nodes*/, std::uint64_t /*seed*/) override { return data_->phases.front().phase; }
  void next_phase(Phase& phase) override;

private:
  const VtDataSet* data_;
  std::shared_ptr<const std::vector<std::vector<double>>> loads_;  // by phase, by object of the first phase
  std::size_t next_ = 0;
};

/// Reads STEM.R.json with a progress line on a terminal, as `command`.
VtDataSet read_data(const std::string& stem, const std::string& command);

/// The phase of id `id`, or the first when none is given; InputError when there is none.
const VtPhase& data_phase(const VtDataSet& data, std::optional<std::int64_t> id);

/// `spec` (complete:RANKS when empty) as the run's topology, refused when its nodes are not
/// the data's ranks.
Topology data_topology(const std::string& spec, const VtDataSet& data);

/// A number of bytes or an imbalance: >= 0, or inf.
double non_negative_or_inf(const std::string& text, const std::string& what);

/// What prices a rebalancing step, from the options' text: the cost model (a preset or
/// file:PATH, with --cost-param overrides), the time to migrate one object (the model's
/// per_task when empty) and one byte, and the memory bound.
RebalanceOptions rebalance_options(const std::string& cost, const std::vector<std::string>& cost_params,
                                   const std::string& migration_cost, const std::string& migration_byte_cost,
                                   const std::string& memory_bound, std::uint64_t seed);

}  // namespace dlbkit::cli
