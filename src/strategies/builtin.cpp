#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/strategies/dem.hpp>
#include <dlbkit/strategies/gm.hpp>
#include <dlbkit/strategies/hbm.hpp>
#include <dlbkit/strategies/none.hpp>
#include <dlbkit/strategies/rid.hpp>
#include <dlbkit/strategies/sid.hpp>
#include <dlbkit/strategies/work_stealing.hpp>

namespace dlbkit {

const StrategyRegistry& builtin_strategies() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r;
    r.add(none_strategy_info());
    r.add(rid_strategy_info());
    r.add(sid_strategy_info());
    r.add(gm_strategy_info());
    r.add(hbm_strategy_info());
    r.add(dem_strategy_info());
    r.add(work_stealing_strategy_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
