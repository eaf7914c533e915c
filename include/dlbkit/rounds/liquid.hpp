#pragma once
/// \file
/// The Liquid model (Henrich, "The Liquid Model Load Balancing Method", Sec. 3.2): integer
/// loads on a D-dimensional torus (a ring is D = 1, hypercube:d the torus 2x2x...x2). In every
/// dimension d in turn, every processor i evaluates the shift condition C_{i,d} on the loads
/// before that sub-step and, where it holds, shifts one load element to its successor i + 1_d
/// (Definition 1):
///
///     L_i <- L_i + [C_{i-1_d,d}] - [C_{i,d}]
///
/// with the shift conditions C0..C5 of Table 1 (strategies/local_rules.hpp).
///
/// One kernel step is one sub-step (one shift, the paper's time unit): step t works in
/// dimension t mod D, so one load-balancing step of Definition 1 is D kernel steps. Loads are
/// conserved exactly. Continuous loads move one unit per shift by the same rule.
///
/// ```
/// dlbkit::LiquidKernel lm(dlbkit::parse_topology("ring:8"), dlbkit::ShiftCondition::c5);
/// std::vector<std::int64_t> w{16, 0, 0, 0, 0, 0, 0, 0}, next(8);
/// lm.update(0, w, next, 0, 8);   // next = {15, 1, 0, 0, 0, 0, 0, 0}
/// ```
/// The default path walks runs of processors whose neighbours lie at fixed offsets, in a loop
/// the compiler vectorises; LiquidPath::reference computes every neighbour from coordinates.
/// Both give identical results. Immutable: update() is safe from several threads.

#include <dlbkit/rounds/round_kernel.hpp>
#include <dlbkit/strategies/local_rules.hpp>

#include <string>
#include <vector>

namespace dlbkit {

enum class LiquidPath { fast, reference };

class LiquidKernel final : public RoundKernel {
public:
  /// Throws InputError when `topology` is not a torus, ring or hypercube (check_liquid_topology).
  LiquidKernel(const Topology& topology, ShiftCondition condition, LiquidPath path = LiquidPath::fast);

  void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
              NodeId end) const override;
  void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next, NodeId begin,
              NodeId end) const override;
  std::size_t size() const override { return size_; }
  /// "lm-c0" .. "lm-c5".
  std::string name() const override { return "lm-" + to_string(condition_); }

  ShiftCondition condition() const { return condition_; }
  /// D: the number of dimensions (kernel steps per Definition-1 step).
  int dimensions() const { return static_cast<int>(extents_.size()); }
  const std::vector<int>& extents() const { return extents_; }

private:
  template <class Load>
  void apply(std::uint64_t step, const Load* w, Load* next, std::size_t begin, std::size_t end) const;

  std::vector<int> extents_;
  std::vector<std::size_t> strides_;
  std::size_t size_ = 0;
  ShiftCondition condition_;
  LiquidPath path_;
};

}  // namespace dlbkit
