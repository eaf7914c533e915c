#include <dlbkit/core/registry.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <algorithm>
#include <cassert>
#include <vector>

namespace dlbkit {

namespace {

enum Timer : std::uint64_t { kRetest, kAnnounce };

struct Proximity {
  std::int32_t proximity;
};

// ceil(log2 n) for n >= 1.
std::uint32_t ceil_log2(std::size_t n) {
  std::uint32_t bits = 0;
  while ((std::size_t{1} << bits) < n) ++bits;
  return bits;
}

/// The Gradient Model (WLR93 Sec. III-A and V, parameters from Table II).
///
/// A node is light below the Low-Water-Mark, heavy above the High-Water-Mark and moderate
/// otherwise. Its proximity is 0 when light and min over its neighbours + 1 otherwise (eq. 5),
/// capped at w_max = the network's diameter; a node tells its neighbours whenever its
/// proximity changes. A heavy node with a neighbour of proximity below w_max sends delta tasks
/// to the neighbour of lowest proximity whenever its load changes; tasks arriving at a node that is not light move on
/// to a neighbour of lower proximity, at most max_hops moves per task (the hop counter of
/// Sec. V).
class Gm final : public Strategy {
public:
  static constexpr const char* name = "gm";
  static constexpr const char* description =
      "Gradient Model: heavy nodes send tasks down a proximity map toward the nearest light node";
  static constexpr const char* source = "WLR93 Sec. III-A, V, Table II";
  static constexpr RealParam kLwm{.name = "lwm", .default_value = "auto",
      .description = "Low-Water-Mark: light below it; auto = 1 + L_LIMIT/10 with L_LIMIT the node's "
                     "initial load, as in rid",
      .min = 0, .allow_auto = true};
  static constexpr RealParam kHwm{.name = "hwm", .default_value = "auto",
      .description = "High-Water-Mark: heavy above it; auto = 2 LWM", .min = 0, .allow_auto = true};
  static constexpr IntegerParam kDelta{.name = "delta", .default_value = "1",
      .description = "delta: tasks a heavy node sends each time it acts", .min = 1, .search = {"2", "4"}};
  static constexpr IntegerParam kMaxHops{.name = "max_hops", .default_value = "auto",
      .description = "most moves of one task (the hop counter of Sec. V); auto = ceil(log2 N)", .min = 1,
      .allow_auto = true};
  static constexpr BooleanParam kActOnProximity{.name = "act_on_proximity", .default_value = "false",
      .description = "a heavy node also sends delta tasks on each proximity message, not only when its "
                     "own load changes or retest passes"};
  static constexpr DurationParam kRetestAfter{.name = "retest", .default_value = "30ms",
      .description = "a heavy node tests III-A's condition again at a check this long after its last "
                     "send, and announces a fall in proximity at most this often (our choice: the paper "
                     "gives no rate)",
      .min = 1000};
  static std::vector<ParamSpec> params() { return {kLwm, kHwm, kDelta, kMaxHops, kActOnProximity, kRetestAfter}; }
  enum Kind : std::uint16_t { kProximity, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"proximity"};

  explicit Gm(const Parameters& p)
      : lwm_auto_(p.is_auto(kLwm)),
        hwm_auto_(p.is_auto(kHwm)),
        max_hops_auto_(p.is_auto(kMaxHops)),
        lwm_(lwm_auto_ ? 0 : p[kLwm]),
        hwm_(hwm_auto_ ? 0 : p[kHwm]),
        delta_(p[kDelta]),
        act_on_proximity_(p[kActOnProximity]),
        retest_(p[kRetestAfter]),
        max_hops_(max_hops_auto_ ? 0 : static_cast<std::uint32_t>(p[kMaxHops])) {}

  void on_start(NodeContext& ctx) override {
    // Table II: LWM = 1 + L_LIMIT/10 with L_LIMIT the node's initial load, as in rid;
    // HWM = 2 LWM; max_hops = log N, rounded up.
    if (lwm_auto_) lwm_ = 1.0 + static_cast<double>(ctx.load()) / 10.0;
    if (hwm_auto_) hwm_ = 2.0 * lwm_;
    if (max_hops_auto_) max_hops_ = ceil_log2(ctx.topology().size());
    w_max_ = ctx.topology().diameter();
    proximity_ = w_max_;  // every node starts at w_max, so only changes need telling
    neighbor_proximity_.assign(ctx.neighbors().size(), w_max_);
    told_ = proximity_;
    update_proximity(ctx);
    send_load(ctx, /*retest=*/false);
  }

  void on_load_change(NodeContext& ctx) override {
    update_proximity(ctx);
    send_load(ctx, /*retest=*/false);
  }

  void on_timer(NodeContext& ctx, std::uint64_t tag) override {
    if (tag == kAnnounce) {
      announce_armed_ = false;
      announce(ctx);
    } else {
      retest_armed_ = false;
      send_load(ctx, /*retest=*/true);
    }
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    assert(m.kind == kProximity);
    const int k = neighbor_index(ctx, from);
    assert(k >= 0);
    neighbor_proximity_[static_cast<std::size_t>(k)] = m.as<Proximity>().proximity;
    update_proximity(ctx);
    if (act_on_proximity_) send_load(ctx, /*retest=*/false);
    else arm_retest(ctx);  // the condition may hold now; test it at a later check
  }

  void on_tasks_arrived(NodeContext& ctx, NodeId, std::int64_t count) override {
    // A task keeps moving until it reaches a light node or a node with no lower neighbour.
    if (light(ctx)) return;
    const std::size_t k = lowest_neighbor();
    if (neighbor_proximity_[k] < proximity_) ctx.migrate(ctx.neighbors()[k], count, max_hops_);
  }

private:
  bool light(const NodeContext& ctx) const { return static_cast<double>(ctx.load()) < lwm_; }
  bool heavy(const NodeContext& ctx) const { return static_cast<double>(ctx.load()) > hwm_; }

  // The neighbour of lowest proximity; ties go to the lowest neighbour index.
  std::size_t lowest_neighbor() const {
    return static_cast<std::size_t>(std::min_element(neighbor_proximity_.begin(), neighbor_proximity_.end()) -
                                    neighbor_proximity_.begin());
  }

  // eq. (5), capped at w_max; a change is told to every neighbour (announce()).
  void update_proximity(NodeContext& ctx) {
    int p = 0;
    if (!light(ctx)) {
      const int nearest = neighbor_proximity_.empty() ? w_max_ : neighbor_proximity_[lowest_neighbor()];
      p = std::min(nearest + 1, w_max_);
    }
    proximity_ = p;
    announce(ctx);
  }

  // Tells the neighbours a proximity that differs from the one they last heard. Damping
  // (our choice; the paper gives none): a fall in proximity (a light node nearer) goes out
  // at most once per `retest`, so a node whose load hovers at LWM does not flip the map
  // back and forth with every task; a fall held back goes out when the period ends, unless
  // it has been undone by then. A rise goes out at once: a node that stopped being light
  // must not keep drawing tasks.
  void announce(NodeContext& ctx) {
    if (proximity_ == told_) return;
    if (proximity_ < told_ && (announce_armed_ || ctx.now() < next_announce_)) {
      if (!announce_armed_) ctx.set_timer(next_announce_ - ctx.now(), kAnnounce);
      announce_armed_ = true;  // a fall waits for the pending announcement
      return;
    }
    told_ = proximity_;
    next_announce_ = ctx.now() + retest_;
    const Message m = Message::make(kProximity, Proximity{proximity_});
    for (NodeId n : ctx.neighbors()) ctx.send(n, m);
  }

  // III-A: "if a processor's state is heavy and any of its near-neighbors report a
  // proximity less than w_max, then it sends a unit of its load to the neighbor of lowest
  // proximity". The condition is tested at every change of the node's load, and at a check
  // `retest` after the last send while it may hold (our rate: the paper gives none).
  bool may_send(const NodeContext& ctx) const {
    return !neighbor_proximity_.empty() && heavy(ctx) && neighbor_proximity_[lowest_neighbor()] < w_max_;
  }

  void send_load(NodeContext& ctx, bool retest) {
    if (!may_send(ctx) || (retest && ctx.now() < next_send_)) {
      arm_retest(ctx);
      return;
    }
    ctx.migrate(ctx.neighbors()[lowest_neighbor()], delta_, max_hops_);
    next_send_ = ctx.now() + retest_;
    arm_retest(ctx);
  }

  void arm_retest(NodeContext& ctx) {
    if (retest_armed_ || !may_send(ctx)) return;
    retest_armed_ = true;
    ctx.set_timer(std::max<SimTime>(next_send_ - ctx.now(), 0), kRetest);  // at the next check, or when the rate allows
  }

  bool lwm_auto_, hwm_auto_, max_hops_auto_;
  double lwm_, hwm_;
  std::int64_t delta_;
  bool act_on_proximity_;
  SimTime retest_;
  std::uint32_t max_hops_;
  int w_max_ = 0;
  int proximity_ = 0;
  int told_ = 0;                 // the proximity the neighbours last heard
  SimTime next_announce_ = 0;    // earliest time to announce a fall in proximity
  SimTime next_send_ = 0;        // earliest time of a retest's send: retest after the last send
  bool announce_armed_ = false, retest_armed_ = false;
  std::vector<int> neighbor_proximity_;
};

}  // namespace

StrategyInfo gm_strategy_info() { return strategy_info<Gm>(); }

}  // namespace dlbkit
