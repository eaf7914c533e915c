#pragma once
// Internal to the strategies layer: the synchronous shift rounds that the Liquid model and NNA
// agents share (docs/strategies.md, "liquid" and "nna").
//
// The rounds of sync_rounds.hpp with the round's predecessor and successor as partners: once
// both loads have arrived the node computes the transfers from (L_pred, L, L_succ), ships the
// tasks and sends a notice to the successor, and with two-way shifts to the predecessor too.

#include "sync_rounds.hpp"

#include <utility>
#include <vector>

namespace dlbkit::detail {

class ShiftRounds : public SyncRounds {
protected:
  ShiftRounds(SimTime period, bool two_way) : SyncRounds(period), two_way_(two_way) {}

  /// The round's predecessor and successor (equal on an extent of two).
  virtual std::pair<NodeId, NodeId> neighbours(const NodeContext& ctx, std::uint64_t round) const = 0;
  /// Elements to send to the predecessor and to the successor.
  virtual std::pair<std::int64_t, std::int64_t> transfers(std::int64_t pred, std::int64_t self,
                                                          std::int64_t succ) const = 0;

private:
  void partners(const NodeContext& ctx, std::uint64_t round, std::vector<NodeId>& out) override {
    const auto [pred, succ] = neighbours(ctx, round);
    out.assign({pred});
    if (succ != pred) out.push_back(succ);
  }
  void ship(NodeContext& ctx, std::uint64_t round, std::int64_t own,
            const std::map<NodeId, std::int64_t>& loads) override {
    const auto [pred, succ] = neighbours(ctx, round);
    const auto [to_pred, to_succ] = transfers(loads.at(pred), own, loads.at(succ));
    notify(ctx, succ, round, to_succ);
    if (two_way_) notify(ctx, pred, round, to_pred);
  }
  std::size_t notices_due() const override { return two_way_ ? 2 : 1; }

  bool two_way_;
};

}  // namespace dlbkit::detail
