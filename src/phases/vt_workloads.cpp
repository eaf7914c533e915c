#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_workloads.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace dlbkit {

namespace {

InputError no_phase(const VtDataSet& data) {
  return InputError(
      fmt::format("vt data {}: no phase in its files; accepted: files with at least one phase", data.stem));
}

}  // namespace

VtReplay::VtReplay(const VtDataSet& data) : data_(&data) {
  if (data.phases.empty()) throw no_phase(data);
}

std::vector<ObjectOrigin> VtReplay::next_phase(Phase& phase) {
  next_ = std::min(next_ + 1, data_->phases.size() - 1);
  phase = data_->phases[next_].phase;
  return {};  // vt's files do not say where a new task comes from
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
