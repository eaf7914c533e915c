// dimension_exchange: Cybenko's dimension exchange (Cyb89 Sec. 4) on the nodes' loads,
// realised by moving objects. Round t pairs the ends of the edges of colour t mod C of the
// topology's edge colouring (the dimensions of a hypercube; topology/edge_coloring.hpp
// elsewhere, generalized dimension exchange), and each pair moves lambda of its difference:
// f_vp += lambda (l_v - l_p). On a hypercube lambda = 1/2 balances exactly in one sweep of d
// rounds (Theorem 4). rounds auto: d there; elsewhere C times the rounds the analysis gives
// first-order diffusion with the optimal alpha, as for `diffusion` (a cap, not a theorem: no
// convergence factor of generalized dimension exchange is in the analysis; the imbalance
// check stops earlier when the loads allow). lambda 0 (no exchange) and 1 (the pairs swap
// their loads) never converge: rounds must then be given.
//
// On nodes of unequal speed each pair moves 2 lambda of the way to loads in proportion to its
// two capacities (flows.hpp, FlowCapacities; lambda = 1/2: to l_v / c_v = l_p / c_p), the
// pairwise balance of the heterogeneous diffusion of Elsaesser, Monien, Preis (2002).
//
// The objects are chosen as for `diffusion` (phases/flows.hpp, realise), and the flow error measured
// the same way.

#include "rank_protocols.hpp"

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/phases/flows.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

class DimensionExchange final : public PhaseStrategy {
public:
  static constexpr const char* name = "dimension_exchange";
  static constexpr const char* description =
      "Cybenko's dimension exchange on the loads (one edge colour per round), then each node ships objects "
      "matching the flow on each edge";
  static constexpr const char* source = "Cyb89 Sec. 4 (hypercube); edge-coloured graphs (generalized dimension "
                                        "exchange)";
  static constexpr bool weighs_speeds = true;
  static constexpr RealParam kLambda{.name = "lambda", .default_value = "0.5",
      .description = "exchange parameter: the fraction of the pair's difference moved (1/2 balances a hypercube "
                     "in one sweep, Theorem 4)",
      .min = 0, .max = 1};
  static std::vector<ParamSpec> params() { return with_flow_params({kLambda}); }

  explicit DimensionExchange(const Parameters& p) : p_(p), lambda_(p[kLambda]), stop_(FlowStop::from(p)) {}

  void rebalance(PhaseContext& ctx) override {
    const Topology& t = ctx.topology();
    const auto& colouring = t.shared<EdgeColoring>("edge_coloring", edge_coloring);
    const FlowCapacities c = flow_capacities(ctx.phase());
    realise(ctx,
            exchange_flow(ctx, colouring, lambda_, rounds(t, c.spread, stop_.factor(ctx.loads(), c)), stop_.tolerance,
                          c),
            p_);
  }

  /// Its rank protocol (flow_protocol.cpp): the same rounds with real messages.
  static std::unique_ptr<RankProtocol> rank_protocol(const Parameters& p, const RankSetup& setup) {
    const double spread = flow_capacities(setup.speeds, setup.topology.size()).spread;
    const auto rounds = [strategy = DimensionExchange(p), &t = setup.topology, spread](double factor) {
      return strategy.rounds(t, spread, factor);
    };
    return detail::flow_rank_protocol(
        p, setup, {.form = detail::FlowScheme::Form::exchange, .alpha = p[kLambda], .rounds = rounds});
  }

private:
  // spread: the largest capacity (flows.hpp, FlowCapacities), 1 on equal nodes.
  std::uint64_t rounds(const Topology& t, double spread, double factor) const {
    return stop_.limit(predicted_rounds(t, t.shared<EdgeColoring>("edge_coloring", edge_coloring), spread, factor),
                       "phase strategy dimension_exchange", fmt::format("lambda={} never balances", lambda_));
  }

  // On unequal nodes one sweep of a hypercube no longer balances exactly (the pairs of a
  // dimension end at different times), so the cap of other graphs, on heterogeneous_gamma.
  std::optional<std::uint64_t> predicted_rounds(const Topology& t, const EdgeColoring& colouring, double spread,
                                                double factor) const {
    if (t.size() < 2) return 1;
    if (!(lambda_ > 0 && lambda_ < 1)) return std::nullopt;
    if (t.kind() == TopologyKind::hypercube && lambda_ == 0.5 && spread == 1) return colouring.colors();
    const double gamma = heterogeneous_gamma(optimal_uniform_alpha(t, graph_laplacian_extremes(t)).gamma, spread);
    const auto fos = predict_scheme_steps(gamma, std::nullopt, factor).fos;
    if (!fos) return std::nullopt;
    return *fos * colouring.colors();
  }

  Parameters p_;
  double lambda_;
  FlowStop stop_;
};

}  // namespace

PhaseStrategyInfo dimension_exchange_phase_strategy_info() { return phase_strategy_info<DimensionExchange>(); }

}  // namespace dlbkit
