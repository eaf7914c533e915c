#pragma once
/// \file
/// Cybenko's diffusion and dimension exchange as message-driven agents (Cyb89 Sec. 2-4): the
/// round kernels' integer schemes with real tasks. Rounds run `period` apart (protocol in
/// src/strategies/edge_rounds.hpp and docs/strategies.md); in round r a node exchanges its
/// number of queued tasks L with its partners and ships
///
///     trunc(a (L_self - L_partner)) tasks to every partner it exceeds,
///
/// the rounding rule of rounds/round_kernel.hpp (the flow rounded toward zero, so both ends
/// agree and no task is lost or duplicated).
///   diffusion:          partners = all neighbours, a = alpha (eq. 1a-3).
///   dimension_exchange: partner = the neighbour across colour r mod C of the topology's edge
///                       colouring (the dimension on a hypercube, Sec. 4), a = lambda.
///
/// Parameters: diffusion: alpha (a real in [0, 1] or auto, the optimal uniform alpha of the
/// analysis; capped at 1/max degree, constraint (b) of Sec. 2), period. dimension_exchange:
/// lambda (real in [0, 1], default 1/2 as in Sec. 4), period.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

/// The alpha the diffusion agent uses on `topology` for the parameter text `alpha` ("auto" or
/// a number): min(alpha, 1/max degree), or the optimal uniform alpha for "auto".
double diffusion_agent_alpha(const Topology& topology, const std::string& alpha);

}  // namespace dlbkit
