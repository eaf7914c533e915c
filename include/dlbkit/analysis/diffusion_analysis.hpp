#pragma once
/// \file
/// Everything Cyb89 Sec. 2-3 says about one diffusion matrix M: convergence by Theorem 1,
/// gamma(M) = max_{i>1} |lambda_i| (after eq. 5), lambda_2 and lambda_n, the optimal linear
/// modification M(kappa) = (M + kappa I)/(1 + kappa) of Lemma 2 and its gamma, the optimal
/// uniform alpha for the topology, the variance factor 1/(1 - gamma^2) of Theorem 2 and the
/// number of steps after which eq. 11, ||M^t w - w_bar|| <= gamma^t ||w - w_bar||, guarantees
/// the error has shrunk by a given factor.
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:6");
/// auto a = dlbkit::analyze_diffusion(dlbkit::DiffusionMatrix::uniform(cube, 1.0 / 6), 100.0);
/// // a.gamma == 1 (bipartite, zero diagonal); a.kappa == 1/6; a.gamma_kappa == 1 - 2/7;
/// // a.optimal.alpha == 1/7 (Sec. 3)
/// ```
/// Thread-safe: no shared state.

#include <dlbkit/analysis/convergence.hpp>
#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/analysis/spectrum.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The best uniform alpha (Sec. 3 for the hypercube, any graph here): with M = I - alpha L,
/// gamma = max(|1 - alpha mu_2|, |1 - alpha mu_max|) is smallest at alpha = 2/(mu_2 + mu_max),
/// capped at 1/max degree so that no diagonal entry is negative.
struct OptimalAlpha {
  double alpha = 0;
  double gamma = 0;
  bool capped_by_degree = false;
};
OptimalAlpha optimal_uniform_alpha(const Topology& topology, const LaplacianExtremes& graph);

/// Steps t with gamma^t <= 1/factor (eq. 11), from the spectral gap 1 - gamma; nullopt when
/// the gap is not positive. Throws InputError unless factor > 1.
std::optional<std::uint64_t> steps_to_shrink(double spectral_gap, double factor);

struct DiffusionAnalysis {
  std::string topology;
  std::string alpha;           ///< DiffusionMatrix::description()
  std::size_t nodes = 0;
  Theorem1Check theorem1;
  LaplacianExtremes spectrum;  ///< of L = I - M
  double lambda_2 = 0;         ///< 1 - mu_2
  double lambda_n = 0;         ///< 1 - mu_max
  double gamma = 0;            ///< max(|lambda_2|, |lambda_n|); exactly 1 when Theorem 1 fails
  double spectral_gap = 0;     ///< 1 - gamma, computed without cancellation
  double min_diagonal = 0;
  /// Lemma 2: kappa = max(-(lambda_2 + lambda_n)/2, -min_j m_jj) and gamma(M(kappa)).
  double kappa = 0;
  bool kappa_at_feasibility_bound = false;
  double gamma_kappa = 0;
  OptimalAlpha optimal;
  double variance_factor = 0;  ///< 1/(1 - gamma^2) (Theorem 2); +inf when gamma = 1
  double factor = 0;
  std::optional<std::uint64_t> steps;       ///< eq. 11 for M
  std::optional<std::uint64_t> steps_kappa; ///< eq. 11 for M(kappa)
};

/// `graph` must be graph_laplacian_extremes(m.topology()); passing it lets a caller that
/// already has it (to pick the optimal alpha) avoid a second eigen-solve. For a uniform M
/// the spectrum of M is the graph's scaled by alpha, so no further eigen-solve is needed.
DiffusionAnalysis analyze_diffusion(const DiffusionMatrix& m, const LaplacianExtremes& graph, double factor);
DiffusionAnalysis analyze_diffusion(const DiffusionMatrix& m, double factor,
                                    EigenMethod method = EigenMethod::automatic);

/// {topology, alpha, nodes, converges, theorem1: {...}, lambda_2, lambda_n, gamma, ...};
/// infinite values and missing step counts are null.
nlohmann::json to_json(const DiffusionAnalysis& a);

}  // namespace dlbkit
