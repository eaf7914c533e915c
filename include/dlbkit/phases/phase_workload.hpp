#pragma once
/// \file
/// The contract of an iterative workload: a first phase (objects, loads, communication and the
/// application's own mapping of them), then each next phase's loads as they drift. The
/// synthetic ones are in workloads/builtin_phase_workloads.hpp; a vt data set is read with vt_data.hpp.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlbkit {

class PhaseWorkload {
public:
  virtual ~PhaseWorkload() = default;
  /// The first phase on `nodes` nodes; the workload's random stream starts from `seed`.
  virtual Phase first_phase(std::size_t nodes, std::uint64_t seed) = 0;
  /// The next phase's loads, written into `phase.objects[i].load` (the objects, their
  /// communication and the mapping stay; a workload whose loads follow the mapping reads it).
  virtual void next_phase(Phase& phase) = 0;
};

struct PhaseWorkloadInfo {
  static constexpr const char* kind = "phase workload";
  std::string name;
  std::string description;
  std::string source;
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<PhaseWorkload>(const Parameters&)> create;
};

/// The registry entry of a phase workload class W, declared once in static members (name,
/// description, source, params()) and built from its Parameters.
template <class W>
PhaseWorkloadInfo phase_workload_info() {
  return {.name = W::name,
          .description = W::description,
          .source = W::source,
          .params = W::params(),
          .create = [](const Parameters& p) -> std::unique_ptr<PhaseWorkload> { return std::make_unique<W>(p); }};
}

using PhaseWorkloadRegistry = Registry<PhaseWorkloadInfo>;
using PhaseWorkloadChoice = Choice<PhaseWorkloadInfo>;

}  // namespace dlbkit
