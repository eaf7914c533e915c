#pragma once
/// \file
/// The registry of every workload dlbkit ships: the simulator's own (`artificial`) and the
/// applications' (`bnb`, `busy`, `uts`) and
/// the replay of a recorded run (`trace`).
///
/// ```
/// auto workload = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "100"}}).create();
/// ```

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

/// Immutable, built on first use.
const WorkloadRegistry& builtin_workloads();

}  // namespace dlbkit
