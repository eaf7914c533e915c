#include "edge_rounds.hpp"

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/strategies/diffusion.hpp>
#include <dlbkit/topology/edge_coloring.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace dlbkit {

namespace {

using detail::rounded_flow;

class Diffusion final : public detail::EdgeRounds {
public:
  static constexpr const char* name = "diffusion";
  static constexpr const char* description =
      "Cybenko's diffusion: synchronous rounds, every node sends alpha times each load difference "
      "(rounded toward zero) to its less loaded neighbours";
  static constexpr const char* source = "Cyb89 Sec. 2 eq. 1a-5, Sec. 3";
  static constexpr RealParam kAlpha{.name = "alpha", .default_value = "auto",
      .description = "alpha_ij on every edge, capped at 1/max degree (constraint (b)); auto: the optimal "
                     "uniform alpha 2/(mu_2 + mu_max) of the analysis (1/(d+1) on hypercube:d)",
      .min = 0, .max = 1, .allow_auto = true};
  static constexpr ChoiceParam kWeights{.name = "weights", .default_value = "uniform",
      .description = "uniform: alpha on every edge; degree: alpha_ij = 1/(max(d_i, d_j) + 1) per edge "
                     "(Cyb89 eq. 1-5 allow alpha_ij per edge; alpha must stay auto)",
      .choices = {"uniform", "degree"}};
  static std::vector<ParamSpec> params() { return {kAlpha, kWeights, kPeriod}; }

  explicit Diffusion(const Parameters& p)
      : EdgeRounds(p), alpha_text_(p.text(kAlpha.name)), degree_(p[kWeights] == kWeights.choice("degree")) {
    if (degree_ && !p.is_auto(kAlpha))
      throw InputError(fmt::format("strategy diffusion: alpha={} with weights=degree; accepted: alpha=auto (the "
                                   "degree weights set alpha_ij on every edge) or weights=uniform",
                                   alpha_text_));
  }

private:
  void partners(const NodeContext& ctx, std::uint64_t, std::vector<NodeId>& out) override {
    if (alpha_ < 0 && !degree_) alpha_ = diffusion_agent_alpha(ctx.topology(), alpha_text_);
    const auto nb = ctx.neighbors();
    if (degree_ && edge_alphas_.empty())
      for (const NodeId u : nb)
        edge_alphas_.push_back(DiffusionMatrix::degree_weight(ctx.topology().degree(ctx.self()), ctx.topology().degree(u)));
    out.assign(nb.begin(), nb.end());
  }

  // Eq. 1a: alpha_ij (w_i - w_j) leaves i towards j; the partners are the neighbours in
  // order, so partner k is neighbour slot k of alpha(i, k).
  void transfers(const NodeContext&, std::uint64_t, std::int64_t own, std::span<const std::int64_t> loads,
                 std::span<std::int64_t> out) override {
    for (std::size_t k = 0; k < loads.size(); ++k)
      out[k] = rounded_flow(degree_ ? edge_alphas_[k] : alpha_, own, loads[k]);
  }

  std::string alpha_text_;
  bool degree_;
  double alpha_ = -1;                        // uniform: set on the first round, from the topology
  std::vector<double> edge_alphas_;          // degree: alpha_ij per neighbour slot, set on the first round
};

class DimensionExchange final : public detail::EdgeRounds {
public:
  static constexpr const char* name = "dimension_exchange";
  static constexpr const char* description =
      "Cybenko's dimension exchange: synchronous rounds, one dimension (edge colour) per round, "
      "each pair moves lambda of its difference (rounded toward zero)";
  static constexpr const char* source =
      "Cyb89 Sec. 4 (hypercube); edge-coloured graphs (generalized dimension exchange)";
  static constexpr RealParam kLambda{.name = "lambda", .default_value = "0.5",
      .description = "exchange parameter: the fraction of the pair's difference moved (1/2 balances a "
                     "hypercube in one sweep, Theorem 4)",
      .min = 0, .max = 1};
  static std::vector<ParamSpec> params() { return {kLambda, kPeriod}; }

  explicit DimensionExchange(const Parameters& p) : EdgeRounds(p), lambda_(p[kLambda]) {}

private:
  // Sec. 4: round r uses dimension (colour) r mod C; a node without an edge of that colour sits
  // the round out.
  void partners(const NodeContext& ctx, std::uint64_t round, std::vector<NodeId>& out) override {
    const Topology& t = ctx.topology();
    const auto& colouring = t.shared<EdgeColoring>("edge_coloring", edge_coloring);
    out.clear();
    if (colouring.colors() == 0) return;
    if (auto p = colouring.partner(t, ctx.self(), static_cast<std::uint32_t>(round % colouring.colors())))
      out.push_back(*p);
  }

  void transfers(const NodeContext&, std::uint64_t, std::int64_t own, std::span<const std::int64_t> loads,
                 std::span<std::int64_t> out) override {
    out[0] = rounded_flow(lambda_, own, loads[0]);
  }

  double lambda_;
};

}  // namespace

double diffusion_agent_alpha(const Topology& topology, const std::string& alpha) {
  const double cap = topology.max_degree() == 0 ? 1.0 : 1.0 / static_cast<double>(topology.max_degree());
  if (alpha == "auto")
    return topology.shared<double>("diffusion_optimal_alpha", [](const Topology& t) {
      return t.size() < 2 || t.max_degree() == 0 ? 0.0 : optimal_uniform_alpha(t, graph_laplacian_extremes(t)).alpha;
    });
  double a = 0;
  std::from_chars(alpha.data(), alpha.data() + alpha.size(), a);  // validated by Parameters::parse
  return std::min(a, cap);
}

StrategyInfo diffusion_strategy_info() { return strategy_info<Diffusion>(); }

StrategyInfo dimension_exchange_strategy_info() { return strategy_info<DimensionExchange>(); }

}  // namespace dlbkit
