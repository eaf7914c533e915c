#include <dlbkit/strategies/none.hpp>

namespace dlbkit {

namespace {
class NoBalancing final : public Strategy {};
}  // namespace

StrategyInfo none_strategy_info() {
  return StrategyInfo{
      .name = "none",
      .description = "no balancing (NOBAL): each node executes the tasks it was given",
      .source = "WLR93 Table IV baseline",
      .params = {},
      .message_kinds = {},
      .create = [](const Parameters&) { return std::make_unique<NoBalancing>(); },
      .in_place = in_place_of<NoBalancing>([](const Parameters&) { return NoBalancing(); }),
      .check_topology = {},
      .checks_messages = false,
  };
}

}  // namespace dlbkit
