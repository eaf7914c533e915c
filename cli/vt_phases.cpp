#include "vt_phases.hpp"
#include "progress_line.hpp"

#include <dlbkit/core/number.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <unordered_map>

namespace dlbkit::cli {

DataReplay::DataReplay(const VtDataSet& data) : data_(&data) {
  const Phase& first = data.phases.front().phase;
  std::unordered_map<std::uint64_t, std::size_t> index;
  for (std::size_t i = 0; i < first.objects.size(); ++i) index.emplace(first.objects[i].id, i);
  auto by_phase = std::make_shared<std::vector<std::vector<double>>>();
  for (const VtPhase& p : data.phases) {
    std::vector<double>& loads = by_phase->emplace_back(first.objects.size(), -1.0);
    const auto other = [&] {
      return InputError(fmt::format("vt data {} phase {}: its objects are not phase {}'s; accepted with --replay: "
                                    "the same objects in every phase",
                                    data.stem, p.id, data.phases.front().id));
    };
    if (p.phase.objects.size() != first.objects.size()) throw other();
    for (const PhaseObject& o : p.phase.objects) {
      const auto it = index.find(o.id);
      if (it == index.end()) throw other();
      loads[it->second] = o.load;
    }
  }
  loads_ = std::move(by_phase);
}

void DataReplay::next_phase(Phase& phase) {
  next_ = std::min(next_ + 1, loads_->size() - 1);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) phase.objects[i].load = (*loads_)[next_][i];
}

VtDataSet read_data(const std::string& stem, const std::string& command) {
  ProgressLine progress(true, command);
  progress.phase("reading " + stem);
  return read_vt_data(stem);
}

const VtPhase& data_phase(const VtDataSet& data, std::optional<std::int64_t> id) {
  if (!id && data.phases.empty())
    throw InputError(fmt::format("vt data {}: no phase in its files; accepted: files with at least one phase",
                                 data.stem));
  return vt_phase(data, id ? *id : data.phases.front().id);
}

Topology data_topology(const std::string& spec, const VtDataSet& data) {
  Topology topology = parse_topology(spec.empty() ? fmt::format("complete:{}", data.ranks) : spec);
  if (topology.size() != data.ranks)
    throw InputError(fmt::format("-t/--topology {} has {} nodes, vt data {} has {} ranks; accepted: a topology of "
                                 "{} nodes",
                                 spec, topology.size(), data.stem, data.ranks, data.ranks));
  return topology;
}

double non_negative_or_inf(const std::string& text, const std::string& what) {
  double x = 0;
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (!parse_number(text, x) || !std::isfinite(x) || x < 0)
    throw InputError(fmt::format("{} '{}' is not accepted; accepted: a number >= 0, or inf", what, excerpt(text)));
  return x;
}

RebalanceOptions rebalance_options(const std::string& cost, const std::vector<std::string>& cost_params,
                                   const std::string& migration_cost, const std::string& migration_byte_cost,
                                   const std::string& memory_bound, std::uint64_t seed) {
  RebalanceOptions ro;
  ro.cost = make_cost_model(cost, assignments(cost_params, "--cost-param"));
  ro.migration.per_object =
      migration_cost.empty() ? ro.cost.per_task : parse_duration(migration_cost, "--migration-cost");
  ro.migration.per_byte = parse_fractional_duration(migration_byte_cost, "--migration-byte-cost");
  ro.memory_bound = non_negative_or_inf(memory_bound, "--memory-bound");
  ro.seed = seed;
  return ro;
}

}  // namespace dlbkit::cli
