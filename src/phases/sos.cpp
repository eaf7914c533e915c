// sos: second-order diffusion (Ghosh, Muthukrishnan, Schultz, SPAA'96) on the nodes' loads,
// realised by moving objects. In flow form (rounds/polynomial_kernel.hpp): each node keeps
// z(t) = (beta - 1) z(t-1) + beta l(t), z(0) = l(0), and sends alpha (z_v - z_u) to each
// neighbour u per round, so the loads follow l(t+1) = beta M l(t) + (1 - beta) l(t-1). The
// flow on an edge can exceed what first-order diffusion would send, and a node's outgoing
// flow its load (an overshoot the later rounds take back). alpha as for `diffusion`; beta auto
// is the optimal 2/(1 + sqrt(1 - gamma^2)) from gamma(M) (the task strategy `sos`'s betas).
// rounds auto: the t with (beta - 1)^(t/2) <= 1/F for the optimal beta, F as for `diffusion`
// (FlowStop::factor); for a given beta, first-order diffusion's count (eq. 11 of Cyb89), as no
// prediction is made for it.
//
// On nodes of unequal speed the same rounds on I - alpha L C^-1, as `diffusion` (Elsaesser,
// Monien, Preis 2002 treat FOS and SOS alike), the betas from heterogeneous_gamma's bound on
// gamma (a bound from above keeps the scheme convergent).
//
// The objects are chosen as for `diffusion` (phases/flows.hpp, realise), and the flow error measured
// the same way; the net flow summed over the rounds is what the objects follow, not the
// overshoots of single rounds.

#include "polynomial_flow_strategy.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/strategies/diffusion.hpp>
#include <dlbkit/strategies/sos.hpp>

namespace dlbkit {

namespace {

class Sos final : public detail::PolynomialFlowStrategy<Sos> {
public:
  static constexpr const char* name = "sos";
  static constexpr const char* description =
      "second-order diffusion on the loads, then each node ships objects matching the flow on each edge";
  static constexpr const char* source = "Ghosh, Muthukrishnan, Schultz SPAA'96; Cyb89 eq. 1a for M";
  static constexpr RealParam kAlpha{.name = "alpha", .default_value = "auto",
      .description = "alpha_ij on every edge, as for diffusion (capped at 1/max degree; auto: the optimal uniform "
                     "alpha)",
      .min = 0, .max = 1, .allow_auto = true};
  static constexpr RealParam kBeta{.name = "beta", .default_value = "auto",
      .description = "SOS parameter; auto: 2/(1 + sqrt(1 - gamma^2)) from gamma(M) (1 where gamma = 1)",
      .min = 1, .max = 2, .allow_auto = true};
  static std::vector<ParamSpec> params() { return with_flow_params({kAlpha, kBeta}); }

  using PolynomialFlowStrategy::PolynomialFlowStrategy;

  static detail::FlowScheme scheme(const Parameters& p, const Topology& t, double spread) {
    const double alpha = diffusion_agent_alpha(t, p.text(kAlpha.name));
    const double gamma = heterogeneous_gamma(uniform_gamma(t, alpha), spread);
    const bool optimal = p.is_auto(kBeta);
    return {.alpha = alpha,
            .betas = spread == 1 || !optimal ? sos_agent_betas(t, "sos", alpha, p.text(kBeta.name))
                     : gamma < 1         ? std::vector<double>{1.0, sos_beta(gamma)}
                                         : std::vector<double>{1.0},
            .rounds = detail::polynomial_rounds(p, t, name, alpha, gamma,
                                                optimal ? &SchemePrediction::sos : &SchemePrediction::fos)};
  }
};

}  // namespace

PhaseStrategyInfo sos_phase_strategy_info() { return phase_strategy_info<Sos>(); }

}  // namespace dlbkit
