#pragma once
/// \file
/// The parameters and predicted speed of the successors of first-order diffusion (FOS), all
/// polynomial in the diffusion matrix M = I - L (L = alpha (D - A) for a uniform alpha):
///
///   SOS (Ghosh, Muthukrishnan, Schultz, SPAA'96): w(t+1) = beta M w(t) + (1 - beta) w(t-1),
///       w(1) = M w(0), with the optimal beta = 2 / (1 + sqrt(1 - gamma^2)); the error shrinks
///       like (beta - 1)^(t/2), so about ln(1/eps) / sqrt(2 (1 - gamma)) steps for small gaps.
///   Chebyshev (Diekmann, Frommer, Monien, Parallel Computing 25, 1999): the same
///       recurrence with beta_1 = 1, beta_2 = 2/(2 - gamma^2), beta_(t+1) = 4/(4 - gamma^2 beta_t)
///       (the three-term recurrence of the Chebyshev polynomials); error <= 2 r^t/(1 + r^(2t))
///       with r = (beta_SOS - 1)^(1/2); beta_t tends to the SOS beta.
///   OPS (DFM99): with mu_1 < ... < mu_(m-1) the distinct non-zero eigenvalues of L,
///       w(k) = (I - L/mu_k) w(k-1) balances exactly after m - 1 steps (m distinct
///       eigenvalues of L, 0 included). The order of the mu_k is ours: the Leja order, the usual
///       remedy for the growth of partial products of (1 - x/mu_k) in floating point.
/// FOS: gamma^t (Cyb89 eq. 11), about ln(1/eps) / (1 - gamma) steps.
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:6");
/// std::vector<double> mu = *dlbkit::distinct_graph_laplacian_eigenvalues(cube);  // 0, 2, 4, ..., 12
/// double beta = dlbkit::sos_beta(0.9);
/// ```
/// Thread-safe: no shared state.

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace dlbkit {

/// The distinct eigenvalues of the graph Laplacian D - A in increasing order (0 first): in
/// closed form for hypercubes (2k, k = 0..d), tori and rings (sums of 2 - 2 cos(2 pi a/k) over
/// the axes) and meshes (2 - 2 cos(pi a/k)), by the dense solver for other networks up to
/// kDenseEigenLimit nodes; nullopt otherwise. Values closer than 1e-9 (relative to the
/// largest) count as one.
std::optional<std::vector<double>> distinct_graph_laplacian_eigenvalues(const Topology& topology);

/// OPS is refused on networks with more distinct Laplacian eigenvalues than this: Leja
/// ordering is quadratic in their number, and OPS needs that many steps.
inline constexpr std::size_t kMaxOpsEigenvalues = 20000;

/// SOS's optimal beta for gamma in [0, 1): 2 / (1 + sqrt(1 - gamma^2)).
double sos_beta(double gamma);

/// beta_1 .. beta_steps of Chebyshev acceleration (index 0 is beta_1 = 1).
std::vector<double> chebyshev_betas(double gamma, std::size_t steps);

/// beta_1, beta_2, ... of Chebyshev acceleration until they reach their limit (the SOS beta)
/// in double precision, at most 2^24 of them; the last holds for every later step.
std::vector<double> chebyshev_beta_schedule(double gamma);

/// The points in Leja order: the first of largest magnitude, then each the one maximising the
/// product of distances to those already chosen (computed with logarithms).
std::vector<double> leja_order(std::vector<double> points);

/// Predicted steps to shrink ||w - w_bar|| by `factor` from the spectrum: nullopt where the
/// scheme does not converge (gamma >= 1) or the count is unknown (OPS without the spectrum).
struct SchemePrediction {
  std::optional<std::uint64_t> fos;        ///< gamma^t <= 1/factor (Cyb89 eq. 11)
  std::optional<std::uint64_t> sos;        ///< (beta - 1)^(t/2) <= 1/factor (GMS96)
  std::optional<std::uint64_t> chebyshev;  ///< 2 r^t / (1 + r^(2t)) <= 1/factor (DFM99)
  std::optional<std::uint64_t> ops;        ///< m - 1, exact balance (DFM99)
};
/// What the schemes need of M's spectrum: gamma(M) and, where known, the distinct
/// eigenvalues of L = I - M (0 first). For a uniform alpha both come from the graph's
/// (closed forms or the dense solver; the extremes by Lanczos for other large networks), for
/// per-edge alphas from the dense solver (or Lanczos extremes: then no eigenvalue list).
struct SchemeSpectrum {
  double gamma = 1;
  std::optional<std::vector<double>> laplacian_eigenvalues;
};
SchemeSpectrum scheme_spectrum(const DiffusionMatrix& m);

SchemePrediction predict_scheme_steps(double gamma, std::optional<std::size_t> distinct_eigenvalues, double factor);

}  // namespace dlbkit
