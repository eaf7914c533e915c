#include "shift_rounds.hpp"

#include <dlbkit/strategies/local_rules.hpp>

#include <vector>

namespace dlbkit {

namespace {

/// The Liquid model as a message-driven agent (Henrich Sec. 3.2, Table 1, Definition 1), on a
/// D-dimensional torus (torus, ring, hypercube). Shift rounds run `period` apart; round r works
/// in dimension r mod D: every node sends its number of queued tasks L (the load elements that
/// can move) to its predecessor and successor in that dimension, evaluates the shift condition
/// on (L_pred, L, L_succ) and, where it holds, ships one task to its successor. A node waits for
/// its neighbours' loads and its predecessor's shift before the next round, so rounds stay
/// synchronous under any message delays (protocol in docs/strategies.md).
///
/// Parameters: condition (c0..c5, default c5), period (time between rounds, default 10ms).
class Liquid final : public detail::ShiftRounds {
public:
  static constexpr const char* name = "liquid";
  static constexpr const char* description =
      "Liquid model: synchronous rounds, one task to the successor in one dimension per round when "
      "the shift condition holds";
  static constexpr const char* source = "Henrich Sec. 3.2, Table 1, Definition 1";
  static constexpr ChoiceParam kCondition{.name = "condition", .default_value = "c5",
      .description = "shift condition of Table 1 (c3..c5 balance; c0..c2 only share)",
      .choices = {"c0", "c1", "c2", "c3", "c4", "c5"}};
  static constexpr DurationParam kPeriod{.name = "period", .default_value = "10ms",
      .description = "time from the end of one shift round to the start of the next", .min = 1,
      .search = {"1ms", "100ms"}};
  static std::vector<ParamSpec> params() { return {kCondition, kPeriod}; }
  static void check_topology(const Topology& t) { check_liquid_topology(t); }

  explicit Liquid(const Parameters& p)
      : ShiftRounds(p[kPeriod], false), condition_(parse_shift_condition(p[kCondition])) {}

private:
  // Definition 1: round r is the sub-step in dimension d = r mod D; the neighbours differ from
  // this node by one in coordinate d, cyclically (mixed radix, axis 0 fastest; generators.hpp).
  std::pair<NodeId, NodeId> neighbours(const NodeContext& ctx, std::uint64_t round) const override {
    const auto extents = ctx.topology().extents();
    const std::size_t d = round % extents.size();
    std::size_t stride = 1;
    for (std::size_t i = 0; i < d; ++i) stride *= static_cast<std::size_t>(extents[i]);
    const auto k = static_cast<std::size_t>(extents[d]);
    const std::size_t self = ctx.self(), c = self / stride % k, base = self - c * stride;
    return {static_cast<NodeId>(base + (c + k - 1) % k * stride), static_cast<NodeId>(base + (c + 1) % k * stride)};
  }

  std::pair<std::int64_t, std::int64_t> transfers(std::int64_t pred, std::int64_t self,
                                                  std::int64_t succ) const override {
    return {0, shifts(condition_, pred, self, succ)};
  }

  ShiftCondition condition_;
};

}  // namespace

StrategyInfo liquid_strategy_info() { return strategy_info<Liquid>(); }

}  // namespace dlbkit
