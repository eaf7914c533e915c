#pragma once
/// \file
/// The stochastic work model of Cyb89 eq. (12) (diffusion) and eq. (17) (dimension exchange):
/// a balancing kernel K runs while every node receives new work and completes c units per
/// period,
///
///     w(t+1) = K^s w(t) - c u + eta(t+1),       t = 0, 1, ...
///
/// where s kernel steps make one period (s = 1 is eq. 12 with K = M and eq. 17 with
/// K = F_{t mod d + 1}; s = d runs one full dimension-exchange sweep per arrival), u is the
/// all-ones vector and eta_i(t) are independent draws from an ArrivalDistribution with mean mu
/// and variance sigma^2. The kernel's step counter runs on across periods, so dimension
/// exchange keeps cycling through the dimensions. w(0) is the given initial load.
///
/// The measured quantity is Theorem 2's E||w - w_bar||^2 (w_bar the uniform vector of the same
/// total), sampled where eq. (12) defines w(t): right after the arrivals. It is estimated by a
/// time average over the periods after a warm-up (the process is stationary by then), with a
/// standard error from batch means.
///
/// Stationary values (the proof of Theorem 2 with equalities kept, and Lemma 3):
///  - diffusion, symmetric M with eigenvalues 1 = lambda_1 > lambda_2 >= ... >= lambda_n:
///    E||w - w_bar||^2 = sigma^2 sum_{i>=2} 1/(1 - lambda_i^{2s}) <= (n-1) sigma^2 / (1 - gamma^{2s}),
///    the bound of Theorem 2 (equal to it only when every |lambda_i| = gamma);
///  - dimension exchange on the d-cube: an arrival that has been through m distinct dimensions
///    is balanced on subcubes of 2^m nodes, leaving (n/2^m - 1) sigma^2 (Lemma 3 with k = 2^m);
///    summing over past arrivals gives sigma^2 sum_{j >= 0, js < d} (n/2^{js} - 1), that is
///    (2n - d - 2) sigma^2 for s = 1 (below Theorem 5's 2 n sigma^2) and (n - 1) sigma^2 for s >= d.
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:6");
/// dlbkit::DiffusionKernel k(dlbkit::DiffusionMatrix::uniform(cube, 1.0 / 7));
/// std::vector<double> w(cube.size(), 0.0);
/// dlbkit::StochasticResult r = dlbkit::run_stochastic(
///     k, w, {.arrivals = dlbkit::ArrivalDistribution::parse("normal:1:1"), .work = 1, .periods = 10000,
///            .warmup = 100}, 7);
/// // r.variance ~ hypercube_diffusion_variance(6, 1.0 / 7, 1, 1.0) <= theorem2_bound(64, 1.0, 5.0 / 7, 1)
/// ```
/// One run uses only its arguments: several may run at once.

#include <dlbkit/core/random.hpp>
#include <dlbkit/rounds/round_kernel.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The distribution of eta_i(t):
///
/// | spec | draws | mean | variance |
/// |---|---|---|---|
/// | normal:MU:SIGMA | normal (Box-Muller), SIGMA >= 0 | MU | SIGMA^2 |
/// | uniform:LO:HI | uniform in (LO, HI), LO <= HI | (LO + HI)/2 | (HI - LO)^2 / 12 |
/// | exponential:MEAN | exponential, MEAN > 0 | MEAN | MEAN^2 |
///
/// Cyb89 draws from the positive reals; normal and uniform specs may produce negative work,
/// which eq. (12) carries as is (the paper's interpretation (b)).
struct ArrivalDistribution {
  enum class Kind { normal, uniform, exponential };
  Kind kind = Kind::normal;
  double a = 0;  ///< MU, LO or MEAN
  double b = 0;  ///< SIGMA, HI or unused

  /// Throws InputError naming the spec and the bad value, and listing the accepted forms.
  static ArrivalDistribution parse(const std::string& spec);
  std::string to_string() const;
  double mean() const;
  double variance() const;
  double draw(Rng& rng) const;
};

struct StochasticOptions {
  ArrivalDistribution arrivals;
  double work = 0;                     ///< c, completed by every node every period (>= 0)
  std::uint64_t periods = 1000;        ///< periods run in all
  std::uint64_t warmup = 0;            ///< periods before the time average starts (< periods)
  std::uint64_t steps_per_period = 1;  ///< s, kernel steps between arrivals (>= 1)
  bool trace = false;                  ///< record ||w - w_bar||^2 after every period
};

struct StochasticResult {
  std::uint64_t periods = 0;
  std::uint64_t kernel_steps = 0;
  std::uint64_t samples = 0;      ///< periods warmup+1 .. periods
  double variance = 0;            ///< time average of ||w - w_bar||^2 over the samples
  double variance_stderr = 0;     ///< standard error of `variance` from batch means (0 if too few samples)
  double mean_load = 0;           ///< mean of w at the end
  double expected_mean_load = 0;  ///< mean of w(0) + periods (mu - c) (Theorem 2's E(w))
  double max_min_difference = 0;  ///< at the end
  std::vector<double> trace;      ///< ||w - w_bar||^2 after periods 0, 1, ..., periods (with trace)
  double seconds = 0;
};

/// Runs the model on `load` (updated in place), drawing from Rng(seed) node by node, period by
/// period. Throws InputError for a load vector of the wrong size, warmup >= periods,
/// steps_per_period 0 or a work c that is negative or not finite.
StochasticResult run_stochastic(const RoundKernel& kernel, std::vector<double>& load, const StochasticOptions& options,
                                std::uint64_t seed);

/// Theorem 2's limit (n - 1) sigma^2 / (1 - gamma^{2s}) (M^s has gamma^s); +inf when gamma >= 1.
double theorem2_bound(std::size_t nodes, double sigma2, double gamma, std::uint64_t steps_per_period = 1);
/// Theorem 5's bound 2 n sigma^2.
double theorem5_bound(std::size_t nodes, double sigma2);
/// The exact stationary E||w - w_bar||^2 of uniform-alpha diffusion on the d-cube, whose M
/// has eigenvalues 1 - 2 k alpha with multiplicity C(d, k) (Sec. 3):
/// sigma^2 sum_{k=1..d} C(d, k) / (1 - (1 - 2 k alpha)^{2s}). +inf when some |1 - 2 k alpha| >= 1.
double hypercube_diffusion_variance(unsigned d, double alpha, std::uint64_t steps_per_period, double sigma2);
/// The exact stationary E||w - w_bar||^2 of dimension exchange on the d-cube:
/// sigma^2 sum_{j >= 0, js < d} (2^d / 2^{js} - 1).
double hypercube_exchange_variance(unsigned d, std::uint64_t steps_per_period, double sigma2);

/// {arrivals, mu, sigma2, work, periods, warmup, steps_per_period, kernel_steps, samples,
///  variance, variance_stderr, mean_load, expected_mean_load, max_min_difference, seconds,
///  trace (when recorded)}.
nlohmann::json to_json(const StochasticResult& r, const StochasticOptions& options);

}  // namespace dlbkit
