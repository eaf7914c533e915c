#pragma once
/// \file
/// The successors of first-order diffusion as round-engine kernels: SOS, Chebyshev and OPS
/// (analysis/polynomial_schemes.hpp for the schemes and their sources), and first-order
/// diffusion itself with the randomized and flow-imitation roundings. All are the recurrence
///
///     z(t) = (beta_t - 1) z(t-1) + beta_t w(t),   z(0) = w(0)        (beta_0 = 1)
///     y_ij(t) = s_t alpha_ij (z_i(t) - z_j(t))                       (the flow on edge ij)
///     w_i(t+1) = w_i(t) - sum_j y_ij(t)
///
/// which for real loads is w(t+1) = beta_t M_t w(t) + (1 - beta_t) w(t-1) with
/// M_t = I - s_t L: SOS (beta_t = beta for t >= 1, s_t = 1), Chebyshev (beta_t varying, s_t = 1),
/// OPS (beta_t = 1, s_t = 1/mu_k, the eigenvalues of L in Leja order, repeated every m - 1
/// steps), FOS (beta_t = 1, s_t = 1). For real loads update() applies the matrix form;
/// `next` must hold w(t-1) on entry for t >= 1 (the round loop's second buffer does).
///
/// Integer loads move whole tasks along edges, the flow y_ij(t) rounded (`Rounding`):
///   deterministic   toward zero (round_kernel.hpp), the flow's memory kept in z at the nodes;
///   randomized      up with probability equal to its fractional part, the coin of each edge
///                   and step drawn from a hash of (seed, step, edge), the same at both ends
///                   (randomized rounding of the flow, Sauerwald & Sun 2012; Berenbrink et al. 2011);
///   flow_imitation  the continuous scheme runs beside, and each edge's total tasks moved
///                   tracks its total continuous flow F_ij(t) rounded toward zero, so every
///                   node stays within its degree of the continuous load (Akbari, Berenbrink,
///                   Sauerwald, Distributed Computing 29, 2016: max - average <= 2 d w_max).
/// Each edge's rounded flow is computed at both ends from the same values with opposite signs,
/// so the total is conserved exactly. Intermediate loads may be negative: second-order and OPS
/// flows can exceed a node's load (an overshoot), and rounding up can too; a negative load is
/// a debt of tasks the node repays in later steps (the "I-owe-you" units of GMS96).
///
/// The papers are cited by name only: their section, equation and theorem numbers could not be
/// checked (docs/reproductions/beyond.md says what was checked against their abstracts).
///
/// Stateful for integer loads (z, and the continuous scheme for flow imitation): one run at a
/// time, steps 0, 1, 2, ... in order; step 0 starts afresh. Safe for concurrent update() on
/// disjoint ranges of one step.

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/round_kernel.hpp>

#include <memory>
#include <string>
#include <vector>

namespace dlbkit {

enum class Rounding { deterministic, randomized, flow_imitation };
/// "deterministic", "randomized" or "flow-imitation"; InputError otherwise.
Rounding parse_rounding(const std::string& text);
std::string to_string(Rounding r);

class PolynomialKernel final : public RoundKernel {
public:
  struct Options {
    Rounding rounding = Rounding::deterministic;
    std::uint64_t seed = 1;  ///< of the randomized rounding
  };

  /// First-order diffusion (for the integer roundings other than deterministic, which
  /// DiffusionKernel has).
  static PolynomialKernel fos(DiffusionMatrix m, Options o);
  /// SOS with beta from gamma(M) (sos_beta). Throws InputError unless 0 <= gamma < 1.
  static PolynomialKernel sos(DiffusionMatrix m, double gamma, Options o);
  /// Chebyshev acceleration from gamma(M). Throws InputError unless 0 <= gamma < 1.
  static PolynomialKernel chebyshev(DiffusionMatrix m, double gamma, Options o);
  /// OPS from the distinct eigenvalues of L = I - M (0 included, any order). Throws InputError
  /// when there are fewer than two.
  static PolynomialKernel ops(DiffusionMatrix m, std::vector<double> laplacian_eigenvalues, Options o);

  void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
              NodeId end) const override;
  void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next, NodeId begin,
              NodeId end) const override;
  std::size_t size() const override { return m_.size(); }
  std::string name() const override { return name_; }

  double beta(std::uint64_t step) const { return beta_[std::min<std::uint64_t>(step, beta_.size() - 1)]; }
  double scale(std::uint64_t step) const { return scale_[step % scale_.size()]; }
  /// "alpha=0.2, beta=1.8" and the like, for reports.
  std::string description() const;

private:
  PolynomialKernel(std::string name, DiffusionMatrix m, std::vector<double> beta, std::vector<double> scale,
                   Options o);

  void randomized_stencil(std::uint64_t step_key, double alpha, std::span<const std::int64_t> w,
                          std::span<std::int64_t> next, NodeId begin, NodeId end) const;

  std::string name_;
  DiffusionMatrix m_;
  DiffusionKernel fos_;       // M w, for real loads
  std::vector<double> beta_;  // beta_0, beta_1, ...; the last holds for all later steps
  std::vector<double> scale_; // s_t, repeated
  Options o_;
  bool second_order_;
  // Buffers by parity of the step (their writers are the nodes' own entries): M w for real
  // loads; z; for flow imitation the continuous loads x, their z and the sums S of s_t z(t).
  mutable std::vector<double> mw_;
  mutable std::vector<double> z_[2], x_[2], xz_[2], sum_[2];
};

}  // namespace dlbkit
