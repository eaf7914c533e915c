#pragma once
/// \file
/// The synthetic iterative workloads: objects on a 2-D mesh, each node holding a block of it
/// (the application's own decomposition), with a halo exchange between neighbouring objects
/// and loads that drift from phase to phase:
///   hotspot      a hot spot moving across the mesh
///   amr          refinement bursts: a region's cells split into 4 children each, which are
///                merged back when the burst ends (objects created and destroyed)
///   particles    particles advected and diffused between cells; load follows the count
///   random_walk  each object's load a multiplicative random walk
/// Parameters and their defaults: `dlbkit list phase-workloads`; docs/phases.md.
///
/// ```
/// auto workload = dlbkit::builtin_phase_workloads().configure("hotspot", {{"speed", "2"}}).create();
/// dlbkit::Phase phase = workload->first_phase(64, /*seed=*/1);
/// workload->next_phase(phase);  // the hot spot moved 2 objects on
/// ```

#include <dlbkit/phases/phase_workload.hpp>

namespace dlbkit {

/// Immutable, built on first use.
const PhaseWorkloadRegistry& builtin_phase_workloads();

}  // namespace dlbkit
