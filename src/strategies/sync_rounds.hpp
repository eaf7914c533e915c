#pragma once
// Internal to the strategies layer: the synchronous rounds that the shift agents (liquid, nna:
// shift_rounds.hpp) and the edge agents (diffusion, dimension_exchange, sos, chebyshev:
// edge_rounds.hpp) share (docs/strategies.md).
//
// Round r, on every node: read its load L = migratable() (the queued tasks: the load elements
// that can move) and send it to the round's partners; once all of theirs have arrived, ship
// tasks and tell each receiving partner how many it ships (a notice, also for none). The round
// ends when the notices due and the tasks they announce have arrived; round r + 1 starts
// `period` later. Messages of a partner's later rounds wait in a table by round. The rounds run
// for ever (a timer every period); the engines end a run when the work is done.

#include <dlbkit/core/registry.hpp>

#include <cassert>
#include <map>
#include <vector>

namespace dlbkit::detail {

class SyncRounds : public Strategy {
public:
  enum Kind : std::uint16_t { kRoundLoad, kRoundShift, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"round_load", "round_shift"};

  // Round 0 starts by a timer at time 0, once every node has taken up its first task.
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
  explicit SyncRounds(SimTime period) : period_(period) {}

  /// The round's partners, distinct neighbours of this node, in the order loads go to them.
  virtual void partners(const NodeContext& ctx, std::uint64_t round, std::vector<NodeId>& out) = 0;
  /// Ships the round's tasks and sends the notices (notify()), given this node's load and the
  /// partners' (by node).
  virtual void ship(NodeContext& ctx, std::uint64_t round, std::int64_t own,
                    const std::map<NodeId, std::int64_t>& loads) = 0;
  /// How many notices end the current round.
  virtual std::size_t notices_due() const = 0;

  /// Migrates `amount` tasks to `to` if positive and sends the notice of what went.
  static void notify(NodeContext& ctx, NodeId to, std::uint64_t round, std::int64_t amount) {
    const std::int64_t sent = amount > 0 ? ctx.migrate(to, amount) : 0;
    ctx.send(to, Message::make(kRoundShift, Body{round, sent}));
  }

  const std::vector<NodeId>& current_partners() const { return partners_; }

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
    ship(ctx, round, st.own, st.loads);
    finish(ctx, round);
  }

  void finish(NodeContext& ctx, std::uint64_t round) {
    if (round != current_) return;
    const auto it = rounds_.find(round);
    if (it == rounds_.end() || !it->second.evaluated || it->second.notices < notices_due() || expected_ != 0)
      return;
    rounds_.erase(it);
    ++current_;  // no round in progress until the timer starts the next
    ctx.set_timer(period_, round + 1);
  }

  SimTime period_;
  std::map<std::uint64_t, Round> rounds_;
  std::uint64_t current_ = 0;
  std::int64_t expected_ = 0;     // tasks announced by notices and not yet arrived
  std::vector<NodeId> partners_;  // of the current round
};

}  // namespace dlbkit::detail
