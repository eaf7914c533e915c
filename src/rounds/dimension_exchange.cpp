#include <dlbkit/error.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

// The load that moves towards a node from its partner: lambda (w_p - w_v), rounded toward
// zero for integers (round_kernel.hpp).
inline double exchange_term(double lambda, double difference) { return lambda * difference; }
inline std::int64_t exchange_term(double lambda, std::int64_t difference) {
  return static_cast<std::int64_t>(lambda * static_cast<double>(difference));
}

}  // namespace

DimensionExchangeKernel::DimensionExchangeKernel(Topology topology, EdgeColoring colouring, double lambda,
                                                 std::string name)
    : topology_(std::move(topology)), colouring_(std::move(colouring)), lambda_(lambda), name_(std::move(name)) {}

DimensionExchangeKernel DimensionExchangeKernel::hypercube(const Topology& topology) {
  if (topology.kind() != TopologyKind::hypercube)
    throw InputError(fmt::format("dimension-exchange runs on a hypercube, not on {}; for other graphs use --algorithm "
                                 "gde (generalized dimension exchange over an edge colouring)",
                                 topology.spec()));
  return DimensionExchangeKernel(topology, edge_coloring(topology), 0.5, "dimension-exchange");
}

DimensionExchangeKernel DimensionExchangeKernel::generalized(const Topology& topology, EdgeColoring colouring,
                                                             double lambda) {
  if (!(lambda > 0 && lambda < 1))
    throw InputError(fmt::format("exchange parameter lambda {} is not accepted; accepted: 0 < lambda < 1", lambda));
  if (colouring.colors() == 0)
    throw InputError(fmt::format("{} has no edges: dimension exchange needs at least one", topology.spec()));
  return DimensionExchangeKernel(topology, std::move(colouring), lambda, "gde");
}

template <class Load>
void DimensionExchangeKernel::apply(std::uint64_t step, std::span<const Load> w, std::span<Load> next, NodeId begin,
                                    NodeId end) const {
  const auto c = static_cast<std::uint32_t>(step % colouring_.colors());
  for (NodeId v = begin; v < end; ++v) {
    const Load wv = w[v];
    const auto p = colouring_.partner(topology_, v, c);
    next[v] = p ? wv + exchange_term(lambda_, w[*p] - wv) : wv;
  }
}

void DimensionExchangeKernel::update(std::uint64_t step, std::span<const double> current, std::span<double> next,
                                     NodeId begin, NodeId end) const {
  apply(step, current, next, begin, end);
}

void DimensionExchangeKernel::update(std::uint64_t step, std::span<const std::int64_t> current,
                                     std::span<std::int64_t> next, NodeId begin, NodeId end) const {
  apply(step, current, next, begin, end);
}

}  // namespace dlbkit
