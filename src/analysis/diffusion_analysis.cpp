#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace dlbkit {

namespace {

// 1 - gamma for the matrix with Laplacian eigenvalues mu_2 and mu_max: gamma is
// max(1 - mu_2, mu_max - 1), so 1 - gamma = min(mu_2, 2 - mu_max).
double gap_of(double mu_2, double mu_max) { return std::min(mu_2, 2.0 - mu_max); }

nlohmann::json number_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

template <class T>
nlohmann::json optional_or_null(const std::optional<T>& x) {
  return x ? nlohmann::json(*x) : nlohmann::json(nullptr);
}

}  // namespace

OptimalAlpha optimal_uniform_alpha(const Topology& topology, const LaplacianExtremes& graph) {
  OptimalAlpha o;
  const double cap = 1.0 / static_cast<double>(topology.max_degree());
  o.alpha = 2.0 / (graph.mu_2 + graph.mu_max);
  if (o.alpha > cap) {
    o.alpha = cap;
    o.capped_by_degree = true;
  }
  o.gamma = 1.0 - gap_of(o.alpha * graph.mu_2, o.alpha * graph.mu_max);
  return o;
}

std::optional<std::uint64_t> steps_to_shrink(double spectral_gap, double factor) {
  if (!(factor > 1) || !std::isfinite(factor))
    throw InputError(fmt::format("factor {} is not accepted; accepted: a finite number > 1", factor));
  if (!(spectral_gap > 0)) return std::nullopt;
  if (spectral_gap >= 1) return 1;  // gamma = 0: one step balances exactly
  // gamma^t <= 1/factor  <=>  t >= ln(factor) / -ln(gamma), with ln(gamma) = log1p(-gap).
  return static_cast<std::uint64_t>(std::ceil(std::log(factor) / -std::log1p(-spectral_gap)));
}

DiffusionAnalysis analyze_diffusion(const DiffusionMatrix& m, double factor, EigenMethod method) {
  return analyze_diffusion(m, graph_laplacian_extremes(m.topology(), method), factor);
}

DiffusionAnalysis analyze_diffusion(const DiffusionMatrix& m, const LaplacianExtremes& graph, double factor) {
  DiffusionAnalysis a;
  a.topology = m.topology().spec();
  a.alpha = m.description();
  a.nodes = m.size();
  a.factor = factor;
  a.theorem1 = check_theorem1(m);
  if (const auto alpha = m.uniform_alpha()) {
    a.spectrum = graph;
    a.spectrum.mu_2 *= *alpha;
    a.spectrum.mu_max *= *alpha;
  } else {
    const EigenMethod method = graph.method == "dense" ? EigenMethod::dense : EigenMethod::sparse;
    a.spectrum = laplacian_extremes(m, method);
  }
  const double mu_2 = a.spectrum.mu_2, mu_max = a.spectrum.mu_max;
  a.lambda_2 = 1.0 - mu_2;
  a.lambda_n = 1.0 - mu_max;
  // Theorem 1 is exact: when it fails, 1 or -1 is a repeated or extra eigenvalue and gamma is
  // exactly 1, whatever rounding the eigen-solver left in mu_2 or 2 - mu_max.
  a.spectral_gap = a.theorem1.converges() ? gap_of(mu_2, mu_max) : 0.0;
  a.gamma = 1.0 - a.spectral_gap;
  a.min_diagonal = m.min_diagonal();

  // Lemma 2. M(kappa) = I - L/(1 + kappa) has Laplacian eigenvalues mu/(1 + kappa).
  const double unconstrained = -(a.lambda_2 + a.lambda_n) / 2.0;
  a.kappa_at_feasibility_bound = -a.min_diagonal > unconstrained;
  a.kappa = std::max(unconstrained, -a.min_diagonal);
  const double s = 1.0 + a.kappa;
  // Exactly, kappa > -1; it rounds to -1 when every 1 - alpha mu rounds to 1, and
  // M(kappa) = I - L/0 would print gamma inf.
  if (!(s > 0))
    throw InputError(fmt::format("the diffusion matrix ({}) rounds to the identity in double precision (1 - alpha mu "
                                 "is 1), so Lemma 2 is undefined; accepted: alphas of about 1e-15 or more",
                                 a.alpha));
  const double gap_kappa = gap_of(mu_2 / s, mu_max / s);
  a.gamma_kappa = 1.0 - gap_kappa;

  a.optimal = optimal_uniform_alpha(m.topology(), graph);
  a.variance_factor = a.spectral_gap > 0 ? 1.0 / (a.spectral_gap * (1.0 + a.gamma))
                                         : std::numeric_limits<double>::infinity();
  a.steps = steps_to_shrink(a.spectral_gap, factor);
  a.steps_kappa = steps_to_shrink(gap_kappa, factor);
  return a;
}

nlohmann::json to_json(const DiffusionAnalysis& a) {
  return {
      {"topology", a.topology},
      {"alpha", a.alpha},
      {"nodes", a.nodes},
      {"converges", a.theorem1.converges()},
      {"theorem1",
       {{"induced_connected", a.theorem1.induced_connected},
        {"positive_diagonal", a.theorem1.positive_diagonal_node.has_value()},
        {"positive_diagonal_node", optional_or_null(a.theorem1.positive_diagonal_node)},
        {"induced_bipartite", a.theorem1.induced_bipartite},
        {"dropped_edges", a.theorem1.dropped_edges},
        {"explanation", a.theorem1.explanation()}}},
      {"eigen_method", a.spectrum.method},
      {"matrix_products", a.spectrum.matrix_products},
      {"lambda_2", a.lambda_2},
      {"lambda_n", a.lambda_n},
      {"gamma", a.gamma},
      {"one_minus_gamma", a.spectral_gap},
      {"min_diagonal", a.min_diagonal},
      {"lemma2",
       {{"kappa", a.kappa}, {"at_feasibility_bound", a.kappa_at_feasibility_bound}, {"gamma", a.gamma_kappa}}},
      {"optimal_alpha",
       {{"alpha", a.optimal.alpha}, {"gamma", a.optimal.gamma}, {"capped_by_degree", a.optimal.capped_by_degree}}},
      {"variance_factor", number_or_null(a.variance_factor)},
      {"factor", a.factor},
      {"steps", optional_or_null(a.steps)},
      {"steps_kappa", optional_or_null(a.steps_kappa)},
  };
}

}  // namespace dlbkit
