#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_workloads.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <unordered_map>

namespace dlbkit {

namespace {

InputError no_phase(const VtDataSet& data) {
  return InputError(
      fmt::format("vt data {}: no phase in its files; accepted: files with at least one phase", data.stem));
}

}  // namespace

VtReplay::VtReplay(const VtDataSet& data) : data_(&data) {
  if (data.phases.empty()) throw no_phase(data);
  const Phase& first = data.phases.front().phase;
  std::unordered_map<std::uint64_t, std::size_t> index;
  for (std::size_t i = 0; i < first.objects.size(); ++i) index.emplace(first.objects[i].id, i);
  auto by_phase = std::make_shared<std::vector<std::vector<double>>>();
  auto parts_by_phase = std::make_shared<std::vector<std::vector<double>>>();
  for (const VtPhase& p : data.phases) {
    std::vector<double>& loads = by_phase->emplace_back(first.objects.size(), -1.0);
    std::vector<double>& parts = parts_by_phase->emplace_back(p.phase.subphase_loads.size());
    const auto other = [&] {
      return InputError(fmt::format("vt data {} phase {}: its objects are not phase {}'s; accepted with --replay: "
                                    "the same objects in every phase",
                                    data.stem, p.id, data.phases.front().id));
    };
    if (p.phase.objects.size() != first.objects.size()) throw other();
    const std::size_t s = p.phase.subphases;
    for (std::size_t i = 0; i < p.phase.objects.size(); ++i) {
      const auto it = index.find(p.phase.objects[i].id);
      if (it == index.end()) throw other();
      loads[it->second] = p.phase.objects[i].load;
      std::copy_n(p.phase.subphase_loads.begin() + static_cast<std::ptrdiff_t>(i * s), s,
                  parts.begin() + static_cast<std::ptrdiff_t>(it->second * s));
    }
  }
  loads_ = std::move(by_phase);
  subphase_loads_ = std::move(parts_by_phase);
}

void VtReplay::next_phase(Phase& phase) {
  next_ = std::min(next_ + 1, loads_->size() - 1);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) phase.objects[i].load = (*loads_)[next_][i];
  phase.subphases = data_->phases[next_].phase.subphases;
  phase.subphase_loads = (*subphase_loads_)[next_];
}

const VtPhase& vt_phase_or_first(const VtDataSet& data, std::optional<std::int64_t> id) {
  if (!id && data.phases.empty()) throw no_phase(data);
  return vt_phase(data, id ? *id : data.phases.front().id);
}

Topology vt_topology(const std::string& spec, const VtDataSet& data) {
  Topology topology = parse_topology(spec.empty() ? fmt::format("complete:{}", data.ranks) : spec);
  if (topology.size() != data.ranks)
    throw InputError(fmt::format("-t/--topology {} has {} nodes, vt data {} has {} ranks; accepted: a topology of "
                                 "{} nodes",
                                 spec, topology.size(), data.stem, data.ranks, data.ranks));
  return topology;
}

}  // namespace dlbkit
