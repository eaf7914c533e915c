#pragma once
// Internal to the strategies layer: synchronous rounds over a set of partners, shared by the
// diffusion, dimension_exchange, sos and chebyshev agents (docs/strategies.md).
//
// Round r, on every node: read its load L = migratable() (the queued tasks: the load elements
// that can move), send it to each of the round's partners (all neighbours for diffusion, the
// neighbour across colour r mod C for dimension exchange), and once all of theirs have arrived
// compute the tasks to send to each partner, ship them and tell every partner how many it
// ships (a notice, also for none). The round ends when the notices and tasks from all partners
// have arrived; round r + 1 starts `period` later. Messages of a partner's later rounds wait in
// a table by round. A round without partners ends at once.
//
// The rounds run for ever (a timer every period), as the Liquid model and NNA agents do; the
// engines end a run when the work is done.

#include <dlbkit/core/registry.hpp>

#include <cassert>
#include <map>
#include <span>
#include <vector>

namespace dlbkit::detail {

class EdgeRounds : public Strategy {
public:
  enum Kind : std::uint16_t { kRoundLoad, kRoundShift };

  void on_start(NodeContext& ctx) override { ctx.set_timer(0, 0); }
  void on_timer(NodeContext& ctx, std::uint64_t round) override { begin(ctx, round); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    const auto body = m.as<Body>();
    Round& st = rounds_[body.round];
    if (m.kind == kRoundLoad) {
      st.loads.emplace(from, body.value);
      evaluate(ctx, body.round);
    } else {
      assert(m.kind == kRoundShift);
      ++st.notices;
      expected_ += body.value;
      finish(ctx, body.round);
    }
  }

  void on_tasks_arrived(NodeContext& ctx, NodeId, std::int64_t count) override {
    expected_ -= count;
    finish(ctx, current_);
  }

protected:
  explicit EdgeRounds(SimTime period) : period_(period) {}

  /// The round's partners, distinct neighbours of this node.
  virtual void partners(const NodeContext& ctx, std::uint64_t round, std::vector<NodeId>& out) = 0;
  /// Tasks (>= 0) to send to each partner, given this node's load and the partners' loads
  /// (in the order of partners()); called only for a round with partners.
  virtual void transfers(const NodeContext& ctx, std::uint64_t round, std::int64_t own,
                         std::span<const std::int64_t> loads, std::span<std::int64_t> out) = 0;

private:
  struct Body {
    std::uint64_t round;
    std::int64_t value;  // a load, or the tasks shipped
  };
  struct Round {
    bool started = false, evaluated = false;
    std::int64_t own = 0;
    std::map<NodeId, std::int64_t> loads;  // from partners, arriving in any order
    std::size_t notices = 0;
  };

  void begin(NodeContext& ctx, std::uint64_t round) {
    current_ = round;
    Round& st = rounds_[round];
    st.started = true;
    st.own = ctx.migratable();
    partners(ctx, round, partners_);
    for (NodeId p : partners_) ctx.send(p, Message::make(kRoundLoad, Body{round, st.own}));
    evaluate(ctx, round);
  }

  void evaluate(NodeContext& ctx, std::uint64_t round) {
    Round& st = rounds_[round];
    if (!st.started || st.evaluated || st.loads.size() < partners_.size()) return;
    st.evaluated = true;
    loads_.resize(partners_.size());
    amounts_.assign(partners_.size(), 0);
    for (std::size_t k = 0; k < partners_.size(); ++k) loads_[k] = st.loads.at(partners_[k]);
    if (!partners_.empty()) transfers(ctx, round, st.own, loads_, amounts_);
    for (std::size_t k = 0; k < partners_.size(); ++k) {
      const std::int64_t sent = amounts_[k] > 0 ? ctx.migrate(partners_[k], amounts_[k]) : 0;
      ctx.send(partners_[k], Message::make(kRoundShift, Body{round, sent}));
    }
    finish(ctx, round);
  }

  void finish(NodeContext& ctx, std::uint64_t round) {
    if (round != current_) return;
    const auto it = rounds_.find(round);
    if (it == rounds_.end() || !it->second.evaluated || it->second.notices < partners_.size() || expected_ != 0)
      return;
    rounds_.erase(it);
    ++current_;  // no round in progress until the timer starts the next
    ctx.set_timer(period_, round + 1);
  }

  SimTime period_;
  std::map<std::uint64_t, Round> rounds_;
  std::uint64_t current_ = 0;
  std::int64_t expected_ = 0;  // tasks announced by notices and not yet arrived
  std::vector<NodeId> partners_;  // of the current round
  std::vector<std::int64_t> loads_, amounts_;
};

// The tasks from a node with load `own` to a partner with `other` for the flow a (own - other):
// rounded toward zero when positive (round_kernel.hpp), evaluated in double as the kernels do.
inline std::int64_t rounded_flow(double a, std::int64_t own, std::int64_t other) {
  return own > other ? static_cast<std::int64_t>(a * static_cast<double>(own - other)) : 0;
}

}  // namespace dlbkit::detail
