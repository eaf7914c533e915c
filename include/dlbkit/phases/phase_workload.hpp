#pragma once
/// \file
/// The contract of an iterative workload: a first phase (objects, loads, communication and the
/// application's own mapping of them), then each next phase: the loads as they drift, and the
/// objects created and destroyed (an adaptive mesh refines a cell into children, coarsens them
/// back). The synthetic ones are in workloads/builtin_phase_workloads.hpp; a vt data set is
/// read with vt_data.hpp.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlbkit {

/// Where a new object of a next phase comes from: an object of the phase before (a refined
/// cell's parent; the first of the children a coarsening merged).
struct ObjectOrigin {
  std::uint64_t id = 0;    ///< the new object
  std::uint64_t from = 0;  ///< an object of the phase before
};

class PhaseWorkload {
public:
  virtual ~PhaseWorkload() = default;
  /// The first phase on `nodes` nodes; the workload's random stream starts from `seed`.
  virtual Phase first_phase(std::size_t nodes, std::uint64_t seed) = 0;
  /// The next phase, written into `phase`, which holds the phase before under the current
  /// mapping (a workload whose loads follow the mapping reads it): the objects' loads, and, for
  /// a workload whose objects change, the objects, their communication and node_of. Objects
  /// are matched by id (object_matching.hpp): one that stays keeps its id, and run_phases()
  /// keeps it on its node whatever node_of says; a new one has an id no object of the phase
  /// before has, and starts on its origin's node when the result names one, else on its node
  /// in node_of. Returns the new objects' origins.
  virtual std::vector<ObjectOrigin> next_phase(Phase& phase) = 0;
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
