// diffusion: Cybenko's first-order diffusion (Cyb89 Sec. 2, eq. 1a-3) on the nodes' loads,
// realised by moving objects. Node v sends alpha (l_v - l_u) to each neighbour u per round;
// the edge's ideal flow is the sum over the rounds, and the loads reach M^t l (eq. 3).
// alpha auto is the analysis's optimal uniform alpha 2/(mu_2 + mu_max) (Sec. 3 on the
// hypercube; any graph in analysis/diffusion_analysis.hpp), a given alpha is capped at
// 1/max degree (constraint (b)), as for the task strategy `diffusion`. rounds auto: the t with
// gamma^t <= 1/F, F the factor that takes ||l - mean|| to tolerance x mean (eq. 11, a bound
// over all starts; FlowStop::factor; the imbalance check stops earlier when the loads allow).
//
// On nodes of unequal speed it is the heterogeneous diffusion of Elsaesser, Monien, Preis
// (Theory Comput. Syst. 35, 2002; flows.hpp, FlowCapacities): the rounds run on l_v / c_v, the
// matrix is I - alpha L C^-1, and the loads tend to c_v sum l / sum c, so every node's time
// tends to total load / total speed. gamma for rounds auto is heterogeneous_gamma's bound.
//
// The objects: each node fills its positive outgoing flows, largest first, from the objects
// it holds, and passes on what it receives in later migration rounds (phases/flows.hpp,
// realise: selection greedy or largest_first, hops). The flow error
// sum_e |moved_e - f_e| / sum_e |f_e| is what is lost there: objects too coarse for the flows,
// flows through a node that its objects cannot carry (hops = 1, or more hops than allowed),
// objects held back by the memory bound.
//
// Its rank protocol (flow_protocol.cpp) runs the same rounds with real messages.

#include "polynomial_flow_strategy.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/strategies/diffusion.hpp>

namespace dlbkit {

namespace {

class Diffusion final : public detail::PolynomialFlowStrategy<Diffusion> {
public:
  static constexpr const char* name = "diffusion";
  static constexpr const char* description =
      "Cybenko's diffusion on the loads, then each node ships objects matching the flow on each edge";
  static constexpr const char* source = "Cyb89 Sec. 2 eq. 1a-5, Sec. 3, eq. 11";
  static constexpr RealParam kAlpha{.name = "alpha", .default_value = "auto",
      .description = "alpha_ij on every edge, capped at 1/max degree (constraint (b)); auto: the optimal "
                     "uniform alpha 2/(mu_2 + mu_max) of the analysis",
      .min = 0, .max = 1, .allow_auto = true};
  static std::vector<ParamSpec> params() { return with_flow_params({kAlpha}); }

  using PolynomialFlowStrategy::PolynomialFlowStrategy;

  static detail::FlowScheme scheme(const Parameters& p, const Topology& t, double spread) {
    const double alpha = diffusion_agent_alpha(t, p.text(kAlpha.name));
    const double gamma = heterogeneous_gamma(uniform_gamma(t, alpha), spread);
    return {.alpha = alpha,
            .betas = {1.0},
            .rounds = detail::polynomial_rounds(p, t, name, alpha, gamma, &SchemePrediction::fos)};
  }
};

}  // namespace

PhaseStrategyInfo diffusion_phase_strategy_info() { return phase_strategy_info<Diffusion>(); }

}  // namespace dlbkit
