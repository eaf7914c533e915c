#pragma once
/// \file
/// Dimension exchange (Cyb89 Sec. 4) and its generalisation to any graph over a proper edge
/// colouring. Step t uses colour c = t mod (number of colours): every node v with a partner
/// p across a colour-c edge sets w_v <- w_v + lambda (w_p - w_v); nodes without one keep
/// their load. On the hypercube with the dimension colouring and lambda = 1/2 this is
/// w <- F_i w with F_i = (I + D_i)/2, and one sweep of d steps balances exactly (Theorem 4).
/// Integer loads use the rounding rule of round_kernel.hpp with a_ij = lambda; with
/// lambda = 1/2 the two loads of a pair end at most one unit apart.
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:10");
/// auto de = dlbkit::DimensionExchangeKernel::hypercube(cube);           // 10 steps per sweep
/// auto torus = dlbkit::parse_topology("torus:5x5");
/// auto gde = dlbkit::DimensionExchangeKernel::generalized(torus, dlbkit::edge_coloring(torus), 0.5);
/// ```
/// Immutable; safe for concurrent update() on disjoint ranges.

#include <dlbkit/topology/edge_coloring.hpp>
#include <dlbkit/rounds/round_kernel.hpp>

namespace dlbkit {

class DimensionExchangeKernel final : public RoundKernel {
public:
  /// Cybenko's scheme: dimension colouring, lambda = 1/2. Throws InputError (suggesting
  /// gde) when the topology is not a hypercube.
  static DimensionExchangeKernel hypercube(const Topology& topology);
  /// Generalized dimension exchange with exchange parameter lambda in (0, 1). Throws
  /// InputError for a lambda outside (0, 1) or a network without edges.
  static DimensionExchangeKernel generalized(const Topology& topology, EdgeColoring colouring, double lambda = 0.5);

  void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
              NodeId end) const override;
  void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next, NodeId begin,
              NodeId end) const override;
  std::size_t size() const override { return topology_.size(); }
  std::string name() const override { return name_; }

  /// Steps in one sweep over all colours (d on the hypercube).
  std::size_t colours() const { return colouring_.colors(); }
  double lambda() const { return lambda_; }

private:
  DimensionExchangeKernel(Topology topology, EdgeColoring colouring, double lambda, std::string name);
  template <class Load>
  void apply(std::uint64_t step, std::span<const Load> current, std::span<Load> next, NodeId begin, NodeId end) const;

  Topology topology_;
  EdgeColoring colouring_;
  double lambda_;
  std::string name_;
};

}  // namespace dlbkit
