#include "edge_rounds.hpp"

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/strategies/diffusion.hpp>
#include <dlbkit/strategies/sos.hpp>

#include <charconv>
#include <fmt/format.h>

namespace dlbkit {

namespace {

class SecondOrder : public detail::EdgeRounds {
public:
  static constexpr RealParam kAlpha{.name = "alpha", .default_value = "auto",
      .description = "alpha_ij on every edge, as for diffusion (capped at 1/max degree; auto: the optimal uniform "
                     "alpha)",
      .min = 0, .max = 1, .allow_auto = true};

protected:
  // `beta`: the sos parameter's text, or "auto" (chebyshev: the betas by round).
  SecondOrder(const Parameters& p, std::string scheme, std::string beta)
      : EdgeRounds(p), scheme_(std::move(scheme)), alpha_text_(p.text(kAlpha.name)), beta_text_(std::move(beta)) {}

private:
  void partners(const NodeContext& ctx, std::uint64_t, std::vector<NodeId>& out) override {
    if (beta_.empty()) {
      alpha_ = diffusion_agent_alpha(ctx.topology(), alpha_text_);
      beta_ = sos_agent_betas(ctx.topology(), scheme_, alpha_, beta_text_);
    }
    const auto nb = ctx.neighbors();
    out.assign(nb.begin(), nb.end());
  }

  // GMS96 / DFM99 in flow form, as PolynomialKernel computes it for integer loads: the same
  // z of this node and of each neighbour, so the same flows at both ends.
  void transfers(const NodeContext&, std::uint64_t round, std::int64_t own, std::span<const std::int64_t> loads,
                 std::span<std::int64_t> out) override {
    const double b = beta_[std::min<std::uint64_t>(round, beta_.size() - 1)];
    const auto next_z = [&](double previous, std::int64_t load) {
      const double l = static_cast<double>(load);
      return round == 0 ? l : (b - 1.0) * previous + b * l;
    };
    z_neighbours_.resize(loads.size());
    z_self_ = next_z(z_self_, own);
    for (std::size_t k = 0; k < loads.size(); ++k) {
      z_neighbours_[k] = next_z(z_neighbours_[k], loads[k]);
      const double y = 1.0 * alpha_ * (z_self_ - z_neighbours_[k]);
      out[k] = y > 0 ? static_cast<std::int64_t>(y) : 0;
    }
  }

  std::string scheme_, alpha_text_, beta_text_;
  double alpha_ = 0;
  std::vector<double> beta_;  // set on the first round, from the topology
  double z_self_ = 0;
  std::vector<double> z_neighbours_;
};

class Sos final : public SecondOrder {
public:
  static constexpr const char* name = "sos";
  static constexpr const char* description =
      "second-order diffusion: synchronous rounds, flows from beta M w(t) + (1 - beta) w(t-1) moved as tasks "
      "(rounded toward zero)";
  static constexpr const char* source = "Ghosh, Muthukrishnan, Schultz SPAA'96; Cyb89 eq. 1a for M";
  static constexpr RealParam kBeta{.name = "beta", .default_value = "auto",
      .description = "SOS parameter; auto: 2/(1 + sqrt(1 - gamma^2)) from gamma(M) (1 where gamma = 1)",
      .min = 1, .max = 2, .allow_auto = true};
  static std::vector<ParamSpec> params() { return {kAlpha, kBeta, kPeriod}; }

  explicit Sos(const Parameters& p) : SecondOrder(p, "sos", p.text(kBeta.name)) {}
};

class Chebyshev final : public SecondOrder {
public:
  static constexpr const char* name = "chebyshev";
  static constexpr const char* description =
      "Chebyshev-accelerated diffusion: the sos rounds with beta varying by round (beta_t -> the SOS beta)";
  static constexpr const char* source = "Diekmann, Frommer, Monien, Parallel Computing 25 (1999)";
  static std::vector<ParamSpec> params() { return {kAlpha, kPeriod}; }

  explicit Chebyshev(const Parameters& p) : SecondOrder(p, "chebyshev", "auto") {}
};

}  // namespace

std::vector<double> sos_agent_betas(const Topology& topology, const std::string& scheme, double alpha,
                                    const std::string& beta) {
  if (scheme == "sos" && beta != "auto") {
    double b = 1;
    std::from_chars(beta.data(), beta.data() + beta.size(), b);  // validated by Parameters::parse
    return {1.0, b};
  }
  const double gamma = topology.shared<double>(fmt::format("sos_agent_gamma:{}", alpha), [alpha](const Topology& t) {
    if (!(alpha > 0) || t.size() < 2) return 1.0;
    return scheme_spectrum(DiffusionMatrix::uniform(t, alpha)).gamma;
  });
  if (!(gamma < 1)) return {1.0};
  return scheme == "sos" ? std::vector<double>{1.0, sos_beta(gamma)} : chebyshev_beta_schedule(gamma);
}

StrategyInfo sos_strategy_info() { return strategy_info<Sos>(); }
StrategyInfo chebyshev_strategy_info() { return strategy_info<Chebyshev>(); }

}  // namespace dlbkit
