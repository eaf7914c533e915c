#include <dlbkit/strategies/lifeline.hpp>

#include <algorithm>
#include <cassert>

namespace dlbkit {

namespace {

struct Empty {};

class Lifeline final : public Strategy {
public:
  static constexpr const char* name = "lifeline";
  static constexpr const char* description =
      "lifeline-based work stealing: w random steals, then lifelines on a cyclic hypercube; "
      "idle nodes sleep until work comes down a lifeline";
  static constexpr const char* source =
      "Saraswat et al., PPoPP 2011, Sec. 3 (X10 GLB: LocalJobRunner, LifelineGenerator)";
  static constexpr IntegerParam kW{.name = "w", .default_value = "1",
      .description = "random steal attempts before the lifelines (X10 GLB's library default: 4)", .min = 0,
      .max = 1e6, .search = {"4"}};
  static constexpr IntegerParam kL{.name = "l", .default_value = "2",
      .description = "base of the cyclic-hypercube lifeline graph; 2 = binary hypercube (GLB's default: 4)",
      .min = 2, .max = 1e6, .search = {"4"}};
  static std::vector<ParamSpec> params() { return {kW, kL}; }
  enum Kind : std::uint16_t { kStealRequest, kLifelineRequest, kRefused, kLifelineGift, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds
      {"steal_request", "lifeline_request", "steal_refused", "lifeline_gift"};

  explicit Lifeline(const Parameters& p)
      : w_(static_cast<std::uint32_t>(p[kW])), base_(static_cast<std::size_t>(p[kL])) {}

  void on_start(NodeContext& ctx) override {
    buddies_ = lifeline_buddies(ctx.self(), ctx.topology().size(), base_);
    active_.assign(buddies_.size(), false);
    if (ctx.load() == 0) start_stealing(ctx);
  }

  void on_idle(NodeContext& ctx) override { start_stealing(ctx); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kStealRequest:
        if (give_half(ctx, from) == 0) ctx.send(from, Message::make(kRefused, Empty{}));
        break;
      case kLifelineRequest:
        // GLB never turns a lifeline thief away for good: no work now, it is recorded.
        if (gift(ctx, from) == 0) {
          if (std::find(thieves_.begin(), thieves_.end(), from) == thieves_.end()) thieves_.push_back(from);
          ctx.send(from, Message::make(kRefused, Empty{}));
        }
        break;
      case kRefused:
        waiting_ = false;
        if (ctx.load() == 0) next_steal(ctx);
        break;
      case kLifelineGift:  // the tasks follow: this lifeline may be used again
        for (std::size_t b = 0; b < buddies_.size(); ++b)
          if (buddies_[b] == from) active_[b] = false;
        break;
      default:
        assert(false && "unknown lifeline message kind");
    }
  }

  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t) override {
    if (from == asked_) waiting_ = false;
    distribute(ctx);
  }

  void on_load_change(NodeContext& ctx) override { distribute(ctx); }

private:
  void start_stealing(NodeContext& ctx) {
    if (waiting_) return;  // the answer to the request out decides what comes next
    attempts_ = 0;
    next_steal(ctx);
  }

  // One request at a time: a random victim while attempts are left, then the lifelines
  // not yet active; none left: sleep until tasks arrive.
  void next_steal(NodeContext& ctx) {
    const std::size_t p = ctx.topology().size();
    if (waiting_ || p < 2) return;
    if (attempts_ < w_) {
      ++attempts_;
      NodeId victim = static_cast<NodeId>(ctx.rng().below(p - 1));
      if (victim >= ctx.self()) ++victim;
      ask(ctx, victim, kStealRequest);
      return;
    }
    for (std::size_t b = 0; b < buddies_.size(); ++b) {
      if (active_[b]) continue;
      active_[b] = true;
      ask(ctx, buddies_[b], kLifelineRequest);
      return;
    }
  }

  void ask(NodeContext& ctx, NodeId to, Kind kind) {
    waiting_ = true;
    asked_ = to;
    ctx.send(to, Message::make(kind, Empty{}));
  }

  std::int64_t give_half(NodeContext& ctx, NodeId to) {
    const std::int64_t spare = ctx.spare();
    return spare > 0 ? ctx.migrate(to, (spare + 1) / 2) : 0;
  }

  std::int64_t gift(NodeContext& ctx, NodeId to) {
    if (ctx.spare() == 0) return 0;
    ctx.send(to, Message::make(kLifelineGift, Empty{}));
    return give_half(ctx, to);
  }

  // GLB's distribute(): recorded lifeline thieves get work while this node has some to give.
  void distribute(NodeContext& ctx) {
    while (!thieves_.empty() && ctx.spare() > 0) {
      const NodeId thief = thieves_.back();
      thieves_.pop_back();
      gift(ctx, thief);
    }
  }

  std::uint32_t w_;
  std::size_t base_;
  std::vector<NodeId> buddies_;
  std::vector<bool> active_;     // per buddy: a lifeline request of ours is recorded there
  std::vector<NodeId> thieves_;  // nodes whose lifeline on this node is active
  std::uint32_t attempts_ = 0;
  bool waiting_ = false;
  NodeId asked_ = 0;
};

}  // namespace

std::vector<NodeId> lifeline_buddies(NodeId self, std::size_t nodes, std::size_t base) {
  assert(base >= 2);
  std::vector<NodeId> out;
  std::size_t z = 1;
  for (std::size_t span = base; span < nodes; span *= base) ++z;
  std::size_t x = 1;  // base^j
  for (std::size_t j = 0; j < z; ++j, x *= base) {
    std::size_t v = self;
    for (std::size_t k = 1; k < base; ++k) {
      v = v - v % (x * base) + (v + x * base - x) % (x * base);  // digit j lowered by one, cyclically
      if (v < nodes) {
        if (v != self && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(static_cast<NodeId>(v));
        break;
      }
    }
  }
  return out;
}

StrategyInfo lifeline_strategy_info() { return strategy_info<Lifeline>(); }

}  // namespace dlbkit
