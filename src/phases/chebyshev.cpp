// chebyshev: Chebyshev-accelerated diffusion (Diekmann, Frommer, Monien, Parallel Computing
// 25, 1999) on the nodes' loads, realised by moving objects: the rounds of `sos` with beta
// varying by round, beta_1 = 1, beta_2 = 2/(2 - gamma^2), beta_(t+1) = 4/(4 - gamma^2 beta_t)
// (analysis/polynomial_schemes.hpp), tending to the SOS beta. alpha as for `diffusion`.
// rounds auto: the t with 2 r^t / (1 + r^(2t)) <= 1/F, r = (beta_SOS - 1)^(1/2), F as for
// `diffusion` (FlowStop::factor).
//
// On nodes of unequal speed the same rounds on I - alpha L C^-1, as `diffusion` (Elsaesser,
// Monien, Preis 2002 treat FOS and SOS alike), the betas from heterogeneous_gamma's bound on
// gamma (a bound from above keeps the scheme convergent).
//
// The objects are chosen as for `diffusion` (phases/flows.hpp, realise), and the flow error measured
// the same way.

#include "polynomial_flow_strategy.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/strategies/diffusion.hpp>
#include <dlbkit/strategies/sos.hpp>

namespace dlbkit {

namespace {

class Chebyshev final : public detail::PolynomialFlowStrategy<Chebyshev> {
public:
  static constexpr const char* name = "chebyshev";
  static constexpr const char* description =
      "Chebyshev-accelerated diffusion on the loads, then each node ships objects matching the flow on each edge";
  static constexpr const char* source = "Diekmann, Frommer, Monien, Parallel Computing 25 (1999)";
  static constexpr RealParam kAlpha{.name = "alpha", .default_value = "auto",
      .description = "alpha_ij on every edge, as for diffusion (capped at 1/max degree; auto: the optimal uniform "
                     "alpha)",
      .min = 0, .max = 1, .allow_auto = true};
  static std::vector<ParamSpec> params() { return with_flow_params({kAlpha}); }

  using PolynomialFlowStrategy::PolynomialFlowStrategy;

  static detail::FlowScheme scheme(const Parameters& p, const Topology& t, double spread) {
    const double alpha = diffusion_agent_alpha(t, p.text(kAlpha.name));
    const double gamma = heterogeneous_gamma(uniform_gamma(t, alpha), spread);
    return {.alpha = alpha,
            .betas = spread == 1 ? sos_agent_betas(t, "chebyshev", alpha, "auto")
                     : gamma < 1 ? chebyshev_beta_schedule(gamma)
                                 : std::vector<double>{1.0},
            .rounds = detail::polynomial_rounds(p, t, name, alpha, gamma, &SchemePrediction::chebyshev)};
  }
};

}  // namespace

PhaseStrategyInfo chebyshev_phase_strategy_info() { return phase_strategy_info<Chebyshev>(); }

}  // namespace dlbkit
