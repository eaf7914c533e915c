#pragma once
/// \file
/// First-order diffusion (Cyb89 eq. 1a-3): w_i <- w_i + sum_j alpha_ij (w_j - w_i), i.e.
/// w <- M w, for any diffusion matrix M. Integer loads use the rounding rule of
/// round_kernel.hpp with a_ij = alpha_ij.
///
/// ```
/// auto m = dlbkit::DiffusionMatrix::uniform(dlbkit::parse_topology("torus:64x64"), 0.2);
/// dlbkit::DiffusionKernel k(m);
/// k.update(0, w, next, 0, static_cast<dlbkit::NodeId>(w.size()));
/// ```
/// A uniform alpha on a hypercube or a two-dimensional torus (extents >= 3) takes a stencil
/// path that computes the neighbours' ids instead of reading them; it performs the same
/// operations in the same order, so its results are bit-identical to the general path.
/// Keeps a copy of the matrix (topology shared); immutable, safe for concurrent update().

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/rounds/round_kernel.hpp>

namespace dlbkit {

class DiffusionKernel final : public RoundKernel {
public:
  /// `streaming_stores` false keeps the results in the caches (for a caller that reads them
  /// right back, as PolynomialKernel does).
  explicit DiffusionKernel(DiffusionMatrix m, bool streaming_stores = true);

  void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
              NodeId end) const override;
  void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next, NodeId begin,
              NodeId end) const override;
  std::size_t size() const override { return m_.size(); }
  std::string name() const override { return "diffusion"; }

  /// A second-order step in one pass: next = beta (M w) + (1 - beta) next over [begin, end),
  /// `next` holding w(t-1) on entry (polynomial_kernel.hpp); beta = 1 is update(). The same
  /// bits as M w into a buffer followed by the combination, with a third less memory traffic.
  void update_second_order(double beta, std::span<const double> current, std::span<double> next, NodeId begin,
                           NodeId end) const;

  const DiffusionMatrix& matrix() const { return m_; }
  /// The path update() takes: neighbour lists, or ids computed for a hypercube or 2-D torus.
  enum class Stencil { general, hypercube, torus2d };
  Stencil stencil() const { return stencil_; }

private:
  template <class Load>
  void apply(std::span<const Load> current, std::span<Load> next, NodeId begin, NodeId end, double beta = 1.0) const;

  DiffusionMatrix m_;
  Stencil stencil_ = Stencil::general;
  enum class Streaming { none, avx2, avx512 };  ///< the torus stencil's stores on large vectors
  Streaming stream_ = Streaming::none;
};

}  // namespace dlbkit
