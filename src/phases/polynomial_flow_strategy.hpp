#pragma once
// What diffusion, sos and chebyshev share as phase strategies: the rounds of a polynomial scheme
// on the nodes' loads (flows.hpp, polynomial_flow), the objects moved to match the summed flow
// (realise), and the same rounds as a protocol between ranks (flow_protocol.cpp). Each strategy
// gives its scheme: `static FlowScheme Derived::scheme(p, topology, spread)`, spread the
// largest capacity (flows.hpp, FlowCapacities), 1 on nodes of equal speed.

#include "rank_protocols.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/phases/flows.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace dlbkit::detail {

/// FlowScheme::rounds of a polynomial scheme: the `rounds` given, or for auto the scheme's
/// count (`steps`) of the analysis's prediction for gamma(M) (predict_scheme_steps); a scheme
/// that does not converge (gamma(M) = 1, no prediction) is an error naming alpha.
inline std::function<std::uint64_t(double)> polynomial_rounds(const Parameters& p, const Topology& t,
                                                              const char* strategy, double alpha, double gamma,
                                                              std::optional<std::uint64_t> SchemePrediction::*steps) {
  return [=, stop = FlowStop::from(p), owner = fmt::format("phase strategy {}", strategy),
          why = fmt::format("alpha={} gives gamma(M) = 1 on {} (Cyb89 Theorem 1)", alpha, t.spec())](double factor) {
    return stop.limit(predict_scheme_steps(gamma, std::nullopt, factor).*steps, owner, why);
  };
}

template <class Derived>
class PolynomialFlowStrategy : public PhaseStrategy {
public:
  static constexpr bool weighs_speeds = true;

  explicit PolynomialFlowStrategy(const Parameters& p) : p_(p), stop_(FlowStop::from(p)) {}

  void rebalance(PhaseContext& ctx) override {
    const FlowCapacities c = flow_capacities(ctx.phase());
    const FlowScheme s = Derived::scheme(p_, ctx.topology(), c.spread);
    realise(ctx, polynomial_flow(ctx, s.alpha, s.betas, s.rounds(stop_.factor(ctx.loads(), c)), stop_.tolerance, c),
            p_);
  }

  static std::unique_ptr<RankProtocol> rank_protocol(const Parameters& p, const RankSetup& setup) {
    return flow_rank_protocol(
        p, setup, Derived::scheme(p, setup.topology, flow_capacities(setup.speeds, setup.topology.size()).spread));
  }

private:
  Parameters p_;
  FlowStop stop_;
};

}  // namespace dlbkit::detail
