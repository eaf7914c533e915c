#pragma once
/// \file
/// One synchronous balancing step over a load vector: the contract of the round loop's
/// kernels. A kernel writes next[v] for a range of nodes from the whole current vector, so
/// the engine can split a step over threads by node ranges and the result does not depend
/// on the split.
///
/// Loads are continuous (double; Cyb89 treats them as reals, Sec. 2) or integer
/// (std::int64_t tasks). Integer kernels move whole units along edges with the rounding rule
///
///     flow from i to j = trunc(a_ij * (w_i - w_j))      (rounded toward zero)
///
/// where a_ij is the edge's alpha (diffusion) or exchange parameter lambda (dimension
/// exchange), evaluated in double. trunc(-x) = -trunc(x), so i and j compute the same flow
/// with opposite signs and the total is conserved exactly; the richer node keeps the odd
/// unit. Differences must stay below 2^53 for the double evaluation to be exact.
///
/// ```
/// const dlbkit::RoundKernel& k = ...;
/// k.update(step, current, next, 0, n);   // next = one step applied to current
/// ```
/// Kernels are immutable: update() is safe to call from several threads on disjoint ranges.
/// Second-order kernels (PolynomialKernel) also read next[v], which holds the load of the step
/// before (step >= 1), as the round loop's second buffer does after its swap.

#include <dlbkit/topology/topology.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace dlbkit {

class RoundKernel {
public:
  virtual ~RoundKernel() = default;

  /// Writes next[v] for v in [begin, end) as step `step` (0, 1, ...) applied to `current`.
  virtual void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
                      NodeId end) const = 0;
  virtual void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next,
                      NodeId begin, NodeId end) const = 0;

  /// Number of nodes the kernel works on.
  virtual std::size_t size() const = 0;
  /// "diffusion", "dimension-exchange", "gde", "lm-c0".."lm-c5" or "nna", for reports.
  virtual std::string name() const = 0;
};

}  // namespace dlbkit
