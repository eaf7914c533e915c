#pragma once
/// \file
/// The load update policy of WLR93 Sec. III-F, shared by SID, RID and HBM: a node reports
/// its load whenever it has risen to (1/u) or dropped to u times the value it last
/// reported, so the relative error of what the neighbours know stays below 1/u.

#include <dlbkit/core/message.hpp>
#include <dlbkit/core/node_context.hpp>

#include <cstdint>
#include <vector>

namespace dlbkit {

/// Body of a load update message.
struct LoadUpdate {
  std::int64_t load;
};

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

/// Position of `node` in ctx.neighbors(), or -1 when it is not a neighbour.
inline int neighbor_index(const NodeContext& ctx, NodeId node) {
  const auto nb = ctx.neighbors();
  for (std::size_t i = 0; i < nb.size(); ++i)
    if (nb[i] == node) return static_cast<int>(i);
  return -1;
}

}  // namespace dlbkit
