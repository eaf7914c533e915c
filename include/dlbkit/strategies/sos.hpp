#pragma once
/// \file
/// Second-order diffusion with real tasks: the `sos` (Ghosh, Muthukrishnan, Schultz) and
/// `chebyshev` (Diekmann, Frommer, Monien) agents, the integer schemes of
/// rounds/polynomial_kernel.hpp with deterministic rounding. Rounds as for `diffusion`
/// (strategies/diffusion.hpp): in round r a node exchanges its queued-task count L with all
/// neighbours, keeps for itself and for each neighbour z(r) = (beta_r - 1) z(r-1) + beta_r L(r)
/// (z(0) = L(0)), and ships trunc(alpha (z_self - z_neighbour)) tasks to each neighbour where
/// that is positive. A node that holds fewer tasks than its second-order flows ask for ships
/// what it has (the kernel would let its load go negative).
///
/// Parameters: alpha (as for diffusion), beta (sos: real in [1, 2] or auto = 2/(1 + sqrt(1 -
/// gamma^2)) from the spectrum), period.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

/// The betas the agents use on `topology` (beta_0 = 1, then beta_1, ...; the last holds on):
/// scheme "sos" or "chebyshev", alpha as diffusion_agent_alpha, beta "auto" or a number (sos).
/// Where gamma(M) = 1 (or alpha = 0) the automatic betas are all 1: first-order diffusion.
std::vector<double> sos_agent_betas(const Topology& topology, const std::string& scheme, double alpha,
                                    const std::string& beta);

}  // namespace dlbkit
