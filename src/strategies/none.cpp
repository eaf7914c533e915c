#include <dlbkit/core/registry.hpp>

namespace dlbkit {

namespace {

/// `none` (NOBAL in WLR93 Table IV): every node executes its own tasks; nothing moves.
class NoBalancing final : public Strategy {
public:
  static constexpr const char* name = "none";
  static constexpr const char* description = "no balancing (NOBAL): each node executes the tasks it was given";
  static constexpr const char* source = "WLR93 Table IV baseline";
  static constexpr bool checks_messages = false;

  explicit NoBalancing(const Parameters&) {}
};

}  // namespace

StrategyInfo none_strategy_info() { return strategy_info<NoBalancing>(); }

}  // namespace dlbkit
