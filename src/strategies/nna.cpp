#include "shift_rounds.hpp"

#include <dlbkit/strategies/local_rules.hpp>
#include <dlbkit/strategies/nna.hpp>

namespace dlbkit {

namespace {

class Nna final : public detail::ShiftRounds {
public:
  explicit Nna(const Parameters& p)
      : ShiftRounds(p.duration("period"), true), transfer_(parse_nna_transfer(p.text("transfer"))) {}

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

StrategyInfo nna_strategy_info() {
  return StrategyInfo{
      .name = "nna",
      .description = "synchronous nearest-neighbour averaging on a ring: rounds of load exchange, a third of the "
                     "difference to each neighbour",
      .source = "Henrich Sec. 2.3 eq. 3, 5; Sec. 5",
      .params =
          {
              {.name = "transfer", .type = ParamType::choice, .default_value = "net",
               .description = "net: the difference of the opposed transfers (fn. 3); gross: eq. 5 as written",
               .choices = {"net", "gross"}},
              {.name = "period", .type = ParamType::duration, .default_value = "10ms",
               .description = "time from the end of one averaging round to the start of the next", .min = 1},
          },
      .message_kinds = {"round_load", "round_shift"},
      .create = [](const Parameters& p) { return std::make_unique<Nna>(p); },
      .in_place = in_place_of<Nna>(),
      .check_topology = check_nna_topology,
  };
}

}  // namespace dlbkit
