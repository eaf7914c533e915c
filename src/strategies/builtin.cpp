#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/strategies/none.hpp>
#include <dlbkit/strategies/rid.hpp>

namespace dlbkit {

const StrategyRegistry& builtin_strategies() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r;
    r.add(none_strategy_info());
    r.add(rid_strategy_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
