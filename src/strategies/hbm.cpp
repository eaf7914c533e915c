#include <dlbkit/core/registry.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace dlbkit {

namespace {

// Load of the level-(level - 1) domain of the sender: the right half of the receiver's
// level-`level` domain.
struct DomainLoad {
  std::int64_t load;
  std::int32_t level;
};
// Every node of the heavier half of a level-`level` domain sends `delta` tasks to its partner.
struct BalanceOrder {
  std::int64_t delta;
  std::int32_t level;
};

/// The Hierarchical Balancing Method (WLR93 Sec. III-D, parameters from Table II).
///
/// The 2^d nodes form a binary hierarchy of balancing domains (Fig. 4): the level-i domain of
/// node p is the subcube of the 2^i nodes that agree with p on the bits above i - 1, and its
/// controller is the lowest id in it. Domain loads go up the tree by the load update policy
/// (Sec. III-F, u = 1/2), from leaves and intermediate nodes alike. A controller at level i
/// compares the loads of its two halves; when |L_L - L_R| > L_threshold(i) (eq. 22) it tells
/// every node of the heavier half, by a broadcast down that half, to send
/// delta_i = Delta_i / 2^i tasks (eq. 23) to its partner q = p XOR 2^(i-1) (eq. 24).
/// On a hypercube partners are neighbours; on another network of 2^d nodes the messages and
/// tasks are routed and pay for the hops. Other node counts are rejected.
class Hbm final : public Strategy {
public:
  static constexpr const char* name = "hbm";
  static constexpr const char* description =
      "Hierarchical Balancing Method: controllers of nested subcubes balance their two halves";
  static constexpr const char* source = "WLR93 Sec. III-D, III-F, Table II";
  static constexpr RealParam kThresholdBase{.name = "threshold_base", .default_value = "1",
      .description = "L_threshold(i) = threshold_base x 2^i tasks (eq. 22; Table II gives 1000 x 2^i in "
                     "unstated units)",
      .min = 0, .search = {"4", "16"}};
  static constexpr IntegerParam kDeltaMin{.name = "delta_min", .default_value = "1",
      .description = "delta_MIN: smallest delta_i of eq. (23) worth ordering", .min = 1};
  static constexpr RealParam kU{.name = "u", .default_value = "0.5",
      .description = "load update factor of Sec. III-F for leaf and intermediate updates", .min = 1e-9,
      .max = 1};
  static std::vector<ParamSpec> params() { return {kThresholdBase, kDeltaMin, kU}; }
  static void check_topology(const Topology& topology) {
    if (!std::has_single_bit(topology.size()))
      throw InputError("topology " + topology.spec() + " has " + std::to_string(topology.size()) +
                       " nodes: strategy hbm needs 2^d nodes; accepted: a hypercube, or another network of 2^d "
                       "nodes (where it routes to the partner)");
  }
  enum Kind : std::uint16_t { kDomainLoad, kBalanceOrder, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"domain_load", "balance_order"};

  explicit Hbm(const Parameters& p)
      : threshold_base_(p[kThresholdBase]), delta_min_(p[kDeltaMin]), u_(p[kU]) {}

  void on_start(NodeContext& ctx) override {
    const std::size_t n = ctx.topology().size();
    assert(std::has_single_bit(n));
    const int d = std::countr_zero(n);
    const NodeId p = ctx.self();
    top_ = p == 0 ? d : std::countr_zero(p);  // p controls the levels 1..top_
    half_.assign(static_cast<std::size_t>(top_) + 1, {0, 0});
    heard_.assign(static_cast<std::size_t>(top_) + 1, false);
    policy_.assign(static_cast<std::size_t>(top_) + 1, LoadUpdatePolicy(u_));
    refresh(ctx);
  }

  void on_load_change(NodeContext& ctx) override { refresh(ctx); }

  void on_message(NodeContext& ctx, [[maybe_unused]] NodeId from, const Message& m) override {
    switch (m.kind) {
      case kDomainLoad: {
        const auto update = m.as<DomainLoad>();
        const auto i = static_cast<std::size_t>(update.level);
        assert(update.level >= 1 && update.level <= top_ && from == ctx.self() + (NodeId{1} << (i - 1)));
        half_[i][1] = update.load;
        heard_[i] = true;
        refresh(ctx);
        break;
      }
      case kBalanceOrder: {
        const auto order = m.as<BalanceOrder>();
        execute(ctx, order.level, order.delta);
        break;
      }
      default:
        assert(false && "unknown HBM message kind");
    }
  }

private:
  // Domain loads up the hierarchy by the update policy, then eq. (22) at every level p controls.
  void refresh(NodeContext& ctx) {
    const NodeId p = ctx.self();
    for (int j = 0; j <= top_; ++j) {
      const auto lj = static_cast<std::size_t>(j);
      if (j > 0 && !heard_[lj]) break;  // the domain's load is not known yet
      const std::int64_t load = j == 0 ? ctx.load() : half_[lj][0] + half_[lj][1];
      if (!policy_[lj].due(load)) continue;
      if (j < top_) {
        half_[lj + 1][0] = load;  // p also controls the parent domain: its left half
      } else if (p != 0) {
        const NodeId parent = p - (NodeId{1} << lj);
        ctx.send(parent, Message::make(kDomainLoad, DomainLoad{load, j + 1}));
      }
      policy_[lj].reported(load);
    }
    for (int i = 1; i <= top_; ++i) balance(ctx, i);
  }

  void balance(NodeContext& ctx, int i) {
    const auto li = static_cast<std::size_t>(i);
    if (!heard_[li]) return;
    const std::int64_t left = half_[li][0], right = half_[li][1];
    const std::int64_t imbalance = std::llabs(left - right);  // Delta_i
    if (static_cast<double>(imbalance) <= threshold_base_ * std::ldexp(1.0, i)) return;  // eq. (22)
    const std::int64_t delta = imbalance >> i;  // eq. (23), rounded down
    if (delta < delta_min_) return;
    // Until the halves report again, assume the order carried out: Delta_i / 2 moves over.
    const std::int64_t moved = delta << (i - 1);
    const std::size_t heavier = left > right ? 0 : 1;
    half_[li][heavier] -= moved;
    half_[li][1 - heavier] += moved;
    const NodeId root = ctx.self() + (heavier == 0 ? 0 : NodeId{1} << (i - 1));
    if (root == ctx.self()) execute(ctx, i, delta);
    else ctx.send(root, Message::make(kBalanceOrder, BalanceOrder{delta, i}));
  }

  // Passes the order down the heavier half (a binomial tree by dimensions, rooted at the
  // half's lowest id), then sends delta tasks to the partner, eq. (24).
  void execute(NodeContext& ctx, int level, std::int64_t delta) {
    const NodeId x = ctx.self();
    const NodeId offset = x & ((NodeId{1} << (level - 1)) - 1);
    const int below = offset == 0 ? level - 1 : std::countr_zero(offset);
    const Message order = Message::make(kBalanceOrder, BalanceOrder{delta, level});
    for (int j = 0; j < below; ++j) ctx.send(x + (NodeId{1} << j), order);
    ctx.migrate(x ^ (NodeId{1} << (level - 1)), delta);
  }

  double threshold_base_;
  std::int64_t delta_min_;
  double u_;
  int top_ = 0;
  std::vector<std::array<std::int64_t, 2>> half_;  // half_[i]: loads of the left and right halves of level i
  std::vector<bool> heard_;                        // heard_[i]: the right half of level i has reported
  std::vector<LoadUpdatePolicy> policy_;           // policy_[j]: reports of p's level-j domain load
};

}  // namespace

StrategyInfo hbm_strategy_info() { return strategy_info<Hbm>(); }

}  // namespace dlbkit
