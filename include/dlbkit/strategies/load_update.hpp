#pragma once
/// \file
/// The load update policy of WLR93 Sec. III-F, shared by SID, RID and HBM: a node reports
/// its load whenever it has risen to (1/u) or dropped to u times the value it last
/// reported, so the relative error of what the neighbours know stays below 1/u.

#include <dlbkit/core/message.hpp>
#include <dlbkit/core/node_context.hpp>
#include <dlbkit/core/parameters.hpp>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace dlbkit {

/// Body of a load update message.
struct LoadUpdate {
  std::int64_t load;
};

/// SID's and RID's parameter `u` (HBM's default is 1/2, and it has its own).
inline constexpr RealParam kLoadUpdateFactor{.name = "u", .default_value = "0.9",
    .description = "load update factor of Sec. III-F (report when the load changes by factor u)",
    .min = 1e-9, .max = 1};

class LoadUpdatePolicy {
public:
  /// `u` in (0, 1]: 9/10 for SID and RID, 1/2 for HBM (WLR93 Table II). u = 1 reports
  /// every change.
  explicit LoadUpdatePolicy(double u) : u_(u) {}

  /// True when nothing was reported yet, or `load` >= L_sent / u, or `load` <= u L_sent.
  bool due(std::int64_t load) const {
    if (!reported_) return true;
    if (load == last_) return false;
    const double l = static_cast<double>(load), sent = static_cast<double>(last_);
    return l >= sent / u_ || l <= u_ * sent;
  }
  void reported(std::int64_t load) {
    last_ = load;
    reported_ = true;
  }
  /// When due, sends LoadUpdate{load} of kind `kind` to every neighbour. Returns whether it did.
  bool update_neighbors(NodeContext& ctx, std::uint16_t kind) {
    const std::int64_t load = ctx.load();
    if (!due(load)) return false;
    const Message m = Message::make(kind, LoadUpdate{load});
    for (NodeId n : ctx.neighbors()) ctx.send(n, m);
    reported(load);
    return true;
  }

private:
  double u_;
  std::int64_t last_ = 0;
  bool reported_ = false;
};

/// A node's record of its neighbours' loads, from their updates. WLR93 III-B: "all
/// processors inform their near-neighbors of their load levels" before anyone balances,
/// so a neighbour that has not reported yet is unknown, not empty. The loads are the
/// node's neighbor_slots() (NodeContext), a load not yet reported marked by a value no load
/// takes, so an update touches one cache line, which the simulator loads ahead.
class NeighborLoads {
public:
  /// Takes `slots` (one per neighbour) as the record, every neighbour unheard.
  void reset(std::span<std::int64_t> slots) {
    load_ = slots;
    std::fill(load_.begin(), load_.end(), kUnheard);
    unheard_ = load_.size();
  }
  /// Records neighbour k's report; true when it was the last neighbour still unheard.
  bool set(std::size_t k, std::int64_t load) {
    assert(load != kUnheard);
    const bool first = load_[k] == kUnheard;
    load_[k] = load;
    return first && --unheard_ == 0;
  }
  /// Every neighbour has reported at least once.
  bool complete() const { return unheard_ == 0; }
  /// Neighbour k's last report (once complete()).
  std::int64_t& operator[](std::size_t k) { return load_[k]; }
  /// The reports (once complete()).
  std::span<const std::int64_t> loads() const { return load_; }
  /// The lowest reported load, once complete() (a node with no neighbours: none, the largest value).
  std::int64_t lowest() const {
    std::int64_t least = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t l : load_) least = std::min(least, l);
    return least;
  }
  std::size_t size() const { return load_.size(); }

private:
  static constexpr std::int64_t kUnheard = std::numeric_limits<std::int64_t>::min();
  std::span<std::int64_t> load_;
  std::size_t unheard_ = 0;
};

/// Position of `node` in ctx.neighbors(), or -1 when it is not a neighbour.
inline int neighbor_index(const NodeContext& ctx, NodeId node) {
  return ctx.topology().neighbor_index(ctx.self(), node);
}

}  // namespace dlbkit
