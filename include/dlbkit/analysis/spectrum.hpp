#pragma once
/// \file
/// The eigenvalues of a diffusion matrix that decide its convergence (Cyb89 Sec. 2):
/// lambda_2, the largest eigenvalue other than lambda_1 = 1, and lambda_n, the smallest.
/// They are computed as the extreme non-trivial eigenvalues of L = I - M (the Laplacian of
/// the network weighted by the alphas): lambda_2 = 1 - mu_2, lambda_n = 1 - mu_max. Working
/// with L keeps 1 - lambda_2 = mu_2 accurate even when lambda_2 is within 1e-6 of 1.
///
/// ```
/// auto m = dlbkit::DiffusionMatrix::uniform(dlbkit::parse_topology("hypercube:20"), 1.0 / 21);
/// dlbkit::LaplacianExtremes e = dlbkit::laplacian_extremes(m);   // sparse: 2^20 nodes
/// // e.mu_2 = 2/21, e.mu_max = 40/21
/// ```
/// Small networks (N <= kDenseEigenLimit) use Eigen's dense symmetric eigen-solver (where
/// dlbkit was built with Eigen: else the dense method and diffusion_eigenvalues() throw
/// InputError, and every network takes the Lanczos run, which agrees to rounding). Larger
/// ones use one Lanczos run (three-term recurrence, Ritz values by Sturm bisection) on
/// L + s u u^T / n, where s = n/(n-1) (min + max weighted degree)/2 lies inside
/// [mu_2, mu_max] (Fiedler's bounds): the all-ones vector u, L's eigenvector for 0, is moved
/// inside the spectrum, so the smallest and largest Ritz values converge to mu_2 and mu_max.
/// It stops when both moved by at most 1e-15 times the spectral width over 20 steps. The
/// plain recurrence is used because the network sizes of interest (torus:1024x1024, where
/// mu_2 = 3.8e-5 sits in a cluster of width 4e-5 beside a spectrum of width 8) need some
/// 2000 Krylov steps, which an implicitly restarted solver (Spectra's SymEigsSolver with 40
/// vectors) did not reach in 7 minutes; the recurrence needs 30 s (hypercube:20: 2 s).
/// Thread-safe: no shared state.

#include <dlbkit/analysis/diffusion_matrix.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace dlbkit {

/// Networks up to this many nodes are solved densely by the automatic method.
inline constexpr std::size_t kDenseEigenLimit = 2048;

enum class EigenMethod { automatic, dense, sparse };

struct LaplacianExtremes {
  double mu_2 = 0;      ///< smallest eigenvalue of L on the complement of the all-ones vector
  double mu_max = 0;    ///< largest eigenvalue of L
  std::string method;   ///< "dense" or "sparse"
  long long matrix_products = 0;  ///< L x products the Lanczos run needed (0 when dense)
};

/// Extremes of L = I - M. Throws InputError for a network of one node (or, for dense, of more
/// than kDenseEigenLimit), and std::runtime_error if the Lanczos run does not settle.
LaplacianExtremes laplacian_extremes(const DiffusionMatrix& m, EigenMethod method = EigenMethod::automatic);

/// Extremes of the plain graph Laplacian D - A (every alpha = 1), which fix the optimal
/// uniform alpha: L_alpha = alpha (D - A).
LaplacianExtremes graph_laplacian_extremes(const Topology& topology, EigenMethod method = EigenMethod::automatic);

/// Every eigenvalue of M in increasing order, by the dense solver. Throws InputError when
/// N > kDenseEigenLimit.
std::vector<double> diffusion_eigenvalues(const DiffusionMatrix& m);

}  // namespace dlbkit
