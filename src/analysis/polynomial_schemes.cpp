#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/analysis/spectrum.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dlbkit {

namespace {

// The distinct values of a sorted list, values within `tolerance` merged into the first.
std::vector<double> distinct(std::vector<double> v, double tolerance) {
  std::sort(v.begin(), v.end());
  std::vector<double> out;
  for (double x : v)
    if (out.empty() || x - out.back() > tolerance) out.push_back(x);
  return out;
}

// Eigenvalues of the Laplacian of a cycle of k nodes (2 - 2 cos(2 pi a / k)), or of a path
// (2 - 2 cos(pi a / k)); a cycle of two nodes is one edge: 0 and 2.
std::vector<double> axis_eigenvalues(int k, bool cycle) {
  std::vector<double> v;
  if (cycle && k == 2) return {0.0, 2.0};
  for (int a = 0; a < (cycle ? k / 2 + 1 : k); ++a)
    v.push_back(2.0 - 2.0 * std::cos((cycle ? 2.0 : 1.0) * std::numbers::pi * a / k));
  return v;
}

}  // namespace

std::optional<std::vector<double>> distinct_graph_laplacian_eigenvalues(const Topology& topology) {
  const auto kind = topology.kind();
  const double tolerance = 1e-9 * 4.0 * static_cast<double>(std::max<std::size_t>(1, topology.max_degree()));
  if (kind == TopologyKind::hypercube) {
    std::vector<double> v;
    for (std::size_t k = 0; k <= topology.extents().size(); ++k) v.push_back(2.0 * static_cast<double>(k));
    return v;
  }
  if (kind == TopologyKind::torus || kind == TopologyKind::ring || kind == TopologyKind::mesh) {
    // A Cartesian product of cycles (paths): the eigenvalues are the sums of one per axis.
    std::vector<double> sums = {0.0};
    for (int k : topology.extents()) {
      const std::vector<double> axis = distinct(axis_eigenvalues(k, kind != TopologyKind::mesh), tolerance);
      std::vector<double> next;
      next.reserve(sums.size() * axis.size());
      for (double s : sums)
        for (double a : axis) next.push_back(s + a);
      sums = distinct(std::move(next), tolerance);
    }
    return sums;
  }
  if (topology.size() < 2 || topology.size() > kDenseEigenLimit || topology.max_degree() == 0) return std::nullopt;
  // M = I - alpha (D - A): mu = (1 - lambda) / alpha.
  const double alpha = 1.0 / static_cast<double>(topology.max_degree());
  std::vector<double> mu;
  for (double lambda : diffusion_eigenvalues(DiffusionMatrix::uniform(topology, alpha)))
    mu.push_back(std::max(0.0, (1.0 - lambda) / alpha));
  auto v = distinct(std::move(mu), tolerance);
  v.front() = 0.0;
  return v;
}

double sos_beta(double gamma) { return 2.0 / (1.0 + std::sqrt(1.0 - gamma * gamma)); }

std::vector<double> chebyshev_betas(double gamma, std::size_t steps) {
  std::vector<double> beta;
  for (std::size_t t = 0; t < steps; ++t) {
    if (t == 0) beta.push_back(1.0);
    else if (t == 1) beta.push_back(2.0 / (2.0 - gamma * gamma));
    else beta.push_back(4.0 / (4.0 - gamma * gamma * beta.back()));
  }
  return beta;
}

std::vector<double> chebyshev_beta_schedule(double gamma) {
  std::vector<double> beta = chebyshev_betas(gamma, 2);
  while (beta.size() < (std::size_t{1} << 24)) {
    const double b = 4.0 / (4.0 - gamma * gamma * beta.back());
    if (b == beta.back()) break;
    beta.push_back(b);
  }
  return beta;
}

std::vector<double> leja_order(std::vector<double> points) {
  std::vector<double> out;
  if (points.empty()) return out;
  const auto first = std::max_element(points.begin(), points.end(),
                                      [](double a, double b) { return std::abs(a) < std::abs(b); });
  std::iter_swap(points.begin(), first);
  // score[i]: sum of log |points[i] - chosen| over the points chosen so far.
  std::vector<double> score(points.size(), 0.0);
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (k > 0) {
      std::size_t best = k;
      for (std::size_t i = k + 1; i < points.size(); ++i)
        if (score[i] > score[best]) best = i;
      std::swap(points[k], points[best]);
      std::swap(score[k], score[best]);
    }
    for (std::size_t i = k + 1; i < points.size(); ++i) score[i] += std::log(std::abs(points[i] - points[k]));
  }
  return points;
}

SchemeSpectrum scheme_spectrum(const DiffusionMatrix& m) {
  SchemeSpectrum out;
  const Topology& t = m.topology();
  if (const auto alpha = m.uniform_alpha()) {
    if (auto graph = distinct_graph_laplacian_eigenvalues(t)) {
      for (double& mu : *graph) mu *= *alpha;
      // gamma = max |1 - mu| over the non-zero eigenvalues; exactly 1 when the graph is
      // disconnected (a second zero) or 2 is an eigenvalue of L (Theorem 1 fails).
      out.gamma = graph->size() < 2 ? 0.0 : std::max(std::abs(1.0 - (*graph)[1]), std::abs(1.0 - graph->back()));
      out.laplacian_eigenvalues = std::move(graph);
      return out;
    }
  } else if (m.size() <= kDenseEigenLimit) {
    std::vector<double> mu;
    for (double lambda : diffusion_eigenvalues(m)) mu.push_back(1.0 - lambda);
    auto v = distinct(std::move(mu), 1e-9);
    v.front() = 0.0;
    out.gamma = v.size() < 2 ? 0.0 : std::max(std::abs(1.0 - v[1]), std::abs(1.0 - v.back()));
    out.laplacian_eigenvalues = std::move(v);
    return out;
  }
  out.gamma = analyze_diffusion(m, 10.0).gamma;
  return out;
}

SchemePrediction predict_scheme_steps(double gamma, std::optional<std::size_t> distinct_eigenvalues, double factor) {
  SchemePrediction p;
  if (distinct_eigenvalues && *distinct_eigenvalues >= 1) p.ops = *distinct_eigenvalues - 1;
  if (!(gamma < 1)) return p;
  const double log_factor = std::log(factor);
  const auto ceil_steps = [](double x) { return static_cast<std::uint64_t>(std::ceil(std::max(0.0, x))); };
  if (gamma <= 0) {
    p.fos = p.sos = p.chebyshev = 1;
    return p;
  }
  p.fos = ceil_steps(log_factor / -std::log(gamma));
  const double r = std::sqrt(sos_beta(gamma) - 1.0);  // = gamma / (1 + sqrt(1 - gamma^2))
  p.sos = ceil_steps(log_factor / -std::log(r));
  // 2 r^t / (1 + r^(2t)) <= 1/factor: the smallest t, from r^t = x solving x^2 - 2 factor x + 1 = 0.
  const double x = 1.0 / (factor + std::sqrt(factor * factor - 1.0));  // the smaller root, without cancellation
  p.chebyshev = ceil_steps(std::log(x) / std::log(r));
  return p;
}

}  // namespace dlbkit
