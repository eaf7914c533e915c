#include "shift_rounds.hpp"

#include <dlbkit/strategies/local_rules.hpp>

namespace dlbkit {

namespace {

/// Synchronous nearest-neighbour averaging (Henrich Sec. 2.3 eq. 3, 5; Sec. 5) as a
/// message-driven agent on a ring. Every `period` a round runs: each node sends its number of
/// queued tasks to both neighbours, then ships to each the elements of the transfer rule
/// (net, default: over each link the difference of the opposed eq.-5 transfers, rounded up to
/// the right and down to the left; gross: ceil(L/3) right and floor(L/3) left), and tells both
/// how many it shipped. Protocol in docs/strategies.md.
///
/// Parameters: transfer (net or gross), period (time between rounds, default 10ms).
class Nna final : public detail::ShiftRounds {
public:
  static constexpr const char* name = "nna";
  static constexpr const char* description =
      "synchronous nearest-neighbour averaging on a ring: rounds of load exchange, a third of the "
      "difference to each neighbour";
  static constexpr const char* source = "Henrich Sec. 2.3 eq. 3, 5; Sec. 5";
  static constexpr ChoiceParam kTransfer{.name = "transfer", .default_value = "net",
      .description = "net: the difference of the opposed transfers (fn. 3); gross: eq. 5 as written",
      .choices = {"net", "gross"}};
  static constexpr DurationParam kPeriod{.name = "period", .default_value = "10ms",
      .description = "time from the end of one averaging round to the start of the next", .min = 1,
      .search = {"1ms", "100ms"}};
  static std::vector<ParamSpec> params() { return {kTransfer, kPeriod}; }
  static void check_topology(const Topology& t) { check_nna_topology(t); }

  explicit Nna(const Parameters& p)
      : ShiftRounds(p[kPeriod], true), transfer_(parse_nna_transfer(p[kTransfer])) {}

private:
  std::pair<NodeId, NodeId> neighbours(const NodeContext& ctx, std::uint64_t) const override {
    const std::size_t n = ctx.topology().size(), self = ctx.self();
    return {static_cast<NodeId>((self + n - 1) % n), static_cast<NodeId>((self + 1) % n)};
  }

  // Sec. 5: to the right rounded up, to the left rounded down (local_rules.hpp).
  std::pair<std::int64_t, std::int64_t> transfers(std::int64_t pred, std::int64_t self,
                                                  std::int64_t succ) const override {
    if (transfer_ == NnaTransfer::gross) return {nna_left(self), nna_right(self)};
    return {std::max<std::int64_t>(0, -nna_net_flow(pred, self)), std::max<std::int64_t>(0, nna_net_flow(self, succ))};
  }

  NnaTransfer transfer_;
};

}  // namespace

StrategyInfo nna_strategy_info() { return strategy_info<Nna>(); }

}  // namespace dlbkit
