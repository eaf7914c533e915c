// The only translation unit that includes Eigen (compile time, header hygiene). Built
// without Eigen (CMakeLists.txt leaves DLBKIT_HAS_EIGEN undefined), it has the Lanczos
// iteration only.

#include <dlbkit/analysis/spectrum.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>

#ifdef DLBKIT_HAS_EIGEN
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace dlbkit {

namespace {

// Lanczos: the extreme Ritz values are compared every kLanczosCheck steps and accepted when
// both moved by at most kLanczosTolerance times the spectral width since the last check.
constexpr std::size_t kLanczosCheck = 20;
constexpr double kLanczosTolerance = 1e-15;
constexpr std::size_t kLanczosMaxSteps = 200000;
constexpr double kLanczosInvariant = 1.5e-8;
constexpr std::uint64_t kLanczosSeed = 0x1a2c05;

// The Laplacian L = D_w - A_w of the network with edge weights w: alpha_ij of a diffusion
// matrix (L = I - M, eq. 4), or 1 for the plain graph Laplacian (weights == nullptr).
struct WeightedLaplacian {
  const Topology& topology;
  const DiffusionMatrix* weights;

  double weight(NodeId v, std::size_t i) const { return weights ? weights->alpha(v, i) : 1.0; }

  void multiply(const double* x, double* y) const {
    for (NodeId v = 0; v < topology.size(); ++v) {
      const auto nb = topology.neighbors(v);
      double sum = 0;
      if (weights)
        for (std::size_t i = 0; i < nb.size(); ++i) sum += weights->alpha(v, i) * (x[v] - x[nb[i]]);
      else
        for (const NodeId u : nb) sum += x[v] - x[u];
      y[v] = sum;
    }
  }
};

// Extreme eigenvalues of the symmetric tridiagonal matrix with diagonal a and off-diagonal
// b, by bisection on Sturm counts (accurate to rounding, O(size) per count).
struct Tridiagonal {
  const std::vector<double>& a;
  const std::vector<double>& b;

  std::size_t count_below(double x) const {
    std::size_t count = 0;
    double d = 1;
    for (std::size_t k = 0; k < a.size(); ++k) {
      d = (a[k] - x) - (k == 0 ? 0.0 : b[k - 1] * b[k - 1] / d);
      if (d == 0) d = -std::numeric_limits<double>::min();
      if (d < 0) ++count;
    }
    return count;
  }
  // The smallest x with at least `rank` eigenvalues <= x, i.e. the rank-th eigenvalue.
  double eigenvalue(std::size_t rank) const {
    double lo = 0, hi = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      const double r = (k > 0 ? std::abs(b[k - 1]) : 0.0) + (k + 1 < a.size() ? std::abs(b[k]) : 0.0);
      lo = std::min(lo, a[k] - r);
      hi = std::max(hi, a[k] + r);
    }
    for (int i = 0; i < 200 && lo < hi; ++i) {
      const double mid = lo + (hi - lo) / 2;
      if (mid <= lo || mid >= hi) break;
      (count_below(mid) >= rank ? hi : lo) = mid;
    }
    return hi;
  }
};

// Both extremes of L on the complement of u by one Lanczos run (three-term recurrence, no
// reorthogonalisation: extreme Ritz values stay accurate, lost orthogonality only adds copies
// of converged ones). The operator is L + s u u^T / n with s = n/(n-1) (min + max weighted
// degree)/2, which by Fiedler's bounds lies in [mu_2, mu_max]: u's eigenvalue is moved
// inside the spectrum, where it cannot disturb the extremes.
LaplacianExtremes lanczos(const WeightedLaplacian& l) {
  const std::size_t n = l.topology.size();
  double dmin = std::numeric_limits<double>::infinity(), dmax = 0;
  for (NodeId v = 0; v < n; ++v) {
    double d = 0;
    for (std::size_t i = 0; i < l.topology.degree(v); ++i) d += l.weight(v, i);
    dmin = std::min(dmin, d);
    dmax = std::max(dmax, d);
  }
  const double nn = static_cast<double>(n);
  const double shift = nn / (nn - 1) * (dmin + dmax) / 2;
  const double scale = 2 * dmax;  // >= mu_max (Gershgorin)

  std::vector<double> q(n), previous(n, 0.0), w(n);
  Rng rng(kLanczosSeed);
  for (double& x : q) x = rng.uniform(-1, 1);
  const double start = std::sqrt(std::inner_product(q.begin(), q.end(), q.begin(), 0.0));
  double mean = 0;  // of q, kept up to date by the normalising passes
  for (double& x : q) mean += (x /= start);
  mean /= nn;

  std::vector<double> a, b;
  LaplacianExtremes e;
  double low = 0, high = 0;
  for (std::size_t m = 1; m <= kLanczosMaxSteps; ++m) {
    l.multiply(q.data(), w.data());
    ++e.matrix_products;
    double alpha = 0;
    for (std::size_t v = 0; v < n; ++v) {
      w[v] += shift * mean;
      alpha += w[v] * q[v];
    }
    const double beta_previous = b.empty() ? 0.0 : b.back();
    double squares = 0;
    for (std::size_t v = 0; v < n; ++v) {
      w[v] -= alpha * q[v] + beta_previous * previous[v];
      squares += w[v] * w[v];
    }
    const double beta = std::sqrt(squares);
    a.push_back(alpha);
    // A beta this small means the Krylov space is invariant up to sqrt(machine epsilon): the
    // Ritz values are then eigenvalues to within about beta^2 / gap, while continuing would
    // divide rounding noise by beta (the hypercube, with d + 2 distinct eigenvalues, gets here).
    const bool invariant = beta <= kLanczosInvariant * scale;
    if (m % kLanczosCheck == 0 || invariant) {
      const Tridiagonal t{a, b};
      const double new_low = t.eigenvalue(1), new_high = t.eigenvalue(a.size());
      const bool settled = m > kLanczosCheck && std::abs(new_low - low) <= kLanczosTolerance * scale &&
                           std::abs(new_high - high) <= kLanczosTolerance * scale;
      low = new_low;
      high = new_high;
      if (settled || invariant) {
        e.mu_2 = low;
        e.mu_max = high;
        e.method = "sparse";
        return e;
      }
    }
    b.push_back(beta);
    previous.swap(q);
    mean = 0;
    for (std::size_t v = 0; v < n; ++v) mean += (q[v] = w[v] / beta);
    mean /= nn;
  }
  throw std::runtime_error(fmt::format("{}: the Lanczos iteration did not settle after {} steps",
                                       l.topology.spec(), kLanczosMaxSteps));
}

#ifdef DLBKIT_HAS_EIGEN
constexpr bool kDenseSolver = true;
#else
constexpr bool kDenseSolver = false;
#endif

// Every eigenvalue of the Laplacian, increasing, by Eigen's dense symmetric solver.
std::vector<double> dense_eigenvalues(const WeightedLaplacian& l) {
  const std::size_t n = l.topology.size();
  if (n > kDenseEigenLimit)
    throw InputError(fmt::format("{}: {} nodes are too many for the dense eigen-solver (at most {})",
                                 l.topology.spec(), n, kDenseEigenLimit));
#ifdef DLBKIT_HAS_EIGEN
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  for (NodeId v = 0; v < n; ++v) {
    const auto nb = l.topology.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i) {
      a(v, nb[i]) -= l.weight(v, i);
      a(v, v) += l.weight(v, i);
    }
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(a, Eigen::EigenvaluesOnly);
  std::vector<double> mu(n);
  for (std::size_t k = 0; k < n; ++k) mu[k] = solver.eigenvalues()[static_cast<Eigen::Index>(k)];
  return mu;
#else
  throw InputError(fmt::format("{}: the dense eigen-solver needs Eigen, and this dlbkit was built without it "
                               "(Debian: libeigen3-dev)",
                               l.topology.spec()));
#endif
}

LaplacianExtremes extremes(const WeightedLaplacian& l, EigenMethod method) {
  const std::size_t n = l.topology.size();
  if (n < 2) throw InputError(fmt::format("{} has {} node: a spectrum needs at least 2", l.topology.spec(), n));
  if (method == EigenMethod::automatic)
    method = kDenseSolver && n <= kDenseEigenLimit ? EigenMethod::dense : EigenMethod::sparse;
  LaplacianExtremes e;
  if (method == EigenMethod::dense) {
    const std::vector<double> mu = dense_eigenvalues(l);
    // The smallest eigenvalue is the 0 of the all-ones vector.
    e.mu_2 = mu[1];
    e.mu_max = mu[n - 1];
    e.method = "dense";
    return e;
  }
  return lanczos(l);
}

}  // namespace

LaplacianExtremes laplacian_extremes(const DiffusionMatrix& m, EigenMethod method) {
  if (const auto alpha = m.uniform_alpha()) {
    // M = I - alpha (D - A): the plain Laplacian's extremes scaled by alpha.
    LaplacianExtremes e = graph_laplacian_extremes(m.topology(), method);
    e.mu_2 *= *alpha;
    e.mu_max *= *alpha;
    return e;
  }
  return extremes(WeightedLaplacian{m.topology(), &m}, method);
}

LaplacianExtremes graph_laplacian_extremes(const Topology& topology, EigenMethod method) {
  return extremes(WeightedLaplacian{topology, nullptr}, method);
}

std::vector<double> diffusion_eigenvalues(const DiffusionMatrix& m) {
  const std::vector<double> mu = dense_eigenvalues(WeightedLaplacian{m.topology(), &m});
  const std::size_t n = mu.size();
  std::vector<double> lambda(n);
  // lambda = 1 - mu, so increasing lambda is decreasing mu.
  for (std::size_t k = 0; k < n; ++k) lambda[k] = 1.0 - mu[n - 1 - k];
  return lambda;
}

}  // namespace dlbkit
