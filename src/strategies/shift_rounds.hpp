#pragma once
// Internal to the strategies layer: the synchronous shift rounds that the Liquid model and NNA
// agents share (docs/strategies.md, "liquid" and "nna").
//
// Round r, on every node: read its load L = migratable() (the queued tasks: the load elements
// that can move), send it to the round's predecessor and successor, and once both of theirs
// have arrived compute the transfers from (L_pred, L, L_succ), ship the tasks and tell each
// receiving neighbour how many it ships (a notice, also for none). The round ends when the
// notices and tasks from the round's senders have arrived; round r + 1 starts `period` later.
// Messages of a neighbour's later rounds wait in a table by round.

#include <dlbkit/core/registry.hpp>

#include <cassert>
#include <map>
#include <optional>
#include <utility>

namespace dlbkit::detail {

class ShiftRounds : public Strategy {
public:
  enum Kind : std::uint16_t { kRoundLoad, kRoundShift };

  // Round 0 starts by a timer at time 0, once every node has taken up its first task.
  void on_start(NodeContext& ctx) override { ctx.set_timer(0, 0); }
  void on_timer(NodeContext& ctx, std::uint64_t round) override { begin(ctx, round); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    const auto body = m.as<Body>();
    Round& st = rounds_[body.round];
    if (m.kind == kRoundLoad) {
      const auto [pred, succ] = neighbours(ctx, body.round);
      if (from == pred) st.pred = body.value;
      if (from == succ) st.succ = body.value;
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
  ShiftRounds(SimTime period, bool two_way) : period_(period), two_way_(two_way) {}

  /// The round's predecessor and successor (equal on an extent of two).
  virtual std::pair<NodeId, NodeId> neighbours(const NodeContext& ctx, std::uint64_t round) const = 0;
  /// Elements to send to the predecessor and to the successor.
  virtual std::pair<std::int64_t, std::int64_t> transfers(std::int64_t pred, std::int64_t self,
                                                          std::int64_t succ) const = 0;

private:
  struct Body {
    std::uint64_t round;
    std::int64_t value;  // a load, or the tasks shipped
  };
  struct Round {
    bool started = false, evaluated = false;
    std::int64_t own = 0;
    std::optional<std::int64_t> pred, succ;
    int notices = 0;
  };

  void begin(NodeContext& ctx, std::uint64_t round) {
    current_ = round;
    Round& st = rounds_[round];
    st.started = true;
    st.own = ctx.migratable();
    const auto [pred, succ] = neighbours(ctx, round);
    ctx.send(pred, Message::make(kRoundLoad, Body{round, st.own}));
    if (succ != pred) ctx.send(succ, Message::make(kRoundLoad, Body{round, st.own}));
    evaluate(ctx, round);
  }

  void evaluate(NodeContext& ctx, std::uint64_t round) {
    Round& st = rounds_[round];
    if (!st.started || st.evaluated || !st.pred || !st.succ) return;
    st.evaluated = true;
    const auto [pred, succ] = neighbours(ctx, round);
    const auto [to_pred, to_succ] = transfers(*st.pred, st.own, *st.succ);
    const std::int64_t sent_succ = to_succ > 0 ? ctx.migrate(succ, to_succ) : 0;
    ctx.send(succ, Message::make(kRoundShift, Body{round, sent_succ}));
    if (two_way_) {
      const std::int64_t sent_pred = to_pred > 0 ? ctx.migrate(pred, to_pred) : 0;
      ctx.send(pred, Message::make(kRoundShift, Body{round, sent_pred}));
    }
    finish(ctx, round);
  }

  void finish(NodeContext& ctx, std::uint64_t round) {
    if (round != current_) return;
    const auto it = rounds_.find(round);
    if (it == rounds_.end() || !it->second.evaluated || it->second.notices < (two_way_ ? 2 : 1) || expected_ != 0)
      return;
    rounds_.erase(it);
    ++current_;  // no round in progress until the timer starts the next
    ctx.set_timer(period_, round + 1);
  }

  SimTime period_;
  bool two_way_;
  std::map<std::uint64_t, Round> rounds_;
  std::uint64_t current_ = 0;
  std::int64_t expected_ = 0;  // tasks announced by notices and not yet arrived
};

}  // namespace dlbkit::detail
