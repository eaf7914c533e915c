#pragma once
/// \file
/// The reproductions beyond Cybenko (docs/reproductions/beyond.md):
///   beyond-steps        steps to shrink the error by 1e6 for FOS, SOS, Chebyshev and OPS on
///                       hypercubes and tori, beside the predictions from the spectrum
///                       (analysis/polynomial_schemes.hpp); -large: up to hypercube:20 and
///                       torus:4096x4096;
///   beyond-discrepancy  the final max - min of integer diffusion with deterministic,
///                       randomized and flow-imitation rounding, beside the published orders;
///                       -large: up to 2^24 nodes;
///   beyond-agents       every scheme as an agent in the simulator on WLR93's Table IV setting.
///
/// ```
/// for (auto& info : dlbkit::beyond_reproductions()) registry.add(std::move(info));
/// ```

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> beyond_reproductions();

}  // namespace dlbkit
