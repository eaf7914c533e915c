#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/strategies/dem.hpp>
#include <dlbkit/strategies/direct_neighbor.hpp>
#include <dlbkit/strategies/fully_distributed.hpp>
#include <dlbkit/strategies/gm.hpp>
#include <dlbkit/strategies/hbm.hpp>
#include <dlbkit/strategies/lifeline.hpp>
#include <dlbkit/strategies/liquid.hpp>
#include <dlbkit/strategies/nna.hpp>
#include <dlbkit/strategies/none.hpp>
#include <dlbkit/strategies/rid.hpp>
#include <dlbkit/strategies/semi_distributed.hpp>
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
    r.add(liquid_strategy_info());
    r.add(nna_strategy_info());
    r.add(direct_neighbor_strategy_info());
    r.add(semi_distributed_strategy_info());
    r.add(fully_distributed_strategy_info());
    r.add(work_stealing_strategy_info());
    r.add(lifeline_strategy_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
